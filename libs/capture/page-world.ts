import type { CDPSession, Page } from 'playwright-core';

/** The capture's isolated world: it shares the page's DOM, not its globals, and the page's CSP does not apply. */
const WORLD_NAME = 'vigil';

/**
 * What Chromium answers when asked to run something in a context whose document is gone, or whose document went
 * away while it ran (the page navigated itself during the call).
 */
const STALE_CONTEXT =
  /Cannot find context with specified id|Cannot find default execution context|Inspected target navigated or closed/;

/** A function run in the page (serialized, so it may use browser globals only), with its one argument. */
type InPage<A, R> = (arg: A) => R | Promise<R>;

/** The function's own error inside the page, as opposed to the protocol failing to reach the world. */
export class InPageError extends Error {
  override readonly name = 'InPageError';
}

/**
 * One isolated world in a page's main frame, reached through a DevTools session of the capture's own: reading the
 * page, preparing the screenshot and running axe-core all happen there, with one protocol round trip each and
 * beyond the reach of whatever the page did to its own globals (a replaced `document.querySelector`, `Promise`).
 * Chromium keeps one world per name and document, so asking again returns the same one; when the page replaced its
 * document (it navigated itself while settling), the next call makes the world again in the new one.
 */
export class PageWorld {
  private current: Promise<number> | null = null;
  private currentId: number | null = null;

  private constructor(readonly session: CDPSession) {}

  static async open(page: Page): Promise<PageWorld> {
    return new PageWorld(await page.context().newCDPSession(page));
  }

  /** The world's execution context in the main frame's current document. */
  contextId(): Promise<number> {
    this.current ??= this.create().then(
      (id) => {
        this.currentId = id;
        return id;
      },
      (error: unknown) => {
        this.current = null;
        throw error;
      },
    );
    return this.current;
  }

  /**
   * Runs `fn(arg)` in the world and returns its (JSON) value, awaiting a returned promise. A world whose document
   * went away before the call is made again in the current document, once.
   */
  evaluate<A, R>(fn: InPage<A, R>, arg: A): Promise<R> {
    return this.run(`(${fn.toString()})(${JSON.stringify(arg) ?? 'undefined'})`);
  }

  /** Runs `expression` in the world (see evaluate); `contextId` pins it to that context, with no second try. */
  async run<R>(expression: string, contextId?: number): Promise<R> {
    for (let attempt = 1; ; attempt++) {
      const id = contextId ?? (await this.contextId());
      try {
        const { result, exceptionDetails } = await this.session.send('Runtime.evaluate', {
          expression,
          contextId: id,
          awaitPromise: true,
          returnByValue: true,
          silent: true,
        });
        if (exceptionDetails) {
          throw new InPageError(exceptionDetails.exception?.description ?? exceptionDetails.text);
        }
        return result.value as R;
      } catch (error) {
        if (contextId !== undefined || attempt > 1 || !isStaleContext(error)) throw error;
        this.forget(id);
      }
    }
  }

  /** Forgets the context `id` (its document is gone), so the next call makes the world in the current document. */
  forget(id: number): void {
    if (this.currentId !== id) return;
    this.current = null;
    this.currentId = null;
  }

  /** Lets go of the DevTools session (closing the page does too). */
  dispose(): void {
    this.session.detach().catch(() => undefined);
  }

  private async create(): Promise<number> {
    const { frameTree } = await this.session.send('Page.getFrameTree');
    const { executionContextId } = await this.session.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: WORLD_NAME,
    });
    return executionContextId;
  }
}

export function isStaleContext(error: unknown): boolean {
  return error instanceof Error && STALE_CONTEXT.test(error.message);
}
