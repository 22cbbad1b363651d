import type { Browser, BrowserContext } from 'playwright-core';
import { assertPublicUrl, TargetNotPublicError } from '../net-guard';
import {
  BrowserPool,
  captureBrowserArgs,
  CaptureInfrastructureError,
  DEFAULT_CHROMIUM_PATH,
  errorMessage,
  type PooledBrowser,
} from './browser-pool';
import { CaptureBudget } from './capture-budget';
import { capturePage, missingEvidence, refusalEvidence, withTimeout } from './capture-page';
import { RequestGuard } from './request-guard';
import {
  DEFAULT_CAPTURE_TIMEOUTS,
  VIEWPORT_SIZES,
  type CaptureEngineOptions,
  type CaptureRequest,
  type CaptureResult,
  type CaptureTimeouts,
} from './types';

/** Appended to Chromium's own user agent so site owners can recognise (and allow) our captures. */
export const USER_AGENT_SUFFIX = ' VigilCapture/1';

interface BrowserState {
  userAgent: string;
  processId: number | null;
}

/** A capture's context, so the total deadline can close it while the capture is still running. */
interface RunningCapture {
  context: BrowserContext | null;
  abandoned: boolean;
}

/**
 * Captures pages with one shared headless Chromium: a fresh browser context per capture, evidence or a
 * MissingEvidence record as the result. `capture` throws only for failures of the machinery itself
 * (CaptureInfrastructureError: Chromium cannot start, or it died mid-capture), which callers should retry.
 */
export class CaptureEngine {
  private readonly timeouts: CaptureTimeouts;
  private readonly guard: RequestGuard | null;
  private readonly pool: BrowserPool<BrowserState>;
  /** The process's capture slots, shared by every caller of this engine. */
  readonly budget: CaptureBudget;

  constructor(private readonly options: CaptureEngineOptions = {}) {
    this.timeouts = { ...DEFAULT_CAPTURE_TIMEOUTS, ...options.timeouts };
    this.budget = new CaptureBudget(options.maxConcurrentCaptures ?? 2);
    this.guard = options.allowPrivateTargets
      ? null
      : new RequestGuard({ lookup: options.lookup, isAllowedAddress: options.isAllowedAddress });
    const args = captureBrowserArgs(options.extraBrowserArgs);
    // WebRTC can reach addresses without any HTTP request; without a proxy this keeps it off UDP entirely.
    if (this.guard) args.push('--force-webrtc-ip-handling-policy=disable_non_proxied_udp');
    this.pool = new BrowserPool<BrowserState>({
      executablePath: options.executablePath ?? DEFAULT_CHROMIUM_PATH,
      args,
      launchTimeoutMs: Math.min(30_000, this.timeouts.totalMs),
      prepare: (browser) => this.prepareBrowser(browser),
    });
  }

  /**
   * Captures a page once a slot of the budget is free (by the request's priority); the capture's deadline starts
   * when it gets the slot, not while it waits.
   */
  async capture<R extends CaptureRequest>(request: R): Promise<CaptureResult<R>> {
    return this.budget.run(request.priority ?? 'monitor', () => this.captureNow(request));
  }

  private async captureNow<R extends CaptureRequest>(request: R): Promise<CaptureResult<R>> {
    const startedAt = performance.now();
    const elapsed = (): number => Math.round(performance.now() - startedAt);
    if (!Object.hasOwn(VIEWPORT_SIZES, request.viewport)) {
      throw new TypeError(`unknown viewport ${JSON.stringify(request.viewport)}`);
    }
    const running: RunningCapture = { context: null, abandoned: false };
    const result = await withTimeout(this.run(request, running, elapsed), this.timeouts.totalMs);
    if (result !== 'timeout') return result;
    running.abandoned = true;
    await running.context?.close().catch(() => undefined);
    const message = `the capture did not finish within ${this.timeouts.totalMs} ms`;
    return missingEvidence(request.url, 'timeout', message, elapsed());
  }

