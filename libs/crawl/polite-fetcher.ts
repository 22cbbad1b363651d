import {
  type AssertPublicUrlOptions,
  discardBody,
  fetchGuarded,
  RedirectError,
  refusalOf,
  type Response,
} from '../net-guard';
import type { HostLimiter } from './host-limiter';

export const USER_AGENT = 'VigilBot/1.0 (+https://vigil.example.com/bot)';
/** The robots.txt token Vigil obeys. */
export const ROBOTS_AGENT = 'VigilBot';

export interface PoliteFetchSettings {
  guard: AssertPublicUrlOptions;
  limiter: HostLimiter;
  /** Bound on one URL: every redirect hop and the body. */
  timeoutMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Retries of a URL that answers 429 or 503. */
  retries: number;
}

export interface FetchRequest {
  /** Spacing between requests to the host (Crawl-delay), in ms. */
  delayMs: number;
  /** The body is read up to this many bytes, the rest is dropped. */
  maxBytes: number;
  accept: string;
  maxRedirects: number;
  /** Whether to follow a redirect to `next`; a declined redirect is answered as it is. */
  followRedirect?: (next: URL) => boolean;
  /** Whether the body is worth reading, from the final response's content type. */
  wantBody?: (contentType: string | null) => boolean;
}

export type FetchOutcome =
  | {
      kind: 'response';
      /** The last URL fetched. */
      url: string;
      status: number;
      contentType: string | null;
      headers: Headers;
      /** Null when not wanted. */
      body: Buffer | null;
      redirects: number;
      declinedRedirect: string | null;
    }
  | {
      kind: 'failed';
      /** `refused`: the SSRF guard refused a hop; `redirects`: too many or a malformed Location. */
      reason: 'refused' | 'redirects' | 'timeout' | 'network';
      /** The URL fetched when it failed. */
      url: string;
      message: string;
    };

/**
 * Fetches for the crawler as a polite robot: through the host's limiter (2 in flight, or 1 with Crawl-delay), with back-off on
 * 429 and 503 (Retry-After when given, else doubling from the base, capped), a bound on each URL, every redirect hop
 * through the SSRF guard and connections only to checked addresses.
 */
export class PoliteFetcher {
  constructor(private readonly settings: PoliteFetchSettings) {}

  async fetch(url: string, request: FetchRequest): Promise<FetchOutcome> {
    const host = new URL(url).host;
    for (let attempt = 0; ; attempt += 1) {
      const outcome = await this.settings.limiter.run(host, request.delayMs, () => this.fetchOnce(url, request));
      const busy = outcome.kind === 'response' && (outcome.status === 429 || outcome.status === 503);
      if (!busy || attempt >= this.settings.retries) return outcome;
      this.settings.limiter.pause(host, this.backoffMs(attempt, outcome.headers.get('retry-after')));
    }
  }

  private async fetchOnce(url: string, request: FetchRequest): Promise<FetchOutcome> {
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    let hop = url;
    try {
      const fetched = await fetchGuarded(url, {
        guard: this.settings.guard,
        signal,
        headers: { 'user-agent': USER_AGENT, accept: request.accept },
        maxRedirects: request.maxRedirects,
        followRedirect: async (next) => {
          if (!(request.followRedirect?.(next) ?? true)) return false;
          // Each hop is a request of its own: it keeps the host's Crawl-delay too.
          await this.settings.limiter.nextStart(next.host, new URL(hop).host);
          hop = next.href;
          return true;
        },
      });
      const { response } = fetched;
      const contentType = response.headers.get('content-type');
      const wanted = fetched.declinedRedirect === null && (request.wantBody?.(contentType) ?? true);
      const body = wanted ? await readUpTo(response, request.maxBytes) : null;
      if (!wanted) await discardBody(response);
      return {
        kind: 'response',
        url: fetched.url,
        status: response.status,
        contentType,
        headers: response.headers as unknown as Headers,
        body,
        redirects: fetched.redirects,
        declinedRedirect: fetched.declinedRedirect,
      };
    } catch (error) {
      if (signal.aborted) {
        return {
          kind: 'failed',
          reason: 'timeout',
          url: hop,
          message: `no answer within ${this.settings.timeoutMs} ms`,
        };
      }
      if (error instanceof RedirectError)
        return { kind: 'failed', reason: 'redirects', url: hop, message: error.message };
      const refusal = refusalOf(error);
      if (refusal) return { kind: 'failed', reason: 'refused', url: hop, message: refusal.message };
      return { kind: 'failed', reason: 'network', url: hop, message: networkMessage(error) };
    }
  }

  private backoffMs(attempt: number, retryAfter: string | null): number {
    const { backoffBaseMs, backoffMaxMs } = this.settings;
    const asked = retryAfterMs(retryAfter);
    return Math.min(backoffMaxMs, asked ?? backoffBaseMs * 2 ** attempt);
  }
}

/** Retry-After as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** The first `maxBytes` bytes of the body; the rest is not downloaded. */
async function readUpTo(response: Response, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  if (response.body === null) return Buffer.alloc(0);
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    const room = maxBytes - total;
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, room)));
    total += Math.min(chunk.byteLength, room);
    // Leaving the loop cancels the rest of the stream.
    if (total >= maxBytes) break;
  }
  return Buffer.concat(chunks, total);
}

/** undici's "fetch failed" with the useful part (ECONNREFUSED, a certificate error...) from its cause. */
function networkMessage(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return `could not connect: ${cause.code}`;
  if (cause && typeof cause.message === 'string' && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
