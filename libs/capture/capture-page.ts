import { errors, type Browser, type Page, type Request, type Response } from 'playwright-core';
import { TargetNotPublicError } from '../net-guard';
import { prepareAxe } from './axe';
import { CaptureInfrastructureError, errorMessage } from './browser-pool';
import type { RequestGuard } from './request-guard';
import type {
  CaptureRequest,
  CaptureResult,
  CaptureTimeouts,
  MissingEvidence,
  MissingReason,
  ScreenshotOf,
} from './types';

/** Freezes motion so two captures of the same page paint the same pixels. */
const FREEZE_MOTION_CSS =
  '*, *::before, *::after { animation: none !important; transition: none !important; caret-color: transparent !important; }';

export interface PageCaptureInput {
  browser: Browser;
  page: Page;
  request: CaptureRequest;
  timeouts: CaptureTimeouts;
  /** Null when private targets are allowed. */
  guard: RequestGuard | null;
  /** Milliseconds since the capture started. */
  elapsed: () => number;
}

/** Builds a MissingEvidence for `url`. */
export function missingEvidence(
  url: string,
  reason: MissingReason,
  message: string,
  durationMs: number,
  status: number | null = null,
  finalUrl: string | null = null,
): MissingEvidence {
  return { ok: false, url, final_url: finalUrl, status, reason, message, duration_ms: durationMs };
}

/** A refused target as missing evidence: an unresolvable name is a page that does not load, not a policy refusal. */
export function refusalEvidence(url: string, refusal: TargetNotPublicError, durationMs: number): MissingEvidence {
  const reason = refusal.reason === 'unresolvable' ? 'navigation_failed' : 'target_not_public';
  return missingEvidence(url, reason, refusal.message, durationMs);
}

/**
 * Watches what the page does for signs that it reached a non-public address: a blocked main-frame navigation (the
 * first request or any redirect or script navigation of it), or a response served from a non-public address (the
 * host's DNS answer changed between our check and the browser's own lookup).
 */
class TargetWatch {
  private readonly blockedNavigations: string[] = [];
  private readonly addressChecks: Array<Promise<string | null>> = [];

  constructor(
    private readonly page: Page,
    private readonly guard: RequestGuard,
  ) {
    page.on('requestfailed', (request) => this.onRequestFailed(request));
    page.on('response', (response) => this.addressChecks.push(this.checkServerAddress(response)));
  }

  /** Why the capture must be refused, or null. */
  async refusal(): Promise<TargetNotPublicError | null> {
    const blockedUrl = this.blockedNavigations[0];
    if (blockedUrl !== undefined) {
      const refusal = await this.guard.check(blockedUrl);
      return refusal ?? new TargetNotPublicError(blockedUrl, '', null, 'private_address', `${blockedUrl} was blocked`);
    }
    const addresses = await Promise.all(this.addressChecks);
    const message = addresses.find((found) => found !== null);
    return message ? new TargetNotPublicError(this.page.url(), '', null, 'private_address', message) : null;
  }

  private onRequestFailed(request: Request): void {
    if (!request.failure()?.errorText.includes('ERR_BLOCKED_BY_CLIENT') || !request.isNavigationRequest()) return;
    try {
      if (request.frame() === this.page.mainFrame()) this.blockedNavigations.push(request.url());
    } catch {
      // Requests without a frame (workers) are never main-frame navigations.
    }
  }

  private async checkServerAddress(response: Response): Promise<string | null> {
    const server = await response.serverAddr().catch(() => null);
    if (server === null) return null; // served from cache or memory
    const ip = server.ipAddress.replace(/^\[(.*)\]$/, '$1');
    return this.guard.isAllowedAddress(ip) ? null : `${response.url()} was served from non-public address ${ip}`;
  }
}

/** The requests a page has in flight, and when one last started or ended. */
class NetworkActivity {
  private readonly inFlight = new Set<Request>();
  private lastChange = performance.now();