  /** Closes the browser; captures still running fail with CaptureInfrastructureError. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  /** The running Chromium's process id, or null before the first capture (diagnostics; crash tests). */
  browserProcessId(): number | null {
    return this.pool.running()?.state.processId ?? null;
  }

  private async run(request: CaptureRequest, running: RunningCapture, elapsed: () => number): Promise<CaptureResult> {
    const refusal = await this.checkTarget(request.url);
    if (refusal) return refusalEvidence(request.url, refusal, elapsed());

    const { pooled, context } = await this.openContext(request);
    running.context = context;
    try {
      if (running.abandoned) return missingEvidence(request.url, 'timeout', 'abandoned', elapsed());
      await this.guard?.guardWebSockets(context);
      const page = await context.newPage();
      // Popups are not part of the evidence and only cost memory.
      context.on('page', (other) => {
        if (other !== page) other.close().catch(() => undefined);
      });
      return await capturePage({
        browser: pooled.browser,
        page,
        request,
        timeouts: this.timeouts,
        guard: this.guard,
        elapsed,
      });
    } catch (error) {
      // capturePage turns page problems into evidence, so whatever reaches here is the machinery's failure.
      if (error instanceof CaptureInfrastructureError) throw error;
      const what = pooled.browser.isConnected() ? 'the capture failed' : 'the browser went away';
      throw new CaptureInfrastructureError(`${what}: ${errorMessage(error)}`, { cause: error });
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  /** The initial URL's refusal, or null. Shape (scheme, credentials) is checked even when private targets are allowed. */
  private async checkTarget(url: string): Promise<TargetNotPublicError | null> {
    if (this.guard) return this.guard.check(url);
    try {
      await assertPublicUrl(url, { allowPrivate: true });
      return null;
    } catch (error) {
      if (error instanceof TargetNotPublicError) return error;
      throw error;
    }
  }

  /** A fresh context; a browser that cannot make one (it crashed while idle) is replaced once. */
  private async openContext(
    request: CaptureRequest,
  ): Promise<{ pooled: PooledBrowser<BrowserState>; context: BrowserContext }> {
    const size = VIEWPORT_SIZES[request.viewport];
    const isMobile = request.viewport === 'mobile';
    for (let attempt = 1; ; attempt++) {
      const pooled = await this.pool.acquire();
      try {
        const context = await pooled.browser.newContext({
          viewport: size,
          screen: size,
          deviceScaleFactor: 1,
          isMobile,
          hasTouch: isMobile,
          reducedMotion: 'reduce',
          colorScheme: 'light',
          // Fixed so both sides of a comparison render dates and numbers alike.
          locale: 'en-US',
          timezoneId: 'UTC',
          userAgent: pooled.state.userAgent + USER_AGENT_SUFFIX,
          // Service workers could answer requests outside the interception; downloads are never evidence.
          serviceWorkers: 'block',
          acceptDownloads: false,
        });
        return { pooled, context };
      } catch (error) {
        this.pool.discard(pooled.browser);
        if (attempt >= 2) {
          throw new CaptureInfrastructureError(`could not open a browser context: ${errorMessage(error)}`, {
            cause: error,
          });
        }
      }
    }
  }

  private async prepareBrowser(browser: Browser): Promise<BrowserState> {
    const session = await browser.newBrowserCDPSession();
    const version = await session.send('Browser.getVersion');
    const processes = await session.send('SystemInfo.getProcessInfo').catch(() => ({ processInfo: [] }));
    await session.detach().catch(() => undefined);
    // Attach before the browser is handed out, so no capture ever runs unguarded.
    await this.guard?.attach(browser);
    const browserProcess = processes.processInfo.find((process) => process.type === 'browser');
    return { userAgent: version.userAgent, processId: browserProcess?.id ?? null };
  }
}
