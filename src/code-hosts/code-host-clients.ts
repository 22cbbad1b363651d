import { createAppAuth } from '@octokit/auth-app';
import { request as octokitRequest } from '@octokit/request';
import { type Agent, fetch as undiciFetch } from 'undici';
import type { ReleaseCheckSource } from '../release-checks/entities/release-check.entity';
import { SEND_TIMEOUT_MS } from '../alerts/delivery-attempt';
import { type GateReport, type GateState, reportedAt } from './gate-report';
import { type HostAnswer, type HostCall, HostCallFailed, type HostHttp } from './host-http';

/** What a connection's test call found. */
export interface ConnectionCheck {
  ok: boolean;
  response_status: number | null;
  detail: string;
}

/** The few calls Vigil makes to a code host. */
export interface CodeHostClient {
  /** Sets the commit status for the report's context; answers the call made (for the log) and the host's answer. */
  setStatus(source: ReleaseCheckSource, report: GateReport): Promise<{ call: HostCall; answer: HostAnswer }>;
  /** Edits the check's comment on the pull or merge request, or adds it when there is none yet. */
  upsertComment(source: ReleaseCheckSource, pullRequest: number, report: GateReport): Promise<HostAnswer>;
  /** Whether the credential works (nothing is written). */
  check(): Promise<ConnectionCheck>;
}

/** Pages of comments read when looking for the check's own (100 each). */
const MAX_COMMENT_PAGES = 20;
/** An installation token is used until this long before it expires, then a new one is minted. */
export const TOKEN_RENEWAL_MARGIN_MS = 5 * 60_000;

interface HostComment {
  id: number;
  body?: string | null;
}

/**
 * The check's comment among a pull request's: read page by page (oldest first) until one of ours starts with the
 * marker. Finding it by its marker, not by an id stored after creating it, keeps a retry after a crash from adding a
 * second; `ours` keeps anyone else who writes the marker in a comment from having it edited (or from blocking it).
 */
async function findComment<C extends HostComment>(
  http: HostHttp,
  pageUrl: (page: number) => string,
  headers: Record<string, string>,
  marker: string,
  ours: (comment: C) => boolean,
): Promise<C | null> {
  for (let page = 1; page <= MAX_COMMENT_PAGES; page += 1) {
    const call: HostCall = { method: 'GET', url: pageUrl(page), headers };
    const comments = await http.json<unknown>(call);
    if (!Array.isArray(comments)) {
      throw new HostCallFailed(call, 200, null, `GET ${call.url} answered something other than a list of comments`);
    }
    const found = (comments as C[]).find((comment) => comment.body?.startsWith(marker) && ours(comment));
    if (found) return found;
    if (comments.length < 100) return null;
  }
  return null;
}

/**
 * Edits the check's comment, or adds it when there is none; an existing comment already showing a later event of the
 * check name (a delivery that arrives late) is left as it is.
 */
async function upsertComment<C extends HostComment>(
  http: HostHttp,
  report: GateReport,
  calls: {
    pageUrl: (page: number) => string;
    headers: Record<string, string>;
    ours: (comment: C) => boolean;
    edit: (comment: C) => HostCall;
    add: HostCall;
  },
): Promise<HostAnswer> {
  const existing = await findComment(http, calls.pageUrl, calls.headers, report.marker, calls.ours);
  if (existing && reportedAt(existing.body ?? '') > report.at) {
    return { status: 200, excerpt: `kept comment ${existing.id}: it shows a later event` };
  }
  return http.call(existing ? calls.edit(existing) : calls.add);
}

/**
 * auth-app's token cache, but honouring each token's own expiry (auth-app's keeps any token 59 minutes): a token is
 * reused until TOKEN_RENEWAL_MARGIN_MS before it expires.
 */
class ExpiringTokenCache {
  private readonly entries = new Map<string, string>();

  /** '' when there is none to use (auth-app treats any falsy answer as a miss). */
  get(key: string): string {
    const entry = this.entries.get(key);
    // auth-app stores `token|createdAt|expiresAt|…`.
    const expiresAt = Date.parse(entry?.split('|')[2] ?? '');
    if (entry && Number.isFinite(expiresAt) && expiresAt - Date.now() > TOKEN_RENEWAL_MARGIN_MS) return entry;
    this.entries.delete(key);
    return '';
  }

