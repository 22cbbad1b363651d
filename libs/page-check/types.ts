import type { HostLookup, ServedCertificate } from '../net-guard';
import type { FailedAssertion, ResponseAssertion } from './assertions';

export type TrackedValueKind = 'price' | 'number' | 'text';

/** A value to read from the page: the first element matching `selector`, interpreted as `kind`. */
export interface TrackedValueSpec {
  name: string;
  selector: string;
  kind: TrackedValueKind;
}

export interface TrackedValueReading {
  name: string;
  kind: TrackedValueKind;
  /** Normalized text of the first match; null when the selector matched nothing (or is not a valid selector). */
  raw: string | null;
  /** Parsed value for the price and number kinds; null when not parseable, and always for the text kind. */
  amount: number | null;
  /** ISO 4217 code for the price kind when the text names a known currency, else null. */
  currency: string | null;
}

export interface PageExpectations {
  /** Inclusive bounds of an acceptable HTTP status, e.g. 200..399. */
  statusMin: number;
  statusMax: number;
  /** Must appear (case-sensitive substring) in the extracted text. */
  keyword?: string;
}

export interface ExtractOptions {
  /** CSS selector scoping the extracted text to the elements it matches. */
  selector?: string;
  trackedValues?: TrackedValueSpec[];
  /** Selectors whose first match's text is read (response assertions), from the same parse. */
  texts?: readonly string[];
}

export interface ExtractedContent {
  /**
   * Visible text (of the elements matching `selector` when given, joined by newlines): one line per block element,
   * whitespace collapsed within lines, blank lines dropped; script/style/noscript/template content excluded.
   */
  text: string;
  /** Whether `selector` matched at least one element; null when no selector was given. */
  selectorMatched: boolean | null;
  /** sha256 hex of `text` (of the raw body bytes when the body is not text). */
  contentHash: string;
  trackedValues: TrackedValueReading[];
  /** The document's title, robots meta and canonical link (null each when absent, and for bodies that are not HTML). */
  metadata: DocumentMetadata;
  /** The text of the first match of each of `ExtractOptions.texts` (null: none); absent for bodies that are not HTML. */
  texts?: Record<string, string | null>;
}

export interface DocumentMetadata {
  title: string | null;
  robots: string | null;
  canonical: string | null;
}

export type CheckFailure =
  /** Status outside the expectations. */
  | 'status'
  | 'keyword_missing'
  /** The monitor selector matched nothing. */
  | 'selector_missing'
  | 'timeout'
  /** DNS failure, connection refused/reset, TLS error... */
  | 'network'
  /** SSRF refusal, on the first URL or any redirect hop. */
  | 'target_not_public'
  | 'too_many_redirects'
  /** Body beyond maxBytes. */
  | 'too_large'
  /** A response assertion did not hold (`failedAssertions` lists each with the value read; the message names them). */
  | 'assertion'
  /** The server's TLS certificate did not verify: expired, not yet valid, for another host, untrusted issuer… */
  | 'certificate'
  /** Heartbeat monitors: no ping by the expected time plus the grace. */
  | 'heartbeat_missed'
  /** Heartbeat monitors: the job pinged `/fail`, or a non-zero exit code. */
  | 'heartbeat_failed';

export interface HttpCheckRequest {
  url: string;
  expectations: PageExpectations;
  /** Budget for the whole check, DNS to last byte. */
  timeoutMs: number;
  extract?: ExtractOptions;
  /** Conditions on the response, checked after the expectations (checked with assertionProblems beforehand). */
  assertions?: readonly ResponseAssertion[];
  /** Passed to assertPublicUrl. */
  allowPrivate?: boolean;
  /** Passed to assertPublicUrl (tests). */
  lookup?: HostLookup;
  /** Passed to assertPublicUrl (tests). */
  isAllowedAddress?: (ip: string) => boolean;
  /** Default 5. */
  maxRedirects?: number;
  /** Default 5 MiB. */
  maxBytes?: number;
  /** Default 'Mozilla/5.0 (compatible; VigilMonitor/1)'. */
  userAgent?: string;
}

export interface HttpCheckResult {
  /** True only when there is no failure. */
  ok: boolean;
  failure: CheckFailure | null;
  /** Human-readable reason when failing, e.g. "HTTP 503 is outside 200–399". */
  message: string | null;
  /** The assertions the response did not meet (failure `assertion`), in order; empty otherwise. */
  failedAssertions: FailedAssertion[];
  /** Status of the response received for `finalUrl`; null when none was received. */
  statusCode: number | null;
  /** The URL the check ended on: the last one fetched, or the redirect target that was refused or unreachable. */
  finalUrl: string | null;
  /** Integer ms from the start to the full body read (or to the failure). */
  responseTimeMs: number;
  /** Null when no body was read (network, timeout, refusal, too large); present for status failures otherwise. */
  content: ExtractedContent | null;
  /** The certificate `finalUrl`'s server was served over HTTPS (also when it was refused); null for http. */
  certificate: ServedCertificate | null;
}
