import { chromium, type Browser } from 'playwright-core';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
/** QUIC is off so every request goes over TCP, where interception and the address checks apply. */
export const BASE_BROWSER_ARGS: readonly string[] = ['--disable-gpu', '--disable-quic'];

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
      browser = await chromium.launch({
        executablePath: this.options.executablePath,
        args: this.options.args,
        timeout: this.options.launchTimeoutMs,
      });
    } catch (error) {
      throw new CaptureInfrastructureError(`could not launch Chromium: ${errorMessage(error)}`, { cause: error });
    }
    try {
      const pooled: PooledBrowser<S> = { browser, state: await this.options.prepare(browser) };
      browser.on('disconnected', () => {
        if (this.current?.browser === browser) this.current = null;
      });
      if (this.closed) throw new Error('the capture engine was closed while the browser started');
      this.current = pooled;
      return pooled;
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error instanceof CaptureInfrastructureError
        ? error
        : new CaptureInfrastructureError(`could not prepare Chromium: ${errorMessage(error)}`, { cause: error });
    }
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