  constructor(page: Page) {
    const started = (request: Request) => {
      this.inFlight.add(request);
      this.lastChange = performance.now();
    };
    const ended = (request: Request) => {
      this.inFlight.delete(request);
      this.lastChange = performance.now();
    };
    page.on('request', started);
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
  }

  /**
   * Resolves once no request has been in flight for `quietMs`, or after `maxMs` either way. Playwright's own
   * `networkidle` waits a fixed 500 ms of quiet, which a settled page pays in full on every capture.
   */
  async settle(quietMs: number, maxMs: number): Promise<void> {
    const deadline = performance.now() + maxMs;
    for (;;) {
      const now = performance.now();
      const quietFor = this.inFlight.size === 0 ? now - this.lastChange : 0;
      if (quietFor >= quietMs || now >= deadline) return;
      const wait = this.inFlight.size === 0 ? quietMs - quietFor : 25;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, deadline - now)));
    }
  }
}

const NO_SCAN = { findings: [], needs_review: [], rules: [], version: null };

/** Navigates `page` to the request's URL and collects the evidence; page problems become MissingEvidence. */
export async function capturePage(input: PageCaptureInput): Promise<CaptureResult> {
  const { browser, page, request, timeouts, guard, elapsed } = input;
  const url = request.url;
  const watch = guard ? new TargetWatch(page, guard) : null;
  const network = new NetworkActivity(page);
  let crashed = false;
  page.on('crash', () => {
    crashed = true;
  });

  const missing = (reason: MissingReason, message: string, status: number | null = null, finalUrl?: string | null) =>
    missingEvidence(url, reason, message, elapsed(), status, finalUrl ?? null);
  const refusedOrNull = async (): Promise<MissingEvidence | null> => {
    const refusal = await watch?.refusal();
    return refusal ? refusalEvidence(url, refusal, elapsed()) : null;
  };
  /** Turns a failed step into evidence; a dead browser is our failure, not the page's, so it is thrown. */
  const failure = async (error: unknown, step: string, timeoutMs: number, status: number | null = null) => {
    if (!browser.isConnected()) {
      throw new CaptureInfrastructureError(`the browser went away during ${step}`, { cause: error });
    }
    const refused = await refusedOrNull();
    if (refused) return refused;
    const finalUrl = status === null ? null : page.url();
    if (crashed) return missing('navigation_failed', `the page crashed during ${step}`, status, finalUrl);
    if (error instanceof errors.TimeoutError) {
      return missing('timeout', `${step} did not finish within ${timeoutMs} ms`, status, finalUrl);
    }
    return missing('navigation_failed', `${step} failed: ${firstLine(errorMessage(error))}`, status, finalUrl);
  };

  let response: Response | null;
  try {
    response = await page.goto(url, { waitUntil: 'load', timeout: timeouts.navigationMs });
  } catch (error) {
    return failure(error, 'navigation', timeouts.navigationMs);
  }
  if (response === null) return missing('navigation_failed', 'the navigation produced no response');
  const status = response.status();
  if (status < 200 || status > 299) {
    const refused = await refusedOrNull();
    if (refused) return refused;
    return missing('http_error', `the page answered HTTP ${status}`, status, page.url());
  }

  // Late requests are common (analytics, lazy content): wait a bounded time for quiet and go on either way.
  // axe-core loads meanwhile; it scans only after the screenshot.
  const axe = request.accessibilityScan === false ? null : prepareAxe(page);
  await network.settle(timeouts.networkQuietMs, timeouts.networkIdleMs);

  let step = 'reading the page';
  let stepTimeoutMs = timeouts.totalMs;
  try {
    const finalUrl = page.url();
    let requiredSelectorFound: boolean | null = null;
    if (request.requiredSelector !== undefined) {
      const selector = request.requiredSelector;
      const probe = await page.evaluate(querySelectorProbe, selector);
      if (!probe.found) {
        const message =
          probe.error === null
            ? `required selector ${JSON.stringify(selector)} matched no element`
            : `required selector ${JSON.stringify(selector)} is not a valid CSS selector: ${probe.error}`;
        return (await refusedOrNull()) ?? missing('required_selector_missing', message, status, finalUrl);
      }
      requiredSelectorFound = true;
    }

    const content = await page.evaluate(readPageContent);
    const html = request.includeHtml ? await page.content() : undefined;

    let screenshot: Buffer | null = null;
    if (request.screenshot !== false) {
      step = 'preparing the screenshot';
      await page.evaluate(freezeMotion, FREEZE_MOTION_CSS);
      await page.evaluate(waitForFonts, timeouts.fontsMs);
      const maskSelectors = await page.evaluate(validSelectors, request.maskSelectors ?? []);

      step = 'the screenshot';
      stepTimeoutMs = timeouts.screenshotMs;
      screenshot = await page.screenshot({
        type: 'png',
        fullPage: true,
        animations: 'disabled',
        caret: 'hide',
        mask: maskSelectors.map((selector) => page.locator(`css=${selector}`)),
        timeout: timeouts.screenshotMs,
      });
    }

    step = 'the axe-core scan';
    stepTimeoutMs = timeouts.axeMs;
    const scan = axe === null ? NO_SCAN : await withTimeout(axe.scan(), timeouts.axeMs);
    if (scan === 'timeout') {
      const message = `axe-core timed out: the scan did not finish within ${timeouts.axeMs} ms`;
      return (await refusedOrNull()) ?? missing('timeout', message, status, finalUrl);
    }

    const refused = await refusedOrNull();
    if (refused) return refused;
    return {
      ok: true,
      url,
      final_url: finalUrl,
      status,
      text: normalizeText(content.text),
      robots: content.robots,
      canonical: content.canonical,
      required_selector_found: requiredSelectorFound,
      // Taken exactly when the request did not turn it off, which is what ScreenshotOf says.
      screenshot: screenshot as ScreenshotOf<CaptureRequest>,
      findings: scan.findings,
      needs_review: scan.needs_review,
      axe_rules: scan.rules,
      axe_version: scan.version,
      ...(html === undefined ? {} : { html }),
      duration_ms: elapsed(),
    };
  } catch (error) {
    return failure(error, step, stepTimeoutMs, status);
  } finally {
    axe?.dispose();
  }
}

