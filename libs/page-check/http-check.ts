import {
  CertificateWatch,
  certificateRefusalOf,
  discardBody,
  fetchGuarded,
  RedirectError,
  refusalOf,
  type Response,
  TargetNotPublicError,
} from '../net-guard';
import { failedAssertions } from './assertions';
import { decodeBody } from './decode';
import { extractBinary, extractContent, extractPlainText } from './extract';
import type { CheckFailure, ExtractedContent, HttpCheckRequest, HttpCheckResult, PageExpectations } from './types';

const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; VigilMonitor/1)';
const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** How the body is read: parsed as markup, taken as plain text, or only hashed. */
type BodyKind = 'markup' | 'text' | 'binary';

interface CheckContext {
  request: HttpCheckRequest;
  signal: AbortSignal;
  started: number;
  /** Records the certificate each HTTPS connection of the check is served. */
  certificates: CertificateWatch;
}

/** Where a failed check got to, for the result. */
interface FailureDetails {
  statusCode?: number | null;
  finalUrl?: string | null;
  content?: ExtractedContent | null;
  /** Defaults to the time elapsed so far. */
  responseTimeMs?: number;
}

/**
 * Fetches `request.url` once, following redirects itself so every hop passes the SSRF guard, and judges the final
 * response against the expectations. Page problems come back as a failed result; it does not throw for them.
 */
export async function checkHttp(request: HttpCheckRequest): Promise<HttpCheckResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  const guard = {
    allowPrivate: request.allowPrivate,
    lookup: request.lookup,
    isAllowedAddress: request.isAllowedAddress,
  };
  const certificates = new CertificateWatch(guard);
  const context: CheckContext = { request, signal: controller.signal, started: performance.now(), certificates };
  try {
    return await runCheck(context);
  } finally {
    clearTimeout(timer);
    await certificates.close();
  }
}

async function runCheck(context: CheckContext): Promise<HttpCheckResult> {
  const { request } = context;
  const fetched = await fetchFollowingRedirects(context);
  if ('failure' in fetched) return fetched;
  const { response, url } = fetched;
  const statusCode = response.status;
  const { statusMin, statusMax } = request.expectations;
  const statusOk = statusCode >= statusMin && statusCode <= statusMax;
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;

  let bytes: Uint8Array | null = null;
  if (declaredTooLarge(response, maxBytes)) {
    await discardBody(response);
  } else {
    try {
      bytes = await readCapped(response, maxBytes);
    } catch (error) {
      return failed(context, ...describeError(error, context), { statusCode, finalUrl: url });
    }
  }

  // A bad status says more than a large body, so it is reported first.
  const statusMessage = `HTTP ${statusCode} is outside ${statusMin}–${statusMax}`;
  if (bytes === null) {
    if (!statusOk) return failed(context, 'status', statusMessage, { statusCode, finalUrl: url });
    return failed(context, 'too_large', `response body exceeds ${maxBytes} bytes`, { statusCode, finalUrl: url });
  }

  // Measured before extraction: parsing a large page is our cost, not the site's response time.
  const responseTimeMs = elapsedMs(context);
  const body = readBody(bytes, response.headers.get('content-type'), withAssertedTexts(request));
  const details = { statusCode, finalUrl: url, content: body.content, responseTimeMs };
  const verdict = judgePage(statusCode, body.content, request.expectations, request.extract?.selector);
  if (verdict) return failed(context, verdict.failure, verdict.message, details);
  if (request.assertions?.length) {
    const failures = failedAssertions(request.assertions, {
      statusCode,
      responseTimeMs,
      header: (name) => response.headers.get(name),
      body: body.text,
      cssText: body.kind === 'markup' ? (selector) => body.content.texts?.[selector] ?? null : null,
    });
    if (failures.length) {
      const message = failures.map((failure) => failure.message).join('; ');
      return { ...failed(context, 'assertion', message, details), failedAssertions: failures };
    }
  }
  return {
    ok: true,
    failure: null,
    message: null,
    failedAssertions: [],
    ...details,
    certificate: context.certificates.certificateFor(url),
  };
}

/**
 * Whether a page that answered met the expectations: its status first, then the selector, then the keyword. Null
 * when it did. Shared by HTTP checks and by browser checks, which extract from rendered HTML.
 */
export function judgePage(
  statusCode: number,
  content: ExtractedContent,
  { statusMin, statusMax, keyword }: PageExpectations,
  selector?: string,
): { failure: CheckFailure; message: string } | null {
  if (statusCode < statusMin || statusCode > statusMax) {
    return { failure: 'status', message: `HTTP ${statusCode} is outside ${statusMin}–${statusMax}` };
  }
  if (selector !== undefined && content.selectorMatched === false) {
    return { failure: 'selector_missing', message: `selector ${JSON.stringify(selector)} matched nothing` };
  }
  if (keyword !== undefined && !content.text.includes(keyword)) {
    return { failure: 'keyword_missing', message: `keyword ${JSON.stringify(keyword)} not found` };
  }
  return null;
}

