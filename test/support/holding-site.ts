import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathOf, TestSite } from './test-site';

/** A test site that can hold the first requests of some pages unanswered, so a capture stays in flight. */
export class HoldingSite extends TestSite {
  private readonly counts = new Map<string, number>();
  private readonly held: Array<{ request: IncomingMessage; response: ServerResponse }> = [];
  private holding = new Set<string>();
  private onArrival: (() => void) | null = null;

  /** Holds the next request of each path; resolves once all of them have arrived. */
  hold(paths: string[]): Promise<void> {
    this.holding = new Set(paths);
    return new Promise((resolve) => (this.onArrival = resolve));
  }

  /** Answers what was held (whoever still listens) and stops holding. */
  release(): void {
    this.holding.clear();
    for (const { request, response } of this.held.splice(0)) {
      if (!response.destroyed) super.handle(request, response);
    }
  }

  requests(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  protected override handle(request: IncomingMessage, response: ServerResponse): void {
    const path = pathOf(request);
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
    if (!this.holding.delete(path)) return super.handle(request, response);
    this.held.push({ request, response });
    if (this.holding.size === 0) this.onArrival?.();
  }
}
