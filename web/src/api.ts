import type { Middleware } from 'openapi-fetch';
import { createVigilClient, type VigilClient } from '../../libs/api-client';
import { clearSession, readSession, readWorkspaceId, type Session, storeWorkspaceId } from './session';
import type { Problem } from './types';

/*
 * The web interface's one way to the API: the typed client generated from openapi.yaml (libs/api-client), wrapped
 * once with what every signed-in call needs. `api` adds the session's token and `X-Workspace-Id`, ends the session on
 * a 401, falls back to the default workspace when the chosen one is no longer the person's, and turns every failure
 * into a ProblemError; `ok()` unwraps a call's data. Pages never build paths or headers by hand:
 *
 *   const check = await ok(api.GET('/release-checks/{id}', { params: { path: { id } }, signal }));
 */

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
    detail: typeof body === 'string' && body.length > 0 && body.length < 300 ? body : undefined,
  };
}

/** The code of the problem a call answers when the workspace it acted in is no longer the person's. */
export const WORKSPACE_GONE = 'workspace_gone';

const signedOut = () =>
  new ProblemError({ type: 'about:blank', title: 'Signed out', status: 401, code: 'session_expired' });

const unreachable = () =>
  new ProblemError({
    type: 'about:blank',
    title: 'The service could not be reached',
    status: 0,
    code: 'network_error',
    detail: 'Check your connection and try again.',
  });

function workspaceGone(): ProblemError {
  return new ProblemError({
    type: 'about:blank',
    title: 'You are no longer a member of this workspace',
    status: 404,
    code: WORKSPACE_GONE,
    detail: 'Vigil has switched to your default workspace.',
  });
}

const origin = () => window.location.origin;

const verifying = new Map<string, Promise<boolean>>();

/**
 * After a 404 in a chosen workspace: is the person still a member of it? `GET /workspaces/{id}` answers 404 to a
 * non-member. When they are not (removed meanwhile), the stored id is dropped and the interface falls back to the
 * default workspace. Answers whether it was dropped.
 */
function dropWorkspaceIfGone(session: Session, workspaceId: string): Promise<boolean> {
  let pending = verifying.get(workspaceId);
  if (!pending) {
    // A bare client: this call must not name the workspace it asks about, nor recurse into this check.
    pending = createVigilClient({ baseUrl: origin(), accessToken: session.token })
      .GET('/workspaces/{id}', { params: { path: { id: workspaceId } } })
      .then(({ response }) => {
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

/** Adds the session (token and workspace) to a request; without a live session the call ends the session instead. */
function withSession(request: Request): { request: Request; session: Session; workspaceId: string | null } {
  const session = readSession();
  if (!session) {
    clearSession('expired');
    throw signedOut();
  }
  request.headers.set('Authorization', `Bearer ${session.token}`);
  const workspaceId = readWorkspaceId();
  if (workspaceId) request.headers.set('X-Workspace-Id', workspaceId);
  return { request, session, workspaceId };
}

/** What a failed response means, with the session's side effects: a 401 ends it, a gone workspace is dropped. */
async function failure(
  response: Response,
  body: unknown,
  signedIn: { session: Session; workspaceId: string | null } | null,
): Promise<ProblemError> {
  const problem = problemFrom(response.status, response.statusText, body);
  if (response.status === 429) {
    const retry = response.headers.get('Retry-After');
    if (retry) problem.detail = `${problem.detail ?? 'Too many requests.'} Try again in ${retry} s.`;
  }
  if (!signedIn) return new ProblemError(problem);
  if (response.status === 401) clearSession('unauthorized');
  const { session, workspaceId } = signedIn;
  if (response.status === 404 && workspaceId && (await dropWorkspaceIfGone(session, workspaceId))) {
    return workspaceGone();
  }
  return new ProblemError(problem);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.clone().text();
  if (!text || !/json/.test(response.headers.get('content-type') ?? '')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

function problemMiddleware(signedIn: boolean): Middleware {
  const sessions = new Map<string, { session: Session; workspaceId: string | null }>();
  return {
    onRequest({ request, id }) {
      request.headers.set('Accept', 'application/json, application/problem+json');
      if (!signedIn) return request;
      const prepared = withSession(request);
      sessions.set(id, prepared);
      return prepared.request;
    },
    onError({ error, id }) {
      sessions.delete(id);
      return isAbort(error) ? (error as Error) : unreachable();
    },
    async onResponse({ response, id }) {
      const context = sessions.get(id) ?? null;
      sessions.delete(id);
      if (response.ok) return undefined;
      throw await failure(response, await readBody(response), context);
    },
  };
}

function client(signedIn: boolean): VigilClient {
  const created = createVigilClient({ baseUrl: origin(), fetch: (input) => globalThis.fetch(input) });
  created.use(problemMiddleware(signedIn));
  return created;
}

/** Calls as the signed-in person, in the workspace they chose. */
export const api = client(true);

/** Calls without a session: signing in. */
export const publicApi = client(false);

/**
 * The data of a successful call. Failures never reach here (the middleware throws a ProblemError), so a missing body
 * is a 204's.
 */
export async function ok<T>(pending: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data } = await pending;
  return data as T;
}

/** How long a file download waits out a spent rate limit before it gives up, in seconds. */
const RATE_LIMIT_PATIENCE_S = 60;

/**
 * Fetches a protected file (a screenshot) with the session's token and answers an object URL for it. A reviewer
 * moving fast through hundreds of pairs can spend the per-minute rate limit on screenshots: a 429 is waited out
 * (its Retry-After, within a minute in all) rather than shown as a broken image.
 */
export async function fetchObjectUrl(url: string, signal?: AbortSignal): Promise<string> {
  let waited = 0;
  for (;;) {
    const prepared = withSession(new Request(new URL(url, origin()), { signal }));
    let response: Response;
    try {
      response = await fetch(prepared.request);
    } catch (error) {
      throw isAbort(error) ? error : unreachable();
    }
    const retryAfter = Number(response.headers.get('Retry-After'));
    if (response.status === 429 && retryAfter > 0 && waited + retryAfter <= RATE_LIMIT_PATIENCE_S) {
      waited += retryAfter;
      await pause(retryAfter * 1000, signal);
      continue;
    }
    if (!response.ok) throw await failure(response, undefined, prepared);
    return URL.createObjectURL(await response.blob());
  }
}

/** Waits, or rejects as fetch does once the signal aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(new DOMException('The operation was aborted.', 'AbortError'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
  });
}
