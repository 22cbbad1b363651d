import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a URL was refused as a fetch target. */
export type TargetRefusalReason =
  'private_address' | 'unresolvable' | 'invalid_url' | 'unsupported_scheme' | 'credentials_in_url';

/** Resolves a host name to every address it has (IPv4 and IPv6, as strings). */
export type HostLookup = (host: string) => Promise<string[]>;

export interface AssertPublicUrlOptions {
  /** Skip the address check (local development and tests); URL shape, scheme and credentials are still checked. */
  allowPrivate?: boolean;
  /** Replaces DNS resolution (default: `dns.promises.lookup(host, { all: true, verbatim: true })`). */
  lookup?: HostLookup;
  /**
   * Replaces `isPublicAddress` as the address predicate. Meant for tests that must treat a loopback address as
   * "public" while still refusing others; production code should leave it unset.
   */
  isAllowedAddress?: (ip: string) => boolean;
  /**
   * Resolve a host name and check its addresses (default). False leaves that to a connect-time lookup
   * (`checkedConnectLookup`), which checks the very addresses the socket then uses; IP literals and `localhost` names
   * are still refused here.
   */
  resolveHost?: boolean;
}

/** A URL the service must not fetch: not http(s), carries credentials, or reaches a non-public address. */
export class TargetNotPublicError extends Error {
  override readonly name = 'TargetNotPublicError';

  constructor(
    readonly url: string,
    readonly host: string,
    readonly address: string | null,
    readonly reason: TargetRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * True only for globally routable unicast addresses. Loopback, private, link-local, carrier-grade NAT, multicast,
 * unspecified, documentation, benchmarking and other special ranges are refused; IPv6 forms that embed an IPv4
 * address (mapped, translated, NAT64, 6to4) are judged by the embedded address. Unparseable input is not public.
 */
export function isPublicAddress(ip: string): boolean {
  const literal = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(literal);
  } catch {
    return false;
  }
  return isPublicParsedAddress(address);
}

function isPublicParsedAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  const range = v6.range();
  const embedded = embeddedIPv4(v6, range);
  if (embedded !== undefined) return embedded !== null && embedded.range() === 'unicast';
  return range === 'unicast';
}

/**
 * The IPv4 address an IPv6 address stands for: a parsed address when one is embedded, null when the form embeds one
 * but cannot be judged safely (refused), undefined when the address is plain IPv6.
 */
function embeddedIPv4(v6: ipaddr.IPv6, range: string): ipaddr.IPv4 | null | undefined {
  const parts = v6.parts;
  const lastTwo = (high: number, low: number): ipaddr.IPv4 =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d (IPv4-translated)
      return lastTwo(parts[6], parts[7]);
    case 'rfc6052':
      // 64:ff9b::/96 is the well-known NAT64 prefix; 64:ff9b:1::/48 is for local networks only.
      return parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((part) => part === 0)
        ? lastTwo(parts[6], parts[7])
        : null;
    case '6to4': // 2002:AABB:CCDD::/48 routes to a.b.c.d
      return lastTwo(parts[1], parts[2]);
    case 'teredo': // the client address is obfuscated and the relay decides where it goes
      return null;
    default:
      // ::a.b.c.d (deprecated IPv4-compatible form); :: and ::1 are classified before this as non-unicast.
      return range === 'unicast' && parts.slice(0, 6).every((part) => part === 0) ? null : undefined;
  }
}

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

async function defaultLookup(host: string): Promise<string[]> {
  const results = await dns.lookup(host, { all: true, verbatim: true });
  return results.map((result) => result.address);
}

/** `localhost` and its subdomains always mean this machine (RFC 6761), whatever DNS says. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Throws TargetNotPublicError unless `url` is an absolute http(s) URL without credentials whose host is (or resolves
 * only to) public addresses. Every resolved address must be public: one private answer is enough to refuse, because
 * the browser may pick any of them.
 */
export async function assertPublicUrl(url: string, options: AssertPublicUrlOptions = {}): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetNotPublicError(url, '', null, 'invalid_url', `${url} is not a valid absolute URL`);
  }
  const host = parsed.hostname;
  if (!ALLOWED_SCHEMES.has(parsed.protocol)) {
    const scheme = parsed.protocol.replace(/:$/, '');
    throw new TargetNotPublicError(url, host, null, 'unsupported_scheme', `${scheme} URLs are not allowed: ${url}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TargetNotPublicError(url, host, null, 'credentials_in_url', `URLs with credentials are not allowed`);
  }
  if (host === '') throw new TargetNotPublicError(url, host, null, 'invalid_url', `${url} has no host`);
  if (options.allowPrivate) return;

  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(literal) !== 0) {
    if (!isAllowed(literal)) throw privateAddressError(url, host, literal);
    return;
  }
  if (isLocalhostName(host)) {
    throw new TargetNotPublicError(url, host, null, 'private_address', `${host} always refers to this machine`);
  }
  if (options.resolveHost === false) return;

  let addresses: string[];
  try {
    addresses = await (options.lookup ?? defaultLookup)(host);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new TargetNotPublicError(url, host, null, 'unresolvable', `could not resolve ${host}: ${detail}`);
  }
  if (addresses.length === 0) {
    throw new TargetNotPublicError(url, host, null, 'unresolvable', `${host} has no addresses`);
  }
  const refused = addresses.find((address) => !isAllowed(address));
  if (refused !== undefined) throw privateAddressError(url, host, refused);
}

function privateAddressError(url: string, host: string, address: string): TargetNotPublicError {
  const target = host === address || host === `[${address}]` ? address : `${host} (${address})`;
  return new TargetNotPublicError(url, host, address, 'private_address', `${target} is not a public address`);
}

/** The `lookup` of `net.connect` (and so of undici's `connect` option), in both of its calling forms. */
export type ConnectLookup = (
  hostname: string,
  options: { all?: boolean },
  callback: (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void,
) => void;

/**
 * A connect-time lookup that resolves the host and refuses (unless private targets are allowed) when any address
 * is not public, then hands the checked addresses to the socket: the connection goes to an address that was checked,
 * with no second DNS answer between the check and the connect (DNS rebinding). IP literals never reach a lookup; check
 * them with `assertPublicUrl` first.
 */
export function checkedConnectLookup(options: AssertPublicUrlOptions = {}): ConnectLookup {
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  return (hostname, lookupOptions, callback) => {
    (options.lookup ?? defaultLookup)(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(new Error(`${hostname} has no addresses`), '');
        const refused = options.allowPrivate ? undefined : addresses.find((address) => !isAllowed(address));
        if (refused !== undefined || (!options.allowPrivate && isLocalhostName(hostname))) {
          const url = `//${hostname}`;
          return callback(privateAddressError(url, hostname, refused ?? hostname), '');
        }
        if (lookupOptions.all)
          callback(
            null,
            addresses.map((address) => ({ address, family: isIP(address) })),
          );
        else callback(null, addresses[0], isIP(addresses[0]));
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
    );
  };
}