  set(key: string, value: string): void {
    this.entries.set(key, value);
  }
}

/** A GitHub App installation: an App JWT exchanged for installation tokens (auth-app), cached until near expiry. */
export class GitHubClient implements CodeHostClient {
  private readonly auth: ReturnType<typeof createAppAuth>;
  /** auth-app's requests (the token exchange) go through the same checked dispatcher and timeout as the rest. */
  private readonly request: typeof octokitRequest;

  constructor(
    private readonly http: HostHttp,
    private readonly apiUrl: string,
    dispatcher: Agent,
    private readonly app: { appId: number; installationId: number; privateKey: string },
  ) {
    this.request = octokitRequest.defaults({
      baseUrl: apiUrl,
      headers: { 'user-agent': 'Vigil/1 (release checks)' },
      request: {
        fetch: (url: string, init: RequestInit) =>
          undiciFetch(url, {
            ...(init as Parameters<typeof undiciFetch>[1]),
            dispatcher,
            signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          }),
      },
    });
    this.auth = createAppAuth({
      appId: app.appId,
      privateKey: app.privateKey,
      installationId: app.installationId,
      cache: new ExpiringTokenCache(),
      request: this.request,
    });
  }

  async setStatus(source: ReleaseCheckSource, report: GateReport) {
    const call: HostCall = {
      method: 'POST',
      url: `${this.repoUrl(source)}/statuses/${source.commit_sha}`,
      headers: await this.headers(),
      body: {
        state: GITHUB_STATES[report.state],
        description: report.description,
        context: report.context,
        ...(report.targetUrl ? { target_url: report.targetUrl } : {}),
      },
    };
    return { call, answer: await this.http.call(call) };
  }

  async upsertComment(source: ReleaseCheckSource, pullRequest: number, report: GateReport): Promise<HostAnswer> {
    const headers = await this.headers();
    const issue = `${this.repoUrl(source)}/issues/${pullRequest}/comments`;
    const body = { body: report.comment };
    return upsertComment<HostComment & { performed_via_github_app?: { id?: number } | null }>(this.http, report, {
      pageUrl: (page) => `${issue}?per_page=100&page=${page}`,
      headers,
      // Written through this App's installation, not by a person who copied the marker.
      ours: (comment) => comment.performed_via_github_app?.id === this.app.appId,
      edit: (comment) => ({
        method: 'PATCH',
        url: `${this.repoUrl(source)}/issues/comments/${comment.id}`,
        headers,
        body,
      }),
      add: { method: 'POST', url: issue, headers, body },
    });
  }

