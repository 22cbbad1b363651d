import type { Browser, Page, Request, Response } from 'playwright-core';
import { type ServedCertificate, TargetNotPublicError } from '../net-guard';
import { AxeRunner, type AxeReport } from './axe';
import { CaptureInfrastructureError, errorMessage } from './browser-pool';
import { holdTimelines, loadLazyContent, settleClock } from './determinism';
import { markupDigest, stateDigest } from './document-state';
import { PageWorld } from './page-world';
import { ResponseLedger } from './response-ledger';
import type { RequestGuard } from './request-guard';
import type { ScanClaim, ScanSharing } from './scan-sharing';
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

export interface DeviceEmulation {
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
}

export interface PageCaptureInput {
  browser: Browser;
  page: Page;
  request: CaptureRequest;
  timeouts: CaptureTimeouts;
  /** Null when private targets are allowed. */
  guard: RequestGuard | null;
  /** Milliseconds since the capture started. */
  elapsed: () => number;
  /** How the capture's context emulates its device (the direct screenshot needs the same, see directScreenshot). */
  device: DeviceEmulation;
  /** Where scans of documents in the same state are shared; null to scan every page itself. */
  scans: ScanSharing | null;
  /** Whether the screenshot may be taken directly (see CaptureEngineOptions.directScreenshots). */
  directScreenshots: boolean;
  /** Registers what to undo if the engine abandons this capture while it still runs (its browser went away). */
  onAbandon: (listener: () => void) => void;
  /** The user agent the context requests pages with. */
  userAgent: string;
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

  constructor(private readonly page: Page) {
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
   * `networkidle` waits a fixed 500 ms of quiet, which a settled page pays in full on every capture. A page that
   * closed (its capture was abandoned, its browser went away) stops the wait.
   */
  async settle(quietMs: number, maxMs: number): Promise<void> {
    const deadline = performance.now() + maxMs;
    for (;;) {
      const now = performance.now();
      const quietFor = this.inFlight.size === 0 ? now - this.lastChange : 0;
      if (quietFor >= quietMs || now >= deadline || this.page.isClosed()) return;
      const wait = this.inFlight.size === 0 ? quietMs - quietFor : 25;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, deadline - now)));
    }
  }
}

