import { clearSession, readSession, readWorkspaceId, type Session, storeWorkspaceId } from './session';
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

/** The code of the problem a call answers when the workspace it acted in is no longer the person's. */
export const WORKSPACE_GONE = 'workspace_gone';

/** The headers every signed-in request carries: the token, and the workspace it acts in. */
function sessionHeaders(session: Session): Record<string, string> {
  const headers: Record<string, string> = { Authorization: `Bearer ${session.token}` };
  const workspaceId = readWorkspaceId();
  if (workspaceId) headers['X-Workspace-Id'] = workspaceId;
  return headers;
}

const verifying = new Map<string, Promise<boolean>>();

/**
 * After a 404 in a chosen workspace: is the person still a member of it? `GET /workspaces/{id}` answers 404 to a
 * non-member. When they are not (removed meanwhile), the stored id is dropped and the interface falls back to the
 * default workspace. Answers whether it was dropped.
 */
function dropWorkspaceIfGone(session: Session, workspaceId: string): Promise<boolean> {
  let pending = verifying.get(workspaceId);
  if (!pending) {
    pending = fetch(`${API_BASE}/workspaces/${encodeURIComponent(workspaceId)}`, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${session.token}` },
    })
      .then((response) => {
        if (response.status !== 404) return false;
        if (readWorkspaceId() === workspaceId) storeWorkspaceId(null, 'removed');
        return true;
      })
      .catch(() => false)
      .finally(() => verifying.delete(workspaceId));
    verifying.set(workspaceId, pending);
  }
  return pending;
}

function workspaceGone(): ProblemError {
  return new ProblemError({
    type: 'about:blank',
    title: 'You are no longer a member of this workspace',
    status: 404,
    code: WORKSPACE_GONE,
    detail: 'Vigil has switched to your default workspace.',
  });
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
  if (session) Object.assign(headers, sessionHeaders(session));

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
    const workspaceId = headers['X-Workspace-Id'];
    if (response.status === 404 && session && workspaceId && (await dropWorkspaceIfGone(session, workspaceId))) {
      throw workspaceGone();
    }
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
  const headers = sessionHeaders(session);
  const response = await fetch(url, { headers, signal });
  if (!response.ok) {
    if (response.status === 401) clearSession('unauthorized');
    const workspaceId = headers['X-Workspace-Id'];
    if (response.status === 404 && workspaceId && (await dropWorkspaceIfGone(session, workspaceId))) {
      throw workspaceGone();
    }
    throw new ProblemError(problemFrom(response.status, response.statusText, undefined));
  }
  return URL.createObjectURL(await response.blob());
}