  async check(): Promise<ConnectionCheck> {
    // A fresh exchange, not a cached token: the point is to learn whether the key and installation work now.
    const fresh = createAppAuth({ appId: this.app.appId, privateKey: this.app.privateKey, request: this.request });
    try {
      const token = await fresh({ type: 'installation', installationId: this.app.installationId });
      return {
        ok: true,
        response_status: 201,
        detail: `GitHub minted a token for installation ${this.app.installationId} (valid until ${token.expiresAt}).`,
      };
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      const message = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        response_status: typeof status === 'number' ? status : null,
        detail: `GitHub refused the App's credentials for installation ${this.app.installationId}: ${message}`,
      };
    }
  }

  private repoUrl(source: ReleaseCheckSource): string {
    const [owner, name] = source.repository.split('/');
    return `${this.apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  }

  private async headers(): Promise<Record<string, string>> {
    let token: string;
    try {
      ({ token } = await this.auth({ type: 'installation' }));
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      const message = error instanceof Error ? error.message : String(error);
      throw new HostCallFailed(
        { method: 'POST', url: `${this.apiUrl}/app/installations/${this.app.installationId}/access_tokens` },
        typeof status === 'number' ? status : null,
        null,
        `minting an installation token failed: ${message}`,
      );
    }
    return {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
    };
  }
}

/** A GitLab project or group access token, on GitLab.com or a self-managed instance. */
export class GitLabClient implements CodeHostClient {
  private selfId?: number;

  constructor(
    private readonly http: HostHttp,
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async setStatus(source: ReleaseCheckSource, report: GateReport) {
    const call: HostCall = {
      method: 'POST',
      url: `${this.projectUrl(source)}/statuses/${source.commit_sha}`,
      headers: this.headers(),
      body: {
        state: GITLAB_STATES[report.state],
        name: report.context,
        description: report.description,
        ...(source.branch ? { ref: source.branch } : {}),
        ...(report.targetUrl ? { target_url: report.targetUrl } : {}),
      },
    };
    try {
      return { call, answer: await this.http.call(call) };
    } catch (error) {
      // GitLab refuses to set a status to the state it is in: a retry (after the comment failed) finds it set.
      if (
        error instanceof HostCallFailed &&
        error.status === 400 &&
        /Cannot transition status/i.test(error.excerpt ?? '')
      ) {
        return { call, answer: { status: 400, excerpt: error.excerpt } };
      }
      throw error;
    }
  }

  async upsertComment(source: ReleaseCheckSource, pullRequest: number, report: GateReport): Promise<HostAnswer> {
    const headers = this.headers();
    const self = await this.self();
    const notes = `${this.projectUrl(source)}/merge_requests/${pullRequest}/notes`;
    const body = { body: report.comment };
    return upsertComment<HostComment & { author?: { id?: number } }>(this.http, report, {
      pageUrl: (page) => `${notes}?per_page=100&page=${page}&sort=asc&order_by=created_at`,
      headers,
      // Written with this token (its bot user), not by a person who copied the marker.
      ours: (note) => note.author?.id === self,
      edit: (note) => ({ method: 'PUT', url: `${notes}/${note.id}`, headers, body }),
      add: { method: 'POST', url: notes, headers, body },
    });
  }

  async check(): Promise<ConnectionCheck> {
    try {
      const token = await this.http.json<{ name?: string; scopes?: string[]; active?: boolean }>({
        method: 'GET',
        url: `${this.baseUrl}/api/v4/personal_access_tokens/self`,
        headers: this.headers(),
      });
      const scopes = token.scopes ?? [];
      if (!scopes.includes('api')) {
        return {
          ok: false,
          response_status: 200,
          detail: `The token works but lacks the api scope (it has: ${scopes.join(', ') || 'none'}).`,
        };
      }
      return {
        ok: true,
        response_status: 200,
        detail: `GitLab at ${this.baseUrl} accepted the token ${JSON.stringify(token.name ?? '')} (scopes: ${scopes.join(', ')}).`,
      };
    } catch (error) {
      if (!(error instanceof HostCallFailed)) throw error;
      return {
        ok: false,
        response_status: error.status,
        detail: `GitLab at ${this.baseUrl} did not accept the token: ${error.message}`,
      };
    }
  }

  /** The token's own user (a project or group token has a bot user), read once. */
  private async self(): Promise<number> {
    this.selfId ??= (
      await this.http.json<{ id: number }>({
        method: 'GET',
        url: `${this.baseUrl}/api/v4/user`,
        headers: this.headers(),
      })
    ).id;
    return this.selfId;
  }

  private projectUrl(source: ReleaseCheckSource): string {
    return `${this.baseUrl}/api/v4/projects/${encodeURIComponent(source.repository)}`;
  }

  private headers(): Record<string, string> {
    return { 'private-token': this.token };
  }
}

const GITHUB_STATES: Record<GateState, string> = {
  collecting: 'pending',
  awaiting_review: 'pending',
  success: 'success',
  failure: 'failure',
};

/**
 * GitLab refuses to move a status to the state it is in ("Cannot transition status via :enqueue from :pending"), so
 * waiting for a review is `running`, not a second `pending`.
 */
const GITLAB_STATES: Record<GateState, string> = {
  collecting: 'pending',
  awaiting_review: 'running',
  success: 'success',
  failure: 'failed',
};
