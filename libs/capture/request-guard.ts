import type { Browser, BrowserContext, CDPSession } from 'playwright-core';
import { assertPublicUrl, isPublicAddress, TargetNotPublicError, type HostLookup } from '../net-guard';

export interface RequestGuardOptions {
  lookup?: HostLookup;
  isAllowedAddress?: (ip: string) => boolean;
  /** How long a per-host verdict is reused; DNS answers change, so keep it short. */
  verdictTtlMs?: number;
}

/** The part of CDP's `Fetch.requestPaused` event the guard reads (Playwright does not export protocol types). */
interface PausedRequest {
  requestId: string;
  request: { url: string };
}

interface CachedVerdict {
  expiresAt: number;
  verdict: Promise<TargetNotPublicError | null>;
}

/** Schemes that never leave the browser, so there is nothing to check. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const WEB_SCHEMES = new Set(['http:', 'https:']);
const MAX_CACHED_HOSTS = 1_000;

/**
 * Decides which URLs the browser may fetch and enforces it for a whole browser.
 *
 * Requests are intercepted with the Chrome DevTools Fetch domain on the browser target rather than with Playwright's
 * `context.route`: `route` handlers are never called for redirect hops (Playwright continues them itself), so a
 * public page answering `302 Location: http://169.254.169.254/` would be fetched and rendered. The browser-level
 * Fetch domain pauses every hop of every context (pages, iframes, workers) before it is sent.
 */
export class RequestGuard {
  private readonly verdicts = new Map<string, CachedVerdict>();
  private readonly verdictTtlMs: number;

  constructor(private readonly options: RequestGuardOptions = {}) {
    this.verdictTtlMs = options.verdictTtlMs ?? 30_000;
  }

  /** Whether the browser may have talked to `ip` (used on the addresses responses actually came from). */
  isAllowedAddress(ip: string): boolean {
    return (this.options.isAllowedAddress ?? isPublicAddress)(ip);
  }

  /** The refusal for `url`, or null when it may be fetched. Host verdicts are cached for a short while. */
  async check(url: string): Promise<TargetNotPublicError | null> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return new TargetNotPublicError(url, '', null, 'invalid_url', `${url} is not a valid absolute URL`);
    }
    if (LOCAL_SCHEMES.has(parsed.protocol)) return null;
    // WebSocket handshakes are HTTP requests to the same host, so they follow the same rule.
    const protocol = parsed.protocol === 'ws:' ? 'http:' : parsed.protocol === 'wss:' ? 'https:' : parsed.protocol;
    if (!WEB_SCHEMES.has(protocol) || parsed.username !== '' || parsed.password !== '') {
      // Scheme and credentials are properties of the URL, not the host: check them uncached.
      return refusalOf(url, this.assertOptions());
    }
    const verdict = await this.hostVerdict(protocol, parsed.hostname);
    return verdict && verdict.url !== url
      ? new TargetNotPublicError(url, verdict.host, verdict.address, verdict.reason, verdict.message)
      : verdict;
  }

  /** Pauses every request of `browser` until `check` allows it; refused requests fail as blocked by client. */
  async attach(browser: Browser): Promise<void> {
    const session = await browser.newBrowserCDPSession();
    session.on('Fetch.requestPaused', (event) => void this.decide(session, event));
    await session.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
  }

  /**
   * Checks WebSocket connections of pages in `context`: the Fetch domain does not see WebSocket handshakes.
   * Playwright implements this with a page-side WebSocket shim, so it covers pages and frames but not workers.
   */
  async guardWebSockets(context: BrowserContext): Promise<void> {
    await context.routeWebSocket(
      () => true,
      async (socket) => {
        const refusal = await this.check(socket.url());
        if (refusal === null) {
          socket.connectToServer();
          return;
        }
        await socket.close({ code: 1008, reason: 'blocked: target is not public' }).catch(() => undefined);
      },
    );
  }

  private async decide(session: CDPSession, event: PausedRequest): Promise<void> {
    let refusal: TargetNotPublicError | null;
    try {
      refusal = await this.check(event.request.url);
    } catch {
      refusal = new TargetNotPublicError(event.request.url, '', null, 'invalid_url', 'the target check failed');
    }
    // Every paused request must get an answer or the page hangs; a closed session means the browser is gone.
    const answer =
      refusal === null
        ? session.send('Fetch.continueRequest', { requestId: event.requestId })
        : session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
    await answer.catch(() => undefined);
  }

  private hostVerdict(protocol: string, hostname: string): Promise<TargetNotPublicError | null> {
    const now = Date.now();
    const cached = this.verdicts.get(hostname);
    if (cached && cached.expiresAt > now) return cached.verdict;
    if (this.verdicts.size >= MAX_CACHED_HOSTS) this.dropExpiredOrOldest(now);
    const verdict = refusalOf(`${protocol}//${hostname}/`, this.assertOptions());
    this.verdicts.set(hostname, { expiresAt: now + this.verdictTtlMs, verdict });
    return verdict;
  }

  private dropExpiredOrOldest(now: number): void {
    for (const [host, cached] of this.verdicts) {
      if (cached.expiresAt <= now) this.verdicts.delete(host);
    }
    const oldest = this.verdicts.keys().next();
    if (this.verdicts.size >= MAX_CACHED_HOSTS && oldest.done !== true) this.verdicts.delete(oldest.value);
  }

  private assertOptions(): { lookup?: HostLookup; isAllowedAddress?: (ip: string) => boolean } {
    return { lookup: this.options.lookup, isAllowedAddress: this.options.isAllowedAddress };
  }
}

async function refusalOf(
  url: string,
  options: { lookup?: HostLookup; isAllowedAddress?: (ip: string) => boolean },
): Promise<TargetNotPublicError | null> {
  try {
    await assertPublicUrl(url, options);
    return null;
  } catch (error) {
    if (error instanceof TargetNotPublicError) return error;
    const detail = error instanceof Error ? error.message : String(error);
    return new TargetNotPublicError(url, '', null, 'unresolvable', `the target check failed: ${detail}`);
  }
}
