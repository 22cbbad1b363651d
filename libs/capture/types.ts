import type { ServedCertificate } from '../net-guard';
import type { HostLookup } from '../net-guard';
import type { ResponseDigest } from './response-ledger';

export type Viewport = 'desktop' | 'mobile';

export const VIEWPORT_SIZES: Record<Viewport, { width: number; height: number }> = {
  desktop: { width: 1440, height: 900 },
  mobile: { width: 390, height: 844 },
};

/** The axe-core tags every scan runs (WCAG 2.0 A/AA and 2.1 AA). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'] as const;

/** One axe violation on one node. */
export interface AxeFinding {
  rule_id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  help_url: string;
  /** The node's selector path (axe `node.target`, flattened through iframes and shadow roots) joined with ' '. */
  target: string;
}

export type MissingReason =
  'http_error' | 'navigation_failed' | 'timeout' | 'required_selector_missing' | 'target_not_public';

/**
 * Who waits first for a slot of the process's capture budget: release checks (a person or a CI job is waiting),
 * then monitor checks (on a schedule), then accessibility scans (asked for, but never urgent), then report PDFs.
 */
export type CapturePriority = 'release' | 'monitor' | 'scan' | 'report';

/**
 * What became of one capture, for metrics: evidence, missing evidence (the page's fault), a failure of the machinery
 * (thrown, for the caller to retry); and each time a capture or PDF was started again on a freshly launched browser
 * because the one running it went away.
 */
export const CAPTURE_OUTCOMES = ['captured', 'missing_evidence', 'infrastructure_error', 'browser_relaunch'] as const;
export type CaptureOutcome = (typeof CAPTURE_OUTCOMES)[number];

export interface CaptureRequest {
  url: string;
  viewport: Viewport;
  /** Default 'monitor'. */
  priority?: CapturePriority;
  /** Take the full-page screenshot (default true); a scan needs none. */
  screenshot?: boolean;
  /** CSS selector that must match at least one element, or the page counts as missing evidence. */
  requiredSelector?: string;
  /** CSS selectors whose elements are painted over in the screenshot. Invalid selectors are ignored. */
  maskSelectors?: string[];
  /** Run the axe-core scan (default true); monitors skip it, it is a third of a capture's time. */
  accessibilityScan?: boolean;
  /** Return the rendered HTML too, for callers that extract from it (selector-scoped text, tracked values). */
  includeHtml?: boolean;
  /**
   * Captures naming the same scope (e.g. a release check's revision and viewport) share one axe-core scan between
   * documents in the same state: the findings are those the page's own scan would give. Needs the screenshot;
   * without a scope, or with `shareScans` off, every capture scans itself.
   */
  scanScope?: string;
  /**
   * The instant (epoch ms) the page's virtual clock starts at (see determinism.ts). Captures that are compared with
   * each other must name the same one; default DEFAULT_CLOCK_TIME.
   */
  clockTime?: number;
  /**
   * Record the main document and the page's GET fetches by their bytes (`CapturedPage.responses`), so a second look
   * can ask the server again instead of capturing again (CaptureEngine.sameAnswersAgain).
   */
  recordResponses?: boolean;
}

/** A request that turned the screenshot off gets none; every other gets one. */
export type ScreenshotOf<R extends CaptureRequest> = R extends { screenshot: false } ? null : Buffer;

/** A self-contained HTML document (inline CSS, inline SVG, data: URLs) to print as an A4 PDF. */
export interface PdfRequest {
  html: string;
  /** Default 'report', the lowest. */
  priority?: CapturePriority;
  landscape?: boolean;
}