/** CRLF to LF and no trailing blanks on any line, so cosmetic whitespace does not show up as a text difference. */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n');
}

/** Resolves to the promise's value, or 'timeout' if it takes longer than `ms` (the work itself is not stopped). */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  promise.catch(() => undefined); // a late rejection after the timeout is nobody's business
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0].trim();
}

// The functions below run inside the page (Playwright serializes them), so they may only use browser globals.

function querySelectorProbe(selector: string): { found: boolean; error: string | null } {
  try {
    return { found: document.querySelector(selector) !== null, error: null };
  } catch (error) {
    return { found: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function readPageContent(): { text: string; robots: string | null; canonical: string | null } {
  const robots = document.querySelector('meta[name="robots" i]');
  const canonical = document.querySelector<HTMLLinkElement>('link[rel~="canonical" i][href]');
  return {
    text: document.body ? document.body.innerText : (document.documentElement?.textContent ?? ''),
    robots: robots ? (robots.getAttribute('content') ?? '').trim() : null,
    // The href property is already resolved against the document's base URL.
    canonical: canonical ? canonical.href : null,
  };
}

function freezeMotion(css: string): void {
  try {
    // A constructed sheet is not an inline <style>, so a strict style-src CSP does not block it.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch {
    const style = document.createElement('style');
    style.textContent = css;
    (document.head ?? document.documentElement).append(style);
  }
  window.scrollTo(0, 0);
}

/** Resolves when web fonts are ready or after `ms`, whichever is first; late fonts are not an error. */
function waitForFonts(ms: number): Promise<boolean> {
  return Promise.race([
    document.fonts.ready.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
}

/** Drops selectors the browser cannot parse, which would otherwise fail the whole screenshot. */
function validSelectors(selectors: string[]): string[] {
  return selectors.filter((selector) => {
    try {
      document.querySelector(selector);
      return true;
    } catch {
      return false;
    }
  });
}
