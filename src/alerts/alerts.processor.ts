import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DeliveryRunner } from './delivery-runner';
import { OutboxRelay, RELAY_BATCH } from './outbox-relay';

/**
 * How often a worker looks for committed events and due deliveries when it has nothing to do: most of the delay
 * between a state change and its first send, and of a retry after it is due.
 */
const TICK_MS = 100;

/** In worker processes: relays the outbox and keeps the delivery runner's slots full, and renews its claims. */
@Injectable()
export class AlertsProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AlertsProcessor.name);
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopping = false;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly runner: DeliveryRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.repeat('relay and claim deliveries', TICK_MS, () => this.tick());
    // Renewed at half the claim's length, as Bull renews its job locks.
    this.repeat('renew delivery claims', this.config.jobLockMs / 2, () => this.runner.renew());
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    await this.runner.drain();
  }

  /** Relays until the outbox is empty, then has what is due claimed (relayed deliveries are due at once). */
  private async tick(): Promise<void> {
    while (!this.stopping && (await this.relay.relay()).events === RELAY_BATCH);
    this.runner.wake();
  }

  /** Runs `work` every `intervalMs` after the last run ended, so never two at once; a failure waits for the next. */
  private repeat(what: string, intervalMs: number, work: () => Promise<void>): void {
    const schedule = () => {
      if (this.stopping) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void work()
          .catch((error: unknown) => this.logger.warn({ err: error }, `could not ${what} yet`))
          .finally(schedule);
      }, intervalMs);
      timer.unref();
      this.timers.add(timer);
    };
    schedule();
  }
}