/** Navigates `page` to the request's URL and collects the evidence; page problems become MissingEvidence. */
export async function capturePage(input: PageCaptureInput): Promise<CaptureResult> {
  const { browser, page, request, timeouts, guard, elapsed } = input;
  const url = request.url;
  const watch = guard ? new TargetWatch(page, guard) : null;
  const network = new NetworkActivity(page);
  const ledger = request.recordResponses ? new ResponseLedger(page) : null;
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
    if (isPlaywrightTimeout(error) || error instanceof StepTimeout) {
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

  let step = 'reading the page';
  let stepTimeoutMs = timeouts.totalMs;
  let world: PageWorld | null = null;
  let claim: ScanClaim | null = null;
  try {
    world = await PageWorld.open(page);
    // The page's clock runs forward in steps, waiting a bounded time for the requests each step starts (late banners,
    // fetched content); then it is held. axe-core loads meanwhile, unless another capture of a document with the same
    // markup is loading it already; it scans only after the screenshot.
    const axe = request.accessibilityScan === false ? null : new AxeRunner(page, world);
    if (axe && input.scans && request.scanScope !== undefined && request.screenshot !== false) {
      const made = input.scans.claim(request.scanScope, await markupDigest(world));
      // A capture abandoned with its browser may never reach its finally: its followers must not wait for it.
      if (made.role === 'lead') input.onAbandon(() => made.publish(null));
      claim = made;
    }
    if (axe && claim?.role !== 'follow') axe.preload();
    await world.evaluate(loadLazyContent, null);
    await settleClock(page, network, { quietMs: timeouts.networkQuietMs, networkBudgetMs: timeouts.networkIdleMs });

    const content = await world.evaluate(readPage, request.requiredSelector ?? null);
    // After the read: a page that replaced itself during it was read again in its new document.
    const finalUrl = page.url();
    let requiredSelectorFound: boolean | null = null;
    if (request.requiredSelector !== undefined) {
      const selector = request.requiredSelector;
      if (content.probe === null || !content.probe.found) {
        const message =
          content.probe?.error == null
            ? `required selector ${JSON.stringify(selector)} matched no element`
            : `required selector ${JSON.stringify(selector)} is not a valid CSS selector: ${content.probe.error}`;
        return (await refusedOrNull()) ?? missing('required_selector_missing', message, status, finalUrl);
      }
      requiredSelectorFound = true;
    }
    const html = request.includeHtml ? await page.content() : undefined;

    let screenshot: Buffer | null = null;
    if (request.screenshot !== false) {
      step = 'preparing the screenshot';
      await world.evaluate(holdTimelines, null);
      const prepared = await world.evaluate(prepareScreenshot, {
        css: FREEZE_MOTION_CSS,
        fontsMs: timeouts.fontsMs,
        masks: request.maskSelectors ?? [],
        screenshotMs: timeouts.screenshotMs,
        direct: input.directScreenshots,
      });
      step = 'the screenshot';
      stepTimeoutMs = timeouts.screenshotMs;
      // Playwright's screenshot waits for fonts within its own timeout; so does the direct one.
      if (prepared.fontsLate) throw new StepTimeout('web fonts were not ready for the screenshot');
      screenshot =
        prepared.size === null
          ? await playwrightScreenshot(page, prepared.masks, timeouts.screenshotMs)
          : await directScreenshot(input, world, prepared.size);
    }

    step = 'the axe-core scan';
    stepTimeoutMs = timeouts.axeMs;
    const scan = axe === null ? null : await scanPage(axe, world, claim, screenshot, timeouts.axeMs);
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
      findings: scan?.findings ?? [],
      needs_review: scan?.needs_review ?? [],
      axe_rules: scan?.rules ?? [],
      axe_version: scan?.version ?? null,
      ...(html === undefined ? {} : { html }),
      responses: ledger ? await ledger.read() : null,
      user_agent: input.userAgent,
      certificate: await documentCertificate(response, finalUrl),
      duration_ms: elapsed(),
    };
  } catch (error) {
    return failure(error, step, stepTimeoutMs, status);
  } finally {
    // Whoever follows this capture's scan and has not got it yet scans itself.
    if (claim?.role === 'lead') claim.publish(null);
    world?.dispose();
  }
}

/** Playwright's `errors.TimeoutError`, told by its name: Playwright is loaded with the first browser, not here. */
function isPlaywrightTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

/** A step of our own that ran out of time (Playwright's own timeouts are errors.TimeoutError). */
class StepTimeout extends Error {
  override readonly name = 'StepTimeout';
}

/**
 * The full-page screenshot through the capture's own DevTools session, as Playwright takes it (the same clip and
 * pixels; prepareScreenshot did what Playwright does in the page first), but with Chromium's faster PNG encoding:
 * about half the screenshot's CPU, for files about a quarter larger.
 */
async function directScreenshot(
  input: PageCaptureInput,
  world: PageWorld,
  size: { width: number; height: number },
): Promise<Buffer> {
  const { viewport, deviceScaleFactor, isMobile, hasTouch } = input.device;
  const fits = size.width <= viewport.width && size.height <= viewport.height;
  // Chromium captures beyond the viewport under the capturing session's device emulation, which is Playwright's
  // session's only: without the same on ours, a phone's page laid out wider than the screen (no viewport meta) loses
  // its text autosizing for the capture. So ours gets Playwright's settings first (no change to the page).
  if (!fits) {
    await world.session.send('Emulation.setDeviceMetricsOverride', {
      mobile: isMobile,
      width: viewport.width,
      height: viewport.height,
      screenWidth: viewport.width,
      screenHeight: viewport.height,
      deviceScaleFactor,
      screenOrientation: isMobile ? { angle: 0, type: 'portraitPrimary' } : { angle: 0, type: 'landscapePrimary' },
    });
  }
  const shot = await withTimeout(
    world.session.send('Page.captureScreenshot', {
      format: 'png',
      clip: { x: 0, y: 0, width: size.width, height: size.height, scale: 1 },
      captureBeyondViewport: !fits,
      optimizeForSpeed: true,
    }),
    input.timeouts.screenshotMs,
  );
  if (shot === 'timeout') throw new StepTimeout('the screenshot timed out');
  // Capturing beyond the viewport turns touch emulation off in Chromium; Playwright turns it on again, and so do we.
  if (!fits && hasTouch) await world.session.send('Emulation.setTouchEmulationEnabled', { enabled: true });
  await world.evaluate(restoreAfterScreenshot, null);
  return Buffer.from(shot.data, 'base64');
}

