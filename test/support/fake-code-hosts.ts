import { generateKeyPairSync, type KeyObject, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a fake code host received, as it arrived (credentials included, for the test to check). */
export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** What the fake answered. */
  status: number;
}

interface Comment {
  id: number;
  body: string;
  /** GitHub: set on comments written through an App's installation. */
  performed_via_github_app?: { id: number } | null;
  /** GitLab: the note's author. */
  author?: { id: number };
}

/** A local HTTP server recording what it receives; subclasses answer the few REST endpoints Vigil uses. */
abstract class FakeHost {
  readonly received: Received[] = [];
  /** Answers to give the next matching requests instead of the normal one, e.g. one 500 for a status. */
  private readonly failures: { pattern: RegExp; status: number }[] = [];
  protected readonly comments = new Map<string, Comment[]>();
  private nextCommentId = 1000;
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The next request whose `METHOD path` matches is answered with `status` (once). */
  failNext(pattern: RegExp, status: number): void {
    this.failures.push({ pattern, status });
  }

  /** Requests whose `METHOD path` (without the query) matches. */
  requests(pattern: RegExp): Received[] {
    return this.received.filter((request) => pattern.test(`${request.method} ${request.path.split('?')[0]}`));
  }

  commentsOn(thread: string): Comment[] {
    return this.comments.get(thread) ?? [];
  }

  protected abstract route(request: IncomingMessage, body: any): { status: number; body?: unknown };

  protected listComments(thread: string, query: URLSearchParams) {
    const perPage = Number(query.get('per_page') ?? 30);
    const page = Number(query.get('page') ?? 1);
    return { status: 200, body: this.commentsOn(thread).slice((page - 1) * perPage, page * perPage) };
  }

  /** A comment written by someone else (a person who copied the marker, say). */
  addForeignComment(thread: string, body: string): void {
    this.addComment(thread, { body }, {});
  }

  protected addComment(thread: string, body: any, by: Omit<Comment, 'id' | 'body'>) {
    const comment = { id: this.nextCommentId++, body: String(body?.body ?? ''), ...by };
    this.comments.set(thread, [...this.commentsOn(thread), comment]);
    return { status: 201, body: comment };
  }

  protected editComment(id: number, body: any) {
    for (const comments of this.comments.values()) {
      const comment = comments.find((candidate) => candidate.id === id);
      if (comment) {
        comment.body = String(body?.body ?? '');
        return { status: 200, body: comment };
      }
    }
    return { status: 404, body: { message: 'Not Found' } };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : undefined;
    const line = `${request.method} ${(request.url ?? '/').split('?')[0]}`;
    const failure = this.failures.findIndex((candidate) => candidate.pattern.test(line));
    const answer =
      failure >= 0
        ? { status: this.failures.splice(failure, 1)[0].status, body: { message: 'Server Error' } }
        : this.route(request, body);
    this.received.push({
      method: request.method ?? '',
      path: request.url ?? '/',
      headers: request.headers,
      body,
      status: answer.status,
    });
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body ?? {}));
  }
}

/**
 * GitHub's REST API as a GitHub App uses it: the App's JWT (RS256, verified with the App's public key) exchanged for
 * an installation token, which every other call must bear.
 */
export class FakeGitHub extends FakeHost {
  readonly appId = 123456;
  readonly installationId = 45678901;
  /** The App's private key, PKCS#1 PEM as GitHub downloads it. */
  readonly privateKey: string;
  private readonly publicKey: KeyObject;
  /** Tokens minted, with their expiry. */
  readonly tokens = new Map<string, Date>();
  /** How long the next tokens last. */
  tokenLifetimeMs = 3_600_000;

  constructor() {
    super();
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    this.publicKey = publicKey;
  }

  /** Statuses set on a commit, in the order received (successful ones only). */
  statuses(sha: string): any[] {
    return this.requests(new RegExp(`^POST /repos/[^/]+/[^/]+/statuses/${sha}$`))
      .filter((request) => request.status === 201)
      .map((request) => request.body);
  }

