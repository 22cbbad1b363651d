import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Milliseconds before answering. */
  delayMs?: number;
}

type Route = Answer | ((request: IncomingMessage, hits: number) => Answer);

export interface LoggedRequest {
  path: string;
  startedAt: number;
  userAgent: string;
}

/**
 * A website for crawls on 127.0.0.1: each path answers what the test set (any status, headers and body), unknown
 * paths answer 404. It logs every request and the most requests it had in flight at once, to check politeness.
 */
export class CrawlSite {
  readonly requests: LoggedRequest[] = [];
  maxInFlight = 0;
  origin = '';
  private readonly routes = new Map<string, Route>();
  private readonly hits = new Map<string, number>();
  private inFlight = 0;
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.answer(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  set(path: string, route: Route): this {
    this.routes.set(path, route);
    return this;
  }

  /** An HTML page with a title, links and extra head markup. */
  page(path: string, options: { title?: string; links?: string[]; head?: string } = {}): this {
    const links = (options.links ?? []).map((href) => `<a href="${href}">${href}</a>`).join('\n');
    const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${options.title ?? path}</title>${
      options.head ?? ''
    }</head><body><main>${links}</main></body></html>`;
    return this.set(path, { headers: { 'content-type': 'text/html; charset=utf-8' }, body });
  }

  paths(): string[] {
    return this.requests.map((request) => request.path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? '/';
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.requests.push({ path, startedAt: Date.now(), userAgent: request.headers['user-agent'] ?? '' });
    const hits = (this.hits.get(path) ?? 0) + 1;
    this.hits.set(path, hits);
    const route = this.routes.get(path);
    const answer: Answer =
      route === undefined
        ? { status: 404, body: 'not found' }
        : typeof route === 'function'
          ? route(request, hits)
          : route;
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    response.on('close', () => (this.inFlight -= 1));
    response.writeHead(answer.status ?? 200, answer.headers ?? {}).end(answer.body ?? '');
  }
}
