import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import { type AssertPublicUrlOptions, checkedConnectLookup } from './guard';

/** A server's leaf certificate as a connection was served it. */
export interface ServedCertificate {
  /** `notAfter`, ISO 8601. */
  expiresAt: string;
  /** `notBefore`, ISO 8601. */
  validFrom: string;
  /** Distinguished names, one `key=value` per attribute, comma-separated: `C=US, O=Let's Encrypt, CN=R11`. */
  issuer: string;
  subject: string;
  /** Colon-separated hex, as Node and browsers show it; null where the browser does not tell it (browser checks). */
  fingerprintSha256: string | null;
  /** It verified for the host (chain, dates, name); false for a certificate the check refused. */
  verified: boolean;
}

/** A TLS handshake whose certificate did not verify (expired, wrong host, untrusted issuer…); the socket is closed. */
export class CertificateRefusedError extends Error {
  override readonly name = 'CertificateRefusedError';

  constructor(
    /** OpenSSL's or Node's code: `CERT_HAS_EXPIRED`, `ERR_TLS_CERT_ALTNAME_INVALID`, `DEPTH_ZERO_SELF_SIGNED_CERT`… */
    readonly code: string,
    readonly host: string,
    readonly certificate: ServedCertificate | null,
  ) {
    super(refusalMessage(code, host, certificate));
  }
}

/** The refusal behind an error from a fetch through `CertificateWatch`, wherever undici put it; null when none. */
export function certificateRefusalOf(error: unknown): CertificateRefusedError | null {
  for (let current = error, depth = 0; current && depth < 3; depth += 1) {
    if ((current as Error).name === 'CertificateRefusedError') return current as CertificateRefusedError;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * A dispatcher for one check that records the certificate each TLS connection is served, by origin. Every handshake
 * is a full one (no session is resumed), so what is recorded is the certificate the server presents now, verified
 * now: a resumed session would skip both. Certificates are verified here rather than by the TLS layer so that a
 * refused one is still read (an expired certificate's date belongs in the failure); a connection whose certificate
 * does not verify is destroyed before a byte of the request is written. The SSRF guard's connect-time lookup is the
 * same as for every other fetch.
 */
export class CertificateWatch {
  readonly dispatcher: Agent;
  private readonly served = new Map<string, ServedCertificate>();

  constructor(guard: AssertPublicUrlOptions) {
    const connect = buildConnector({
      lookup: checkedConnectLookup(guard),
      maxCachedSessions: 0,
      // Verified below, from the socket's own verdict, which still covers chain, dates and host name.
      rejectUnauthorized: false,
    });
    this.dispatcher = new Agent({
      connect: (options, callback) =>
        connect(options, (error, socket) => {
          if (error) return callback(error, null);
          if (options.protocol !== 'https:') return callback(null, socket);
          const tlsSocket = socket as TLSSocket;
          // This runs in the socket's secureConnect listener: a throw here would escape to the process.
          try {
            const certificate = servedCertificateOf(tlsSocket);
            if (certificate) this.served.set(originOf(options.protocol, options.hostname, options.port), certificate);
            if (!tlsSocket.authorized) {
              const code = String(tlsSocket.authorizationError ?? 'UNABLE_TO_VERIFY_CERTIFICATE');
              tlsSocket.destroy();
              return callback(new CertificateRefusedError(code, options.hostname, certificate), null);
            }
          } catch (readError) {
            tlsSocket.destroy();
            return callback(readError as Error, null);
          }
          callback(null, socket);
        }),
    });
  }

  /** The certificate served to the last connection to `url`'s origin; null for http and before any handshake. */
  certificateFor(url: string): ServedCertificate | null {
    if (!URL.canParse(url)) return null;
    const { protocol, hostname, port } = new URL(url);
    return protocol === 'https:' ? (this.served.get(originOf(protocol, hostname, port)) ?? null) : null;
  }

  /** Closes the check's connections at once; call after the body is read. */
  async close(): Promise<void> {
    await this.dispatcher.destroy().catch(() => undefined);
  }
}

/** Whole days from `at` to the certificate's expiry, rounded down; negative once it expired. */
export function daysLeft(certificate: Pick<ServedCertificate, 'expiresAt'>, at: Date): number {
  return Math.floor((Date.parse(certificate.expiresAt) - at.getTime()) / 86_400_000);
}

function servedCertificateOf(socket: TLSSocket): ServedCertificate | null {
  const raw = socket.getPeerX509Certificate();
  if (!raw) return null;
  return {
    expiresAt: new Date(raw.validToDate).toISOString(),
    validFrom: new Date(raw.validFromDate).toISOString(),
    issuer: distinguishedName(raw.issuer),
    subject: distinguishedName(raw.subject),
    fingerprintSha256: raw.fingerprint256,
    verified: socket.authorized,
  };
}

/** Node writes a distinguished name one attribute per line. */
function distinguishedName(lines: X509Certificate['issuer']): string {
  return lines.split('\n').filter(Boolean).join(', ');
}

function originOf(protocol: string, hostname: string, port: string | number | null | undefined): string {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return `${protocol}//${bare}:${port || (protocol === 'https:' ? 443 : 80)}`;
}

const REFUSALS: Record<string, string> = {
  CERT_NOT_YET_VALID: 'is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'does not name this host',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'chains to a self-signed certificate that is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'is not issued by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT: 'is not issued by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'is not issued by a trusted authority',
  CERT_REVOKED: 'is revoked',
  CERT_SIGNATURE_FAILURE: 'has an invalid signature',
};

/** "the certificate of shop.example.com expired on 2026-11-20 (CERT_HAS_EXPIRED)". */
function refusalMessage(code: string, host: string, certificate: ServedCertificate | null): string {
  const what =
    code === 'CERT_HAS_EXPIRED' && certificate
      ? `expired on ${certificate.expiresAt.slice(0, 10)}`
      : (REFUSALS[code] ?? 'was refused');
  return `the certificate of ${host} ${what} (${code})`;
}
