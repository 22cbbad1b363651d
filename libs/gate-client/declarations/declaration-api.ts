import { createVigilClient, type Schemas, type VigilClient } from '../../api-client';
import { isRecord, printable } from '../check';
import { describeError, type FieldError, isAbort, problemFieldErrors, problemHeadline } from '../problem';
import { type DeclarationPlan, parsePlan } from './plan';

export interface ApiConnection {
  /** The service's root (the API is under `/api/v1`). */
  baseUrl: string;
  apiKey: string;
  /** The workspace to declare; by default the one the key acts in. */
  workspace?: string;
  requestTimeoutSeconds: number;
  /** The transport; the global fetch by default. */
  fetch?: typeof fetch;
}

/** A failed call: what to print, the field errors of a 400, and the problem's code (`plan_stale`, …). */
export interface ApiFailure {
  ok: false;
  message: string;
  fields: FieldError[];
  code: string | null;
}

export type ApiResult<T> = { ok: true; value: T } | ApiFailure;

interface Exchange {
  data?: string;
  error?: unknown;
  response: Response;
}

/** The declaration endpoints of one workspace, with each request bounded in time and no redirect followed. */
export class DeclarationApi {
  private readonly client: VigilClient;
  private workspace: string | undefined;

  constructor(private readonly connection: ApiConnection) {
    const transport = connection.fetch ?? globalThis.fetch;
    const timeoutMs = connection.requestTimeoutSeconds * 1000;
    // Redirects are not followed: the API key would travel to wherever the redirect points.
    const bounded = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      transport(input, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    this.client = createVigilClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, fetch: bounded });
    this.workspace = connection.workspace;
  }

  /** `--workspace`, else the workspace the key acts in, as `GET /users/me` says (it needs `users:read`). */
  async workspaceId(): Promise<ApiResult<string>> {
    if (this.workspace) return { ok: true, value: this.workspace };
    const label = 'GET /users/me';
    const result = await this.send(label, () => this.client.GET('/users/me', { parseAs: 'text' }));
    if (!result.ok) {
      return {
        ...result,
        message: `cannot tell which workspace the key acts in: ${result.message}; pass --workspace ID (or give the key users:read)`,
      };
    }
    const body = parseJson(result.value);
    const id = isRecord(body) && isRecord(body.workspace) ? body.workspace.id : undefined;
    if (typeof id !== 'string' || !id) return malformed(label, '`workspace.id` is missing');
    this.workspace = id;
    return { ok: true, value: id };
  }

  plan(document: unknown, prune: boolean): Promise<ApiResult<DeclarationPlan>> {
    return this.inWorkspace(async (id) => {
      const label = `POST /workspaces/${id}/declaration/plan`;
      const body = { document: document as Schemas['Declaration'], prune };
      const result = await this.send(label, () =>
        this.client.POST('/workspaces/{id}/declaration/plan', { params: { path: { id } }, body, parseAs: 'text' }),
      );
      return result.ok ? planOf(label, result.value) : result;
    });
  }

  apply(document: unknown, prune: boolean, fingerprint: string): Promise<ApiResult<DeclarationPlan>> {
    return this.inWorkspace(async (id) => {
      const label = `POST /workspaces/${id}/declaration/apply`;
      const body = { document: document as Schemas['Declaration'], prune, fingerprint };
      const result = await this.send(label, () =>
        this.client.POST('/workspaces/{id}/declaration/apply', { params: { path: { id } }, body, parseAs: 'text' }),
      );
      return result.ok ? planOf(label, result.value) : result;
    });
  }

  /** The workspace as a declaration: YAML as the service writes it, or JSON. */
  export(format: 'yaml' | 'json'): Promise<ApiResult<string>> {
    return this.inWorkspace(async (id) => {
      const label = `GET /workspaces/${id}/declaration`;
      const accept = format === 'yaml' ? 'application/yaml' : 'application/json';
      return this.send(label, () =>
        this.client.GET('/workspaces/{id}/declaration', {
          params: { path: { id } },
          headers: { Accept: accept },
          parseAs: 'text',
        }),
      );
    });
  }

  private async inWorkspace<T>(call: (id: string) => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
    const workspace = await this.workspaceId();
    return workspace.ok ? call(workspace.value) : workspace;
  }

  /** One request: its body as text on a 2xx, else what went wrong, as the problem document says it. */
  private async send(label: string, request: () => Promise<Exchange>): Promise<ApiResult<string>> {
    let exchange: Exchange;
    try {
      exchange = await request();
    } catch (error) {
      const why = isAbort(error)
        ? `no answer within ${this.connection.requestTimeoutSeconds} s`
        : `failed: ${describeError(error)}`;
      return failure(`${label} ${why}`);
    }
    const { response } = exchange;
    const status = response.status;
    if (status >= 200 && status < 300) return { ok: true, value: exchange.data ?? '' };
    if (status >= 300 && status < 400) {
      const location = printable(response.headers.get('Location') ?? '', 200);
      return failure(
        `${label} answered a redirect (${status} to ${location || '?'}); pass the service's address as --base-url`,
      );
    }
    const problem = exchange.error;
    const headline = isRecord(problem)
      ? problemHeadline(problem)
      : typeof problem === 'string' && problem.trim()
        ? `not a problem document: ${printable(problem, 120)}`
        : '';
    const scope =
      isRecord(problem) && typeof problem.required_scope === 'string'
        ? ` (required scope: ${printable(problem.required_scope, 80)})`
        : '';
    const code = isRecord(problem) && typeof problem.code === 'string' ? printable(problem.code, 80) : null;
    return {
      ok: false,
      message: `${label} answered ${status}${headline ? `: ${headline}` : ''}${scope}`,
      fields: problemFieldErrors(problem),
      code,
    };
  }
}

function planOf(label: string, text: string): ApiResult<DeclarationPlan> {
  const parsed = parsePlan(parseJson(text));
  return parsed.ok ? { ok: true, value: parsed.plan } : malformed(label, parsed.reason);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function malformed(label: string, reason: string): ApiFailure {
  return failure(`malformed response from ${label}: ${reason}`);
}

function failure(message: string): ApiFailure {
  return { ok: false, message, fields: [], code: null };
}
