import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { assertPublicUrl, TargetNotPublicError } from '../net-guard';
import {
  BrowserPool,
  captureBrowserArgs,
  CaptureInfrastructureError,
  errorMessage,
  type PooledBrowser,
} from './browser-pool';
import { DEFAULT_CHROMIUM_PATH } from './chromium-path';
import { CaptureBudget } from './capture-budget';
import { DEFAULT_CLOCK_TIME, makeDeterministic } from './determinism';
import { capturePage, missingEvidence, refusalEvidence, withTimeout } from './capture-page';
import { RequestGuard } from './request-guard';
import { type ResponseDigest, sameAnswersAgain } from './response-ledger';
import { ScanSharing } from './scan-sharing';
import {
  DEFAULT_CAPTURE_TIMEOUTS,
  VIEWPORT_SIZES,
  type CaptureEngineOptions,
  type CaptureOutcome,
  type CaptureRequest,
  type CaptureResult,
  type CaptureTimeouts,
  type PdfRequest,
} from './types';

/** Appended to Chromium's own user agent so site owners can recognise (and allow) our captures. */
export const USER_AGENT_SUFFIX = ' VigilCapture/1';

interface BrowserState {
  userAgent: string;
  processId: number | null;
}

/** How often one capture (or PDF) starts again on a freshly launched browser after the one running it went away. */
const MAX_RELAUNCHES = 2;

/** A4 with a 12 mm margin all round. */
const PDF_MARGIN = { top: '12mm', right: '12mm', bottom: '12mm', left: '12mm' };

/** Why an attempt ended without a result of its own: its browser went away. */
const BROWSER_LOST = Symbol('browser lost');

/**
 * One try of some browser work: the browser it runs on (known once acquired), its context (so the deadline or the
 * browser's loss can close it while the work still runs), and a promise that settles the moment that browser goes.
 */
class Attempt {
  pooled: PooledBrowser<BrowserState> | null = null;
  context: BrowserContext | null = null;
  abandoned = false;
  readonly startedAt = performance.now();
  private readonly signal = Promise.withResolvers<typeof BROWSER_LOST>();
  readonly lost = this.signal.promise;
  private stopWatching = () => {};
  private readonly onAbandoned: Array<() => void> = [];

  /** Ties the attempt to `pooled`: from now on its loss ends the attempt. */
  runOn(pooled: PooledBrowser<BrowserState>): PooledBrowser<BrowserState> {
    this.stopWatching();
    this.pooled = pooled;
    this.stopWatching = pooled.onLost(() => this.signal.resolve(BROWSER_LOST));
    return pooled;
  }

  /** The attempt is over: its browser's loss no longer concerns it. */
  finish(): void {
    this.stopWatching();
  }

  /** Whether the browser this attempt ran on is gone. */
  browserGone(): boolean {
    return this.pooled !== null && !this.pooled.browser.isConnected();
  }

  elapsed(): number {
    return Math.round(performance.now() - this.startedAt);
  }

  /** Runs `listener` if the attempt is abandoned: what it promised others (a shared scan) will not come. */
  onAbandon(listener: () => void): void {
    this.onAbandoned.push(listener);
  }

  /** Stops whatever still runs of the attempt: it must not open anything more, and its context goes. */
  async abandon(): Promise<void> {
    this.abandoned = true;
    for (const listener of this.onAbandoned.splice(0)) listener();
    await this.context?.close().catch(() => undefined);
  }
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
  private readonly scans: ScanSharing | null;
  /** The process's capture slots, shared by every caller of this engine. */
  readonly budget: CaptureBudget;

