import { isRecord, printable } from './check';

/** One entry of a problem document's `errors`: the offending field (a path) and what is wrong with it. */
export interface FieldError {
  field: string;
  message: string;
}

/** The field errors of a problem document (RFC 9457 with Vigil's `errors[{field, message}]`), made printable. */
export function problemFieldErrors(body: unknown, max = 100): FieldError[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  return body.errors
    .filter(isRecord)
    .slice(0, max)
    .map((entry) => ({ field: printable(String(entry.field), 200), message: printable(String(entry.message), 300) }));
}

/** A problem document's code and detail (or title), e.g. `plan_stale: The workspace changed…`; empty for none. */
export function problemHeadline(body: unknown): string {
  if (!isRecord(body)) return '';
  const parts: string[] = [];
  if (typeof body.code === 'string') parts.push(printable(body.code, 80));
  if (typeof body.detail === 'string') parts.push(printable(body.detail));
  else if (typeof body.title === 'string') parts.push(printable(body.title));
  return parts.join(': ');
}

/** A problem document's code, detail, required scope and field errors, on one line. */
export function describeProblem(body: unknown): string {
  if (!isRecord(body)) {
    return typeof body === 'string' && body.trim() ? ` (not a problem document: ${printable(body, 120)})` : '';
  }
  const headline = problemHeadline(body);
  let text = headline ? `: ${headline}` : '';
  if (typeof body.required_scope === 'string') text += ` (required scope: ${printable(body.required_scope, 80)})`;
  const fields = problemFieldErrors(body, 10).map(
    (entry) => `${printable(entry.field, 100)}: ${printable(entry.message, 200)}`,
  );
  if (fields.length) text += ` [${fields.join('; ')}]`;
  return text;
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** An exception as one printable line; fetch's socket error (ECONNREFUSED, ENOTFOUND, ...) is its cause. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return printable(String(error));
  const cause: unknown = error.cause;
  const detail = cause instanceof Error ? ` (${(cause as NodeJS.ErrnoException).code ?? cause.message})` : '';
  return printable(`${error.message}${detail}`);
}
