import type { Logger } from '@nestjs/common';
import type { SchedulerRegistry } from '@nestjs/schedule';

export interface RepeatingPassOptions {
  /** The interval's name in the SchedulerRegistry, e.g. `monitor-schedule`. */
  name: string;
  /** Completes "could not …" in the log when a pass fails. */
  what: string;
  everyMs: number;
}

/**
 * Background work on an interval of the SchedulerRegistry. A pass still under way when the interval fires is not
 * joined by a second one; a failed pass is logged for the next one to try again. `stop()` ends the interval, aborts
 * the pass's signal and waits for the pass: an application stops its passes in `beforeApplicationShutdown`, so no
 * pass is left half done against a database or queue that is closing. A pass of many steps (sends, batches) checks
 * the signal between them, so that wait is one step, not the rest of the pass.
 */
export class RepeatingPass {
  private running: Promise<void> | null = null;
  private readonly stopping = new AbortController();

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly logger: Logger,
    private readonly options: RepeatingPassOptions,
    private readonly pass: (stopping: AbortSignal) => Promise<unknown>,
  ) {}

  start(): void {
    this.registry.addInterval(
      this.options.name,
      setInterval(() => void this.run(), this.options.everyMs),
    );
  }

  async stop(): Promise<void> {
    if (this.registry.doesExist('interval', this.options.name)) this.registry.deleteInterval(this.options.name);
    this.stopping.abort();
    await this.running;
  }

  private run(): Promise<void> {
    this.running ??= this.pass(this.stopping.signal)
      .then(
        () => undefined,
        (error: unknown) =>
          this.logger.warn({ err: error }, `could not ${this.options.what}; the next pass tries again`),
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