/** The final response and its URL, or a failed result. */
async function fetchFollowingRedirects(
  context: CheckContext,
): Promise<{ response: Response; url: string } | HttpCheckResult> {
  const { request, signal } = context;
  const maxRedirects = request.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  // The hop being fetched, for a failure's message and finalUrl.
  let hop = request.url;
  let hops = 0;
  try {
    const { response, url } = await fetchGuarded(request.url, {
      guard: { allowPrivate: request.allowPrivate, lookup: request.lookup, isAllowedAddress: request.isAllowedAddress },
      certificates: context.certificates,
      signal,
      headers: { 'user-agent': request.userAgent ?? DEFAULT_USER_AGENT, accept: ACCEPT },
      maxRedirects,
      followRedirect: (next) => {
        hop = next.href;
        hops += 1;
        return true;
      },
    });
    return { response, url };
  } catch (error) {
    if (error instanceof RedirectError) {
      const failure = error.kind === 'too_many_redirects' ? 'too_many_redirects' : 'network';
      return failed(context, failure, error.message, { statusCode: error.statusCode, finalUrl: error.url });
    }
    const [failure, message] = describeError(error, context);
    return failed(context, failure, `${hops > 0 ? `redirect to ${hop}: ` : ''}${message}`, { finalUrl: hop });
  }
}

function declaredTooLarge(response: Response, maxBytes: number): boolean {
  // A compressed body's length says nothing certain about the decoded size the cap applies to.
  if (response.headers.has('content-encoding')) return false;
  const length = Number(response.headers.get('content-length'));
  return Number.isFinite(length) && length > maxBytes;
}

/** The whole (decoded) body, or null as soon as it exceeds `maxBytes`. */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  if (response.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    // Leaving the loop early cancels the stream.
    if (total > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

function describeError(error: unknown, context: CheckContext): [CheckFailure, string] {
  if (context.signal.aborted) return ['timeout', `no complete response within ${context.request.timeoutMs} ms`];
  const certificateRefusal = certificateRefusalOf(error);
  if (certificateRefusal) return ['certificate', certificateRefusal.message];
  const refusal = refusalOf(error);
  if (refusal instanceof TargetNotPublicError) {
    // The guard's DNS lookup failing is a DNS failure, not a refusal.
    return [refusal.reason === 'unresolvable' ? 'network' : 'target_not_public', refusal.message];
  }
  return ['network', networkMessage(error)];
}

/**
 * undici reports "fetch failed" and puts the useful part (ECONNREFUSED, certificate errors...) in `cause`, sometimes
 * as an AggregateError with one error per address tried. Read structurally: fetch errors can come from another realm
 * (Jest's sandbox), where `instanceof Error` is false.
 */
function networkMessage(error: unknown): string {
  const outer = errorText(error);
  const cause = (error as { cause?: unknown } | null)?.cause;
  const inner = cause === undefined ? '' : errorText(cause);
  return inner === '' || inner === outer ? outer : `${outer}: ${inner}`;
}

function errorText(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { message, code, errors } = error as { message?: unknown; code?: unknown; errors?: unknown };
  if (typeof message === 'string' && message !== '') return message;
  if (Array.isArray(errors) && errors.length > 0) return errorText(errors[0]);
  return typeof code === 'string' ? code : 'unknown error';
}

function bodyKind(contentType: string | null): BodyKind {
  const mime = (contentType ?? '').split(';')[0].trim().toLowerCase();
  // Servers that send no type mostly send HTML; parsing it as such is the useful guess.
  if (mime === '' || mime === 'text/html' || mime === 'application/xhtml+xml') return 'markup';
  if (mime === 'application/xml' || mime === 'text/xml' || mime.endsWith('+xml')) return 'markup';
  if (mime.startsWith('text/') || mime === 'application/json' || mime.endsWith('+json')) return 'text';
  if (mime === 'application/javascript' || mime === 'application/ecmascript') return 'text';
  return 'binary';
}

/** The request, asking the extraction for the texts its `css_text` assertions read (so the page is parsed once). */
function withAssertedTexts(request: HttpCheckRequest): HttpCheckRequest {
  const texts = (request.assertions ?? [])
    .filter((assertion) => assertion.type === 'css_text' && assertion.property !== null)
    .map((assertion) => assertion.property!);
  return texts.length ? { ...request, extract: { ...request.extract, texts } } : request;
}

/** The body as read: its kind, its decoded text (null for a binary body) and what is extracted from it. */
function readBody(
  bytes: Uint8Array,
  contentType: string | null,
  request: HttpCheckRequest,
): { kind: BodyKind; text: string | null; content: ExtractedContent } {
  const kind = bodyKind(contentType);
  if (kind === 'binary') return { kind, text: null, content: extractBinary(bytes, request.extract) };
  const text = decodeBody(bytes, contentType, kind === 'markup');
  const content = kind === 'markup' ? extractContent(text, request.extract) : extractPlainText(text, request.extract);
  return { kind, text, content };
}

function elapsedMs(context: CheckContext): number {
  return Math.round(performance.now() - context.started);
}

function failed(
  context: CheckContext,
  failure: CheckFailure,
  message: string,
  details: FailureDetails = {},
): HttpCheckResult {
  return {
    ok: false,
    failure,
    message,
    failedAssertions: [],
    statusCode: details.statusCode ?? null,
    finalUrl: details.finalUrl ?? null,
    responseTimeMs: details.responseTimeMs ?? elapsedMs(context),
    content: details.content ?? null,
    certificate: details.finalUrl ? context.certificates.certificateFor(details.finalUrl) : null,
  };
}