  protected route(request: IncomingMessage, body: any): { status: number; body?: unknown } {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    const exchange = path.match(/^\/app\/installations\/(\d+)\/access_tokens$/);
    if (request.method === 'POST' && exchange) {
      const claims = this.verifiedJwt(request.headers.authorization);
      if (!claims || Number(claims.iss) !== this.appId) {
        return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
      }
      if (Number(exchange[1]) !== this.installationId) return { status: 404, body: { message: 'Not Found' } };
      const token = `ghs_${randomBytes(18).toString('hex')}`;
      const expiresAt = new Date(Date.now() + this.tokenLifetimeMs);
      this.tokens.set(token, expiresAt);
      return {
        status: 201,
        body: {
          token,
          expires_at: expiresAt.toISOString(),
          permissions: { statuses: 'write', pull_requests: 'write' },
          repository_selection: 'all',
        },
      };
    }
    const token = request.headers.authorization?.replace(/^(Bearer|token) /i, '') ?? '';
    if (!this.tokens.has(token) || this.tokens.get(token)!.getTime() < Date.now()) {
      return { status: 401, body: { message: 'Bad credentials' } };
    }
    let match: RegExpMatchArray | null;
    if (request.method === 'POST' && (match = path.match(/^\/repos\/([^/]+)\/([^/]+)\/statuses\/([0-9a-f]+)$/))) {
      return { status: 201, body: { id: Date.now(), ...body } };
    }
    if ((match = path.match(/^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/))) {
      const thread = `${match[1]}/${match[2]}#${match[3]}`;
      if (request.method === 'GET') return this.listComments(thread, url.searchParams);
      if (request.method === 'POST')
        return this.addComment(thread, body, { performed_via_github_app: { id: this.appId } });
    }
    if (request.method === 'PATCH' && (match = path.match(/^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/))) {
      return this.editComment(Number(match[1]), body);
    }
    return { status: 404, body: { message: 'Not Found' } };
  }

  /** The JWT's claims when its RS256 signature is the App's and it is within its validity; null otherwise. */
  private verifiedJwt(authorization: string | undefined): Record<string, unknown> | null {
    const jwt = authorization?.replace(/^Bearer /i, '') ?? '';
    const [header, payload, signature] = jwt.split('.');
    if (!header || !payload || !signature) return null;
    const valid = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      this.publicKey,
      Buffer.from(signature, 'base64url'),
    );
    if (!valid) return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, number>;
    const now = Math.floor(Date.now() / 1000);
    return claims.iat <= now + 60 && claims.exp > now && claims.exp - claims.iat <= 600 ? claims : null;
  }
}

/**
 * GitLab's REST API with a project or group access token in PRIVATE-TOKEN (its bot user writes the notes). Like GitLab,
 * it refuses to set a status to the state it is in (`400 Cannot transition status`).
 */
export class FakeGitLab extends FakeHost {
  readonly token = `glpat-${randomBytes(10).toString('hex')}`;
  readonly botUserId = 4242;
  /** Each status's state, by project, commit and name. */
  private readonly states = new Map<string, string>();

  /** Statuses set on a commit, in the order received (successful ones only). */
  statuses(sha: string): any[] {
    return this.requests(new RegExp(`^POST /api/v4/projects/[^/]+/statuses/${sha}$`))
      .filter((request) => request.status === 201)
      .map((request) => request.body);
  }

  protected route(request: IncomingMessage, body: any): { status: number; body?: unknown } {
    const url = new URL(request.url ?? '/', 'http://fake');
    // The project's path arrives URL-encoded as one segment (`group%2Fproject`).
    const path = url.pathname;
    if (request.headers['private-token'] !== this.token) return { status: 401, body: { message: '401 Unauthorized' } };
    if (request.method === 'GET' && path === '/api/v4/personal_access_tokens/self') {
      return { status: 200, body: { id: 1, name: 'vigil', scopes: ['api'], active: true } };
    }
    let match: RegExpMatchArray | null;
    if (request.method === 'GET' && path === '/api/v4/user') {
      return { status: 200, body: { id: this.botUserId, username: 'project_7_bot', bot: true } };
    }
    if (request.method === 'POST' && (match = path.match(/^\/api\/v4\/projects\/([^/]+)\/statuses\/([0-9a-f]+)$/))) {
      const key = `${match[1]}@${match[2]}#${body?.name}`;
      if (this.states.get(key) === body?.state) {
        return { status: 400, body: { message: `Cannot transition status via :enqueue from :${body?.state}` } };
      }
      this.states.set(key, body?.state);
      return { status: 201, body: { id: Date.now(), status: body?.state, name: body?.name } };
    }
    if ((match = path.match(/^\/api\/v4\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes$/))) {
      const thread = `${decodeURIComponent(match[1])}!${match[2]}`;
      if (request.method === 'GET') return this.listComments(thread, url.searchParams);
      if (request.method === 'POST') return this.addComment(thread, body, { author: { id: this.botUserId } });
    }
    if (
      request.method === 'PUT' &&
      (match = path.match(/^\/api\/v4\/projects\/[^/]+\/merge_requests\/\d+\/notes\/(\d+)$/))
    ) {
      return this.editComment(Number(match[1]), body);
    }
    return { status: 404, body: { message: '404 Not Found' } };
  }
}
