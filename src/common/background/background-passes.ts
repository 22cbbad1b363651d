import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { RepeatingPass, type RepeatingPassOptions } from './repeating-pass';

/**
 * The process's background passes, in one place: each starts once the application has bootstrapped and is stopped
 * in `beforeApplicationShutdown`, waiting for the pass under way, so none is left half done against a database or
 * queue that is closing. A service that must do more once its pass is over (a last flush, a drain) stops the pass
 * itself first: stopping twice is harmless.
 */
@Injectable()
export class BackgroundPasses implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly passes: RepeatingPass[] = [];

  constructor(private readonly registry: SchedulerRegistry) {}

  /** Runs `pass` every `options.everyMs` from bootstrap until shutdown; a failed pass is logged through `logger`. */
  every(
    logger: Logger,
    options: RepeatingPassOptions,
    pass: (stopping: AbortSignal) => Promise<unknown>,
  ): RepeatingPass {
    const repeating = new RepeatingPass(this.registry, logger, options, pass);
    this.passes.push(repeating);
    return repeating;
  }

  onApplicationBootstrap(): void {
    for (const pass of this.passes) pass.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.passes.map((pass) => pass.stop()));
  }
}
