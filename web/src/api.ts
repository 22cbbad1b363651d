import { clearSession, readSession } from './session';
import type { Problem } from './types';

export const API_BASE = '/api/v1';

/** A failed call, carrying the RFC 9457 problem the API answered (or one made up for network failures). */
export class ProblemError extends Error {
  constructor(readonly problem: Problem & { current_revision?: number; [key: string]: unknown }) {
    super(problem.detail ?? problem.title);
  }

  get status(): number {
    return this.problem.status;
  }

  get code(): string {
    return this.problem.code;
  }
}

function problemFrom(status: number, statusText: string, body: unknown): ProblemError['problem'] {
  if (body && typeof body === 'object' && 'title' in body) return body as ProblemError['problem'];
  return {
    type: 'about:blank',
    title: statusText || `HTTP ${status}`,
    status,
    code: `http_${status}`,
    detail: typeof body === 'string' && body.length < 300 ? body : undefined,
  };
}

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** Calls made without the session (sign-in). */
  anonymous?: boolean;
}

/** One call to the public API. A 401 on a signed-in call ends the session and sends the person to sign-in. */
export async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const session = options.anonymous ? null : readSession();
  if (!options.anonymous && !session) {
    clearSession('expired');
    throw new ProblemError({ type: 'about:blank', title: 'Signed out', status: 401, code: 'session_expired' });
  }
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const query = params.size ? `?${params}` : '';
  const headers: Record<string, string> = { Accept: 'application/json, application/problem+json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (session) headers.Authorization = `Bearer ${session.token}`;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}${query}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ProblemError({
      type: 'about:blank',
      title: 'The service could not be reached',
      status: 0,
      code: 'network_error',
      detail: 'Check your connection and try again.',
    });
  }
  const text = await response.text();
  let body: unknown = text;
  if (text && /json/.test(response.headers.get('content-type') ?? '')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) {
    const problem = problemFrom(response.status, response.statusText, body);
    if (response.status === 429) {
      const retry = response.headers.get('Retry-After');
      if (retry) problem.detail = `${problem.detail ?? 'Too many requests.'} Try again in ${retry} s.`;
    }
    if (response.status === 401 && session) clearSession('unauthorized');
    throw new ProblemError(problem);
  }
  return body as T;
}

/** Fetches a protected file (a screenshot) with the session's token and answers an object URL for it. */
export async function fetchObjectUrl(url: string, signal?: AbortSignal): Promise<string> {
  const session = readSession();
  if (!session) {
    clearSession('expired');
    throw new ProblemError({ type: 'about:blank', title: 'Signed out', status: 401, code: 'session_expired' });
  }
  const response = await fetch(url, { headers: { Authorization: `Bearer ${session.token}` }, signal });
  if (!response.ok) {
    if (response.status === 401) clearSession('unauthorized');
    throw new ProblemError(problemFrom(response.status, response.statusText, undefined));
  }
  return URL.createObjectURL(await response.blob());
}
