import { Agent, fetch, type Response } from 'undici';
import { assertPublicUrl, type AssertPublicUrlOptions, checkedConnectLookup, type HostLookup } from './guard';
import type { CertificateWatch } from './served-certificates';

export type { Response } from 'undici';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface GuardedFetchOptions {
  guard: AssertPublicUrlOptions;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Redirects followed before giving up with a RedirectError. */
  maxRedirects: number;
  /**
   * Asked before each redirect is followed (after the guard's checks of its URL shape); answer false to stop there
   * and get the redirect response itself back, e.g. because the next hop leaves a crawl's origin.
   */
  followRedirect?: (next: URL) => boolean | Promise<boolean>;
  /**
   * HTTPS hops go through this watch, which records the certificate each connection is served (it must be made with
   * the same guard options); plain HTTP hops use the shared pool.
   */
  certificates?: CertificateWatch;
}

export interface GuardedResponse {
  /** The response of the last URL fetched; the caller reads or discards its body. */
  response: Response;
  /** The last URL fetched. */
  url: string;
  /** Redirects followed to get there. */
  redirects: number;
  /** Where the last response redirected to when `followRedirect` declined it; null otherwise. */
  declinedRedirect: string | null;
}

/** A redirect that cannot be followed: too many of them, or a Location that is no URL. */
export class RedirectError extends Error {
  override readonly name = 'RedirectError';

  constructor(
    readonly kind: 'too_many_redirects' | 'invalid_location',
    /** The URL whose response redirected. */
    readonly url: string,
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * fetch for targets the service does not trust. Redirects are followed here, one hop at a time, so every hop passes
 * the SSRF guard; and the connection goes to an address the guard checked when connecting (the lookup is the
 * connection's own), so a DNS answer that changes between a check and the connect cannot reach a private address.
 * Throws TargetNotPublicError for a refused URL (also as the `cause` of undici's "fetch failed" when the refusal
 * happened at connect time), RedirectError, or a network error.
 */
export async function fetchGuarded(url: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const pool = guardedDispatcher(options.guard);
  // Host names are resolved and checked by the connection itself; this checks the URL's shape and IP literals.
  const shapeOnly: AssertPublicUrlOptions = { ...options.guard, resolveHost: false };
  let current = url;
  for (let redirects = 0; ; redirects += 1) {
    await untilAborted(assertPublicUrl(current, shapeOnly), options.signal);
    const response = await fetch(current, {
      redirect: 'manual',
      signal: options.signal,
      headers: options.headers,
      dispatcher:
        options.certificates && new URL(current).protocol === 'https:' ? options.certificates.dispatcher : pool,
    });
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return { response, url: current, redirects, declinedRedirect: null };
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      await discardBody(response);
      throw new RedirectError(
        'invalid_location',
        current,
        response.status,
        `invalid redirect location ${JSON.stringify(location)}`,
      );
    }
    if (options.followRedirect && !(await options.followRedirect(next))) {
      return { response, url: current, redirects, declinedRedirect: next.href };
    }
    await discardBody(response);
    if (redirects >= options.maxRedirects) {
      throw new RedirectError(
        'too_many_redirects',
        current,
        response.status,
        `more than ${options.maxRedirects} redirects`,
      );
    }
    current = next.href;
  }
}

/** An unread body must be cancelled, or it keeps its connection busy. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/** The refusal behind an error from fetchGuarded, wherever undici put it; null when it was not one. */
export function refusalOf(error: unknown): Error | null {
  for (let current = error, depth = 0; current && depth < 3; depth += 1) {
    if ((current as Error).name === 'TargetNotPublicError') return current as Error;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** Rejects with the abort reason as soon as `signal` aborts; DNS lookups in the guard take no signal of their own. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * One keep-alive connection pool per guard configuration: production has two (private targets allowed or not); tests
 * that bring their own lookup or address predicate get pools of their own, kept as long as that function lives.
 */
const sharedPools = new Map<string, Agent>();
const customPools = new WeakMap<HostLookup | ((ip: string) => boolean), Map<string, Agent>>();

function guardedDispatcher(guard: AssertPublicUrlOptions): Agent {
  const custom = guard.lookup ?? guard.isAllowedAddress;
  let pools = sharedPools;
  if (custom) {
    pools = customPools.get(custom) ?? new Map<string, Agent>();
    customPools.set(custom, pools);
  }
  const key = `${guard.allowPrivate === true}/${guard.lookup ? 'lookup' : ''}/${guard.isAllowedAddress ? 'predicate' : ''}`;
  let agent = pools.get(key);
  if (!agent) pools.set(key, (agent = new Agent({ connect: { lookup: checkedConnectLookup(guard) } })));
  return agent;
}