  constructor(private readonly options: CaptureEngineOptions = {}) {
    this.timeouts = { ...DEFAULT_CAPTURE_TIMEOUTS, ...options.timeouts };
    this.budget = new CaptureBudget(options.maxConcurrentCaptures ?? 2);
    this.scans = options.shareScans === false ? null : new ScanSharing();
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
   * when it gets the slot, not while it waits. If the browser goes away during the capture, the capture stops at
   * once and starts again, in the same slot, on a freshly launched browser: a crash is never the page's missing
   * evidence. After MAX_RELAUNCHES such restarts it throws CaptureInfrastructureError.
   */
  async capture<R extends CaptureRequest>(request: R): Promise<CaptureResult<R>> {
    if (!Object.hasOwn(VIEWPORT_SIZES, request.viewport)) {
      throw new TypeError(`unknown viewport ${JSON.stringify(request.viewport)}`);
    }
    return this.budget.run(request.priority ?? 'monitor', async () => {
      try {
        const result = await this.onBrowser('the capture', (attempt) => this.run(request, attempt), {
          onDeadline: (attempt) => {
            const message = `the capture did not finish within ${this.timeouts.totalMs} ms`;
            return missingEvidence(request.url, 'timeout', message, attempt.elapsed());
          },
          // Missing evidence gathered while the browser died may describe the crash rather than the page.
          trusted: (result, attempt) => result.ok || !attempt.browserGone(),
        });
        this.report(result.ok ? 'captured' : 'missing_evidence');
        return result;
      } catch (error) {
        if (error instanceof CaptureInfrastructureError) this.report('infrastructure_error');
        throw error;
      }
    });
  }

  /**
   * Prints a self-contained HTML document (inline CSS and SVG, data: URLs) as an A4 PDF, in a slot of the same
   * budget as captures (default priority 'report', the lowest). The document cannot run scripts or fetch anything:
   * JavaScript is off and every request but data: URLs is aborted. Bounded by the total capture timeout, restarted
   * on a new browser like a capture if the browser goes away; every failure is a CaptureInfrastructureError.
   */
  async renderPdf(request: PdfRequest): Promise<Buffer> {
    return this.budget.run(request.priority ?? 'report', async () => {
      try {
        return await this.onBrowser('rendering the PDF', (attempt) => this.printPdf(request, attempt), {
          onDeadline: () => {
            throw new CaptureInfrastructureError(`the PDF did not render within ${this.timeouts.totalMs} ms`);
          },
          trusted: () => true,
        });
      } catch (error) {
        if (error instanceof CaptureInfrastructureError) throw error;
        throw new CaptureInfrastructureError(`could not render the PDF: ${errorMessage(error)}`, { cause: error });
      }
    });
  }

  /**
   * The cheap second look (decision 0012): whether the server answers every request a capture's content came from
   * again with the same bytes. With the page's clock and randomness held, a capture would then render the same page.
   * Checked against private addresses like the captures themselves.
   */
  sameAnswersAgain(responses: ResponseDigest[], userAgent: string): Promise<boolean> {
    return sameAnswersAgain(responses, {
      userAgent,
      allowPrivate: this.options.allowPrivateTargets === true,
      ...(this.options.lookup ? { lookup: this.options.lookup } : {}),
      ...(this.options.isAllowedAddress ? { isAllowedAddress: this.options.isAllowedAddress } : {}),
      timeoutMs: Math.min(this.timeouts.navigationMs, 15_000),
    });
  }

  /** Closes the browser; captures still running fail with CaptureInfrastructureError. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  /** How many captures took another capture's axe-core scan (see CaptureRequest.scanScope); diagnostics, tests. */
  scansShared(): number {
    return this.scans?.shared ?? 0;
  }

  /** The running Chromium's process id, or null before the first capture (diagnostics; crash tests). */
  browserProcessId(): number | null {
    return this.pool.running()?.state.processId ?? null;
  }

  /**
   * Runs `work` within the total deadline. When the browser it runs on goes away, the attempt ends at once (what
   * still runs of it is abandoned) and `work` starts again on a new browser, at most MAX_RELAUNCHES times; a result
   * that is not `trusted`, or an error, from an attempt whose browser went away counts as that browser's loss.
   * Running out of time on a live browser is the work's own outcome: `onDeadline` says what it is.
   */
  private async onBrowser<T>(
    what: string,
    work: (attempt: Attempt) => Promise<T>,
    handling: { onDeadline: (attempt: Attempt) => T; trusted: (result: T, attempt: Attempt) => boolean },
  ): Promise<T> {
    for (let relaunches = 0; ; relaunches += 1) {
      const attempt = new Attempt();
      let outcome: T | typeof BROWSER_LOST | 'timeout';
      try {
        outcome = await withTimeout(Promise.race([work(attempt), attempt.lost]), this.timeouts.totalMs);
      } catch (error) {
        if (!attempt.browserGone()) throw error;
        outcome = BROWSER_LOST;
      } finally {
        attempt.finish();
      }
      if (outcome === 'timeout') {
        await attempt.abandon();
        if (!attempt.browserGone()) return handling.onDeadline(attempt);
      } else if (outcome !== BROWSER_LOST && handling.trusted(outcome, attempt)) {
        return outcome;
      } else {
        await attempt.abandon();
      }

      if (this.pool.isClosed()) throw new CaptureInfrastructureError(`the engine was closed during ${what}`);
      if (relaunches >= MAX_RELAUNCHES) {
        throw new CaptureInfrastructureError(`the browser went away ${relaunches + 1} times during ${what}`);
      }
      this.report('browser_relaunch');
    }
  }

  private async run(request: CaptureRequest, attempt: Attempt): Promise<CaptureResult> {
    const elapsed = () => attempt.elapsed();
    const refusal = await this.checkTarget(request.url);
    if (refusal) return refusalEvidence(request.url, refusal, elapsed());

    const contextOptions = captureContextOptions(request);
    const { pooled, context } = await this.openContext(attempt, contextOptions);
    try {
      if (attempt.abandoned) throw new CaptureInfrastructureError('the capture was abandoned');
      await this.guard?.guardWebSockets(context);
      await makeDeterministic(context, request.clockTime ?? DEFAULT_CLOCK_TIME);
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
        device: {
          viewport: VIEWPORT_SIZES[request.viewport],
          deviceScaleFactor: contextOptions.deviceScaleFactor ?? 1,
          isMobile: contextOptions.isMobile === true,
          hasTouch: contextOptions.hasTouch === true,
        },
        scans: this.scans,
        directScreenshots: this.options.directScreenshots !== false,
        onAbandon: (listener) => attempt.onAbandon(listener),
        userAgent: pooled.state.userAgent + USER_AGENT_SUFFIX,
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

  /** Prints `request.html` in a context of its own that runs no script and reaches no network. */
  private async printPdf(request: PdfRequest, attempt: Attempt): Promise<Buffer> {
    const { context } = await this.openContext(attempt, {
      javaScriptEnabled: false,
      serviceWorkers: 'block',
      acceptDownloads: false,
      locale: 'en-US',
      timezoneId: 'UTC',
      colorScheme: 'light',
    });
    try {
      if (attempt.abandoned) throw new CaptureInfrastructureError('the PDF was abandoned');
      // A report is self-contained: anything it would fetch (an image, a font, a stylesheet) is refused.
      await context.route('**/*', (route) =>
        route.request().url().startsWith('data:') ? route.continue() : route.abort('blockedbyclient'),
      );
      const page = await context.newPage();
      await page.setContent(request.html, { waitUntil: 'load', timeout: this.timeouts.totalMs });
      return await page.pdf({
        format: 'A4',
        printBackground: true,
        landscape: request.landscape ?? false,
        margin: PDF_MARGIN,
      });
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  /** Tells `onOutcome`; metrics must never fail a capture. */
  private report(outcome: CaptureOutcome): void {
    try {
      this.options.onOutcome?.(outcome);
    } catch {
      // ignored, as documented
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

  /**
   * A fresh context on the shared browser, tied to `attempt`; a browser that cannot make one (it crashed while idle)
   * is replaced once.
   */
  private async openContext(
    attempt: Attempt,
    options: BrowserContextOptions,
  ): Promise<{ pooled: PooledBrowser<BrowserState>; context: BrowserContext }> {
    for (let tries = 1; ; tries++) {
      const pooled = attempt.runOn(await this.pool.acquire());
      try {
        const context = await pooled.browser.newContext({
          ...options,
          userAgent: pooled.state.userAgent + USER_AGENT_SUFFIX,
        });
        attempt.context = context;
        return { pooled, context };
      } catch (error) {
        this.pool.discard(pooled.browser);
        if (tries >= 2) {
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

/** A capture's context: the viewport's size, and settings fixed so both sides of a comparison render alike. */
function captureContextOptions(request: CaptureRequest): BrowserContextOptions {
  const size = VIEWPORT_SIZES[request.viewport];
  const isMobile = request.viewport === 'mobile';
  return {
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
    // Service workers could answer requests outside the interception; downloads are never evidence.
    serviceWorkers: 'block',
    acceptDownloads: false,
  };
}
