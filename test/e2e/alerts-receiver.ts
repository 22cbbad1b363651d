import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns something other than undefined, or fails after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it was answered with; undefined while it is held, or if its sender went away first. */
  status?: number;
}

/** How a receiver answers a request: with a status, or not yet (`hold`, until `release`). */
export type Answer = number | 'hold';

/**
 * A local webhook receiver: records every request and answers per path, by default 200. A path can answer with
 * queued statuses (`answer`), or as a rule decides (`answerWith`), which may hold requests unanswered until
 * `release`. It counts the requests each path has open at once.
 */
export class Receiver {
  readonly requests: Received[] = [];
  private readonly answers = new Map<string, number[]>();
  private readonly rules = new Map<string, (received: Received) => Answer>();
  private readonly held = new Map<Received, ServerResponse>();
  private readonly open = new Map<string, number>();
  private readonly mostOpen = new Map<string, number>();
  private server?: Server;
  origin = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      let body = '';
      const path = request.url ?? '/';
      this.opened(path, +1);
      response.on('close', () => this.opened(path, -1));
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const received: Received = { path, headers: request.headers, body };
        this.requests.push(received);
        const answer = this.rules.get(path)?.(received) ?? this.answers.get(path)?.shift() ?? 200;
        if (answer === 'hold') {
          this.held.set(received, response);
          response.on('close', () => this.held.delete(received));
        } else {
          this.reply(received, response, answer);
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The path answers with these statuses, one per request, then 200. */
  answer(path: string, ...statuses: number[]): void {
    this.answers.set(path, statuses);
  }

  /** Each request to the path is answered as `rule` says. */
  answerWith(path: string, rule: (received: Received) => Answer): void {
    this.rules.set(path, rule);
  }

  /** Answers the held requests to the path with 200. */
  release(path: string): void {
    for (const [received, response] of this.held) if (received.path === path) this.reply(received, response, 200);
  }

  at(path: string): Received[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** The requests to the path answered 2xx: its deliveries. */
  delivered(path: string): Received[] {
    return this.at(path).filter((request) => request.status !== undefined && request.status < 300);
  }

  /** The requests to the path open now: received, not yet answered. */
  openAt(path: string): number {
    return this.open.get(path) ?? 0;
  }

  /** The most requests the path has had open at once. */
  mostOpenAt(path: string): number {
    return this.mostOpen.get(path) ?? 0;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private reply(received: Received, response: ServerResponse, status: number): void {
    this.held.delete(received);
    received.status = status;
    response.writeHead(status, { 'Content-Type': 'text/plain' }).end(`answered ${status}`);
  }

  private opened(path: string, change: number): void {
    const now = (this.open.get(path) ?? 0) + change;
    this.open.set(path, now);
    this.mostOpen.set(path, Math.max(now, this.mostOpen.get(path) ?? 0));
  }
}