/** Masks need Playwright's overlay, and frames its reach into every frame: such pages take Playwright's screenshot. */
function playwrightScreenshot(page: Page, masks: string[], timeoutMs: number): Promise<Buffer> {
  return page.screenshot({
    type: 'png',
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
    mask: masks.map((selector) => page.locator(`css=${selector}`)),
    timeout: timeoutMs,
  });
}

/**
 * The page's axe-core scan, within `timeoutMs`. A capture that leads a shared scan tells its followers the findings,
 * and the state of the document they were found in, if that state held through the scan. A follower takes the
 * leader's findings only for a document in the same state as its own (the screenshot's bytes included); otherwise,
 * and when the leader failed, it scans itself, loading axe-core only now.
 */
async function scanPage(
  axe: AxeRunner,
  world: PageWorld,
  claim: ScanClaim | null,
  screenshot: Buffer | null,
  timeoutMs: number,
): Promise<AxeReport | 'timeout'> {
  if (claim === null || screenshot === null) return withTimeout(axe.scan(), timeoutMs);
  if (claim.role === 'lead') {
    const state = await stateDigest(world, screenshot);
    const report = await withTimeout(axe.scan(), timeoutMs);
    // Shared only if the document did not change while it was scanned.
    const held = report !== 'timeout' && state !== null && (await stateDigest(world, screenshot)) === state;
    claim.publish(held ? { state, report } : null);
    return report;
  }
  const state = await stateDigest(world, screenshot);
  const led = state === null ? null : await withTimeout(claim.leader, timeoutMs);
  if (led && led !== 'timeout' && led.state === state) {
    claim.took();
    return led.report;
  }
  return withTimeout(axe.scan(), timeoutMs);
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

// The functions below run inside the page (serialized), so they may only use browser globals.

interface PageContent {
  /** Whether the required selector matched, or why it is not a selector; null when none was asked for. */
  probe: { found: boolean; error: string | null } | null;
  text: string;
  robots: string | null;
  canonical: string | null;
}

function readPage(requiredSelector: string | null): PageContent {
  let probe: PageContent['probe'] = null;
  if (requiredSelector !== null) {
    try {
      probe = { found: document.querySelector(requiredSelector) !== null, error: null };
    } catch (error) {
      probe = { found: false, error: error instanceof Error ? error.message : String(error) };
    }
    if (!probe.found) return { probe, text: '', robots: null, canonical: null };
  }
  const robots = document.querySelector('meta[name="robots" i]');
  const canonical = document.querySelector<HTMLLinkElement>('link[rel~="canonical" i][href]');
  return {
    probe,
    text: document.body ? document.body.innerText : (document.documentElement?.textContent ?? ''),
    robots: robots ? (robots.getAttribute('content') ?? '').trim() : null,
    // The href property is already resolved against the document's base URL.
    canonical: canonical ? canonical.href : null,
  };
}

interface PreparedScreenshot {
  /** The mask selectors the browser can parse (the others would fail the whole screenshot). */
  masks: string[];
  /** The full page's size for a direct screenshot; null when Playwright must take it (masks, frames, no body). */
  size: { width: number; height: number } | null;
  /** Web fonts were still not ready when the screenshot's own time ran out. */
  fontsLate: boolean;
}

/**
 * Freezes motion (so two captures of the same page paint the same pixels) and waits a bounded time for web fonts.
 * Then, when the screenshot can be taken directly, does in the page what Playwright's screenshot does first (hide
 * the caret, finish finite animations and pause infinite ones until `restoreAfterScreenshot`, wait for fonts) and
 * measures the page as Playwright does.
 */
async function prepareScreenshot(input: {
  css: string;
  fontsMs: number;
  masks: string[];
  screenshotMs: number;
  direct: boolean;
}): Promise<PreparedScreenshot> {
  try {
    // A constructed sheet is not an inline <style>, so a strict style-src CSP does not block it.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(input.css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch {
    const style = document.createElement('style');
    style.textContent = input.css;
    (document.head ?? document.documentElement).append(style);
  }
  window.scrollTo(0, 0);
  // Late fonts are not an error.
  await Promise.race([document.fonts.ready, new Promise((resolve) => setTimeout(resolve, input.fontsMs))]);
  const masks = input.masks.filter((selector) => {
    try {
      document.querySelector(selector);
      return true;
    } catch {
      return false;
    }
  });
  const body = document.body;
  const root = document.documentElement;
  if (!input.direct || masks.length > 0 || window.frames.length > 0 || !body || !root) {
    return { masks, size: null, fontsLate: false };
  }

  const roots: Array<Document | ShadowRoot> = [];
  const collect = (from: Document | ShadowRoot) => {
    roots.push(from);
    const walker = document.createTreeWalker(from, NodeFilter.SHOW_ELEMENT);
    for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) {
      if (node instanceof Element && node.shadowRoot) collect(node.shadowRoot);
    }
  };
  collect(document);
  const cleanups: Array<() => void> = [];
  const carets = new Map<HTMLElement, { value: string; priority: string }>();
  for (const from of roots) {
    from.querySelectorAll<HTMLElement>('input,textarea,[contenteditable]').forEach((element) => {
      carets.set(element, {
        value: element.style.getPropertyValue('caret-color'),
        priority: element.style.getPropertyPriority('caret-color'),
      });
      element.style.setProperty('caret-color', 'transparent', 'important');
    });
  }
  cleanups.push(() => {
    for (const [element, { value, priority }] of carets) element.style.setProperty('caret-color', value, priority);
  });
  const paused = new Set<Animation>();
  const settleAnimations = (from: Document | ShadowRoot) => {
    for (const animation of from.getAnimations()) {
      if (!animation.effect || animation.playbackRate === 0 || paused.has(animation)) continue;
      try {
        if (Number.isFinite(animation.effect.getComputedTiming().endTime)) animation.finish();
        else {
          animation.cancel();
          paused.add(animation);
        }
      } catch {
        // as Playwright: an animation that cannot be finished or cancelled stays as it is
      }
    }
  };
  for (const from of roots) {
    const handler = () => settleAnimations(from);
    handler();
    from.addEventListener('transitionrun', handler);
    from.addEventListener('animationstart', handler);
    cleanups.push(() => {
      from.removeEventListener('transitionrun', handler);
      from.removeEventListener('animationstart', handler);
    });
  }
  cleanups.push(() => {
    for (const animation of paused) {
      try {
        animation.play();
      } catch {
        // gone with its element
      }
    }
  });
  (globalThis as { vigilRestoreAfterScreenshot?: () => void }).vigilRestoreAfterScreenshot = () => {
    for (const cleanup of cleanups) cleanup();
  };
  const fontsLate = await Promise.race([
    document.fonts.ready.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), input.screenshotMs)),
  ]);
  return {
    masks,
    fontsLate,
    size: {
      width: Math.max(
        body.scrollWidth,
        root.scrollWidth,
        body.offsetWidth,
        root.offsetWidth,
        body.clientWidth,
        root.clientWidth,
      ),
      height: Math.max(
        body.scrollHeight,
        root.scrollHeight,
        body.offsetHeight,
        root.offsetHeight,
        body.clientHeight,
        root.clientHeight,
      ),
    },
  };
}

function restoreAfterScreenshot(): void {
  const scope = globalThis as { vigilRestoreAfterScreenshot?: () => void };
  scope.vigilRestoreAfterScreenshot?.();
  delete scope.vigilRestoreAfterScreenshot;
}

/**
 * The certificate the document was served, from Chromium's security details: its dates, and the issuer's and
 * subject's common names (Chromium tells no fingerprint). Null for http, or when Chromium tells nothing.
 */
async function documentCertificate(response: Response, finalUrl: string): Promise<ServedCertificate | null> {
  // After a scripted navigation to another origin, the first document's certificate is another server's.
  if (new URL(response.url()).origin !== new URL(finalUrl).origin) return null;
  const details = await response.securityDetails().catch(() => null);
  if (!details || details.validTo === undefined || details.validFrom === undefined) return null;
  return {
    expiresAt: new Date(details.validTo * 1000).toISOString(),
    validFrom: new Date(details.validFrom * 1000).toISOString(),
    issuer: details.issuer ?? '',
    subject: details.subjectName ?? '',
    fingerprintSha256: null,
    // Chromium loaded the document over it, so it verified.
    verified: true,
  };
}
