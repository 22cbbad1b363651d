import type { Browser } from 'playwright-core';

/**
 * The features playwright-core's own launch switches disable. Chromium honours only the last `--disable-features`
 * switch, and ours comes after Playwright's, so ours must repeat them; a capture test fails when Playwright's list
 * changes.
 */
const PLAYWRIGHT_DISABLED_FEATURES: readonly string[] = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Headless Chromium still builds a browser window around every new context, and once the page has loaded that
 * window loads its omnibox pop-ups (WebUI pages) in a renderer of their own: about 250 ms of CPU per capture (a
 * bare capture needs about 400 ms without them), for a UI nobody sees. Page rendering does not depend on them.
 */
const CAPTURE_DISABLED_FEATURES: readonly string[] = [
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
];

/**
 * Chromium switches for capturing: no GPU; QUIC off so every request goes over TCP, where interception and the
 * address checks apply; the features above off. `--disable-features` in `extra` is merged, not replaced.
 */
export function captureBrowserArgs(extra: readonly string[] = []): string[] {
  const disabled = new Set([...PLAYWRIGHT_DISABLED_FEATURES, ...CAPTURE_DISABLED_FEATURES]);
  const rest: string[] = [];
  for (const arg of extra) {
    const features = /^--disable-features=(.*)$/.exec(arg)?.[1];
    if (features === undefined) rest.push(arg);
    else for (const feature of features.split(',')) if (feature) disabled.add(feature);
  }
  return ['--disable-gpu', '--disable-quic', `--disable-features=${[...disabled].join(',')}`, ...rest];
}

export interface BrowserPoolOptions<S> {
  executablePath: string;
  args: string[];
  launchTimeoutMs: number;
  /** Prepares a freshly launched browser; if it fails the browser is closed and the launch fails. */
  prepare: (browser: Browser) => Promise<S>;
}

/** A launched browser with whatever `prepare` made for it. */
export interface PooledBrowser<S> {
  browser: Browser;
  state: S;
  /**
   * Calls `listener` once, as soon as the browser disconnects (crashed, killed, closed), or soon if it already has;
   * returns a function that cancels the call. Work running on the browser must stop then: some Playwright calls
   * (e.g. `newPage`) never settle once the browser is gone.
   */
  onLost(listener: () => void): () => void;
}

/** Signals that the capture machinery (not the captured page) failed: the caller should retry, not record evidence. */
export class CaptureInfrastructureError extends Error {
  override readonly name = 'CaptureInfrastructureError';
}

/**
 * One shared browser, launched on first use and again after it crashes or disconnects. Concurrent callers share a
 * single launch.
 */
export class BrowserPool<S> {
  private current: PooledBrowser<S> | null = null;
  private launching: Promise<PooledBrowser<S>> | null = null;
  private closed = false;

  constructor(private readonly options: BrowserPoolOptions<S>) {}

  async acquire(): Promise<PooledBrowser<S>> {
    if (this.closed) throw new CaptureInfrastructureError('the capture engine is closed');
    if (this.current?.browser.isConnected()) return this.current;
    this.current = null;
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  /** Forgets `browser` (e.g. after it stopped answering) so the next acquire launches a fresh one. */
  discard(browser: Browser): void {
    if (this.current?.browser === browser) this.current = null;
    browser.close().catch(() => undefined);
  }

  /** The running browser, if one is up. */
  running(): PooledBrowser<S> | null {
    return this.current?.browser.isConnected() ? this.current : null;
  }

  /** Whether `close` was called: nothing is launched any more. */
  isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    const launched = await this.launching?.catch(() => null);
    const pooled = this.current ?? launched ?? null;
    this.current = null;
    await pooled?.browser.close().catch(() => undefined);
  }

  private async launch(): Promise<PooledBrowser<S>> {
    let browser: Browser;
    try {
      // Loaded with the first browser: a process that never captures (the API role) never loads Playwright.
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: this.options.executablePath,
        args: this.options.args,
        timeout: this.options.launchTimeoutMs,
      });
    } catch (error) {
      throw new CaptureInfrastructureError(`could not launch Chromium: ${errorMessage(error)}`, { cause: error });
    }
    const onLost = watchDisconnect(browser, () => {
      if (this.current?.browser === browser) this.current = null;
    });
    let stopWatching = () => {};
    try {
      const gone = new Promise<never>((_resolve, reject) => {
        stopWatching = onLost(() => reject(new Error('the browser went away while it started')));
      });
      const pooled: PooledBrowser<S> = {
        browser,
        state: await Promise.race([this.options.prepare(browser), gone]),
        onLost,
      };
      if (this.closed) throw new Error('the capture engine was closed while the browser started');
      this.current = pooled;
      return pooled;
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error instanceof CaptureInfrastructureError
        ? error
        : new CaptureInfrastructureError(`could not prepare Chromium: ${errorMessage(error)}`, { cause: error });
    } finally {
      stopWatching();
    }
  }
}

/**
 * Runs `onDisconnect` when `browser` disconnects, and returns its `onLost` (see PooledBrowser). Listeners are kept
 * in a set and dropped when cancelled, so a browser that serves thousands of captures does not collect them.
 */
function watchDisconnect(browser: Browser, onDisconnect: () => void): PooledBrowser<unknown>['onLost'] {
  const listeners = new Set<() => void>();
  let disconnected = false;
  browser.once('disconnected', () => {
    disconnected = true;
    onDisconnect();
    for (const listener of listeners) listener();
    listeners.clear();
  });
  return (listener) => {
    if (disconnected) {
      queueMicrotask(listener);
      return () => undefined;
    }
    const once = () => listener();
    listeners.add(once);
    return () => listeners.delete(once);
  };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
