import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A site on 127.0.0.1 that can hold the first requests of some pages unanswered, so a capture stays in flight. */
export class HoldingSite {
  private readonly pages = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private readonly held: ServerResponse[] = [];
  private holding = new Set<string>();
  private onArrival: (() => void) | null = null;
  private server?: Server;
  origin = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
      if (this.holding.has(path)) {
        this.holding.delete(path);
        this.held.push(response);
        if (this.holding.size === 0) this.onArrival?.();
        return;
      }
      this.answer(path, response);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  set(path: string, html: string): void {
    this.pages.set(path, html);
  }

  /** Holds the next request of each path; resolves once all of them have arrived. */
  hold(paths: string[]): Promise<void> {
    this.holding = new Set(paths);
    return new Promise((resolve) => (this.onArrival = resolve));
  }

  /** Answers what was held (whoever still listens) and stops holding. */
  release(): void {
    this.holding.clear();
    for (const response of this.held.splice(0)) {
      const path = response.req.url ?? '/';
      if (!response.destroyed) this.answer(path.split('?')[0], response);
    }
  }

  requests(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private answer(path: string, response: ServerResponse): void {
    const html = this.pages.get(path);
    if (html === undefined) response.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not found</h1>');
    else response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  }
}