export interface CapturedPage<R extends CaptureRequest = CaptureRequest> {
  ok: true;
  url: string;
  final_url: string;
  status: number;
  text: string;
  robots: string | null;
  canonical: string | null;
  required_selector_found: boolean | null;
  /** Full-page PNG; null when the request asked for none. */
  screenshot: ScreenshotOf<R>;
  /** axe-core's violations. */
  findings: AxeFinding[];
  /** axe-core's `incomplete` results: what it could not decide and a person must check. Never violations. */
  needs_review: AxeFinding[];
  /** The ids of the axe-core rules that ran (empty when the request skipped the scan). */
  axe_rules: string[];
  /** Null when the request skipped the scan. */
  axe_version: string | null;
  /** The rendered HTML, when the request asked for it. */
  html?: string;
  /** What the page's content came from (see recordResponses); null when not asked for or not all readable. */
  responses: ResponseDigest[] | null;
  /** The user agent the page was requested with. */
  user_agent: string;
  /** The certificate the page's document was served over HTTPS, as Chromium tells it; null for http. */
  certificate: ServedCertificate | null;
  duration_ms: number;
}

export interface MissingEvidence {
  ok: false;
  url: string;
  final_url: string | null;
  status: number | null;
  reason: MissingReason;
  message: string;
  duration_ms: number;
}

export type CaptureResult<R extends CaptureRequest = CaptureRequest> = CapturedPage<R> | MissingEvidence;

export interface CaptureTimeouts {
  /** `page.goto` until the load event. */
  navigationMs: number;
  /**
   * Real time, in all, spent waiting for the network to go quiet while the page's clock is run forward after load
   * (see networkQuietMs and determinism.ts); running out is not an error.
   */
  networkIdleMs: number;
  /** How long no request may be in flight for the network to count as quiet. */
  networkQuietMs: number;
  /** Waiting for `document.fonts.ready`; running out is not an error. */
  fontsMs: number;
  axeMs: number;
  screenshotMs: number;
  /**
   * The whole capture (or PDF), browser start included. A capture the browser died under starts again on a new
   * browser with a deadline of its own.
   */
  totalMs: number;
}

export const DEFAULT_CAPTURE_TIMEOUTS: CaptureTimeouts = {
  navigationMs: 30_000,
  networkIdleMs: 3_000,
  networkQuietMs: 250,
  fontsMs: 3_000,
  axeMs: 15_000,
  screenshotMs: 15_000,
  totalMs: 60_000,
};

export interface CaptureEngineOptions {
  /**
   * Captures this process runs at once, whoever asks (release checks, browser monitors, scans, PDFs): each holds a
   * browser context, so this bounds the browser's memory. Waiting captures go by priority, then in order. Default 2.
   */
  maxConcurrentCaptures?: number;
  /** Chromium binary (default '/usr/bin/chromium'). */
  executablePath?: string;
  /**
   * Skip every target check (local development and the test suite only). Otherwise the initial URL and every
   * request the browser makes, redirects included, must reach public addresses.
   */
  allowPrivateTargets?: boolean;
  timeouts?: Partial<CaptureTimeouts>;
  /** Replaces DNS resolution for the target checks. */
  lookup?: HostLookup;
  /**
   * Test hook: replaces `isPublicAddress` as the predicate for which addresses the browser may reach, so a test can
   * allow 127.0.0.1 while 127.0.0.2 and `localhost` stay refused. Leave unset in production.
   */
  isAllowedAddress?: (ip: string) => boolean;
  /** Test hook: extra Chromium switches appended to the defaults (e.g. `--host-resolver-rules=…`); `--disable-features` is merged. */
  extraBrowserArgs?: string[];
  /** Told each capture's outcome (metrics); it must not throw, and anything it throws is ignored. */
  onOutcome?: (outcome: CaptureOutcome) => void;
  /**
   * Share one axe-core scan between captures of the same `scanScope` whose documents are in the same state (default
   * true). Off, every capture scans its page itself; the evidence is the same either way, which a test checks.
   */
  shareScans?: boolean;
  /**
   * Take full-page screenshots through the capture's own DevTools session with Chromium's fast PNG encoding (default
   * true): the same pixels as Playwright's `page.screenshot`, for about half its CPU and files about a quarter
   * larger. Pages with masks or frames always take Playwright's. Off, every page does (tests compare the two).
   */
  directScreenshots?: boolean;
}
