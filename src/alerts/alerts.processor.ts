import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { BackgroundPasses } from '../common/background/background-passes';
import type { RepeatingPass } from '../common/background/repeating-pass';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DeliveryRunner } from './delivery-runner';
import { EventNotifications } from './event-notifications';
import { OutboxRelay, RELAY_BATCH } from './outbox-relay';

/**
 * How often a worker relays and claims without being told to: committed events wake it at once (EventNotifications),
 * and so do its own finished attempts and due retries (DeliveryRunner); this poll catches what no notification told,
 * such as a claim that lapsed in a worker that died, at most this late.
 */
const POLL_MS = 1_000;

/** In worker processes: relays the outbox and keeps the delivery runner's slots full, and renews its claims. */
@Injectable()
export class AlertsProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AlertsProcessor.name);
  private stopping = false;
  private pollTimer?: NodeJS.Timeout;
  private readonly renewal: RepeatingPass;
  private relaying: Promise<void> | null = null;
  private relayAgain = false;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly runner: DeliveryRunner,
    private readonly notifications: EventNotifications,
    @Inject(APP_CONFIG) config: AppConfig,
    passes: BackgroundPasses,
  ) {
    // At half the claims' length, as Bull renews its job locks.
    this.renewal = passes.every(
      this.logger,
      { name: 'delivery-claim-renewal', what: 'renew delivery claims', everyMs: config.jobLockMs / 2 },
      () => this.runner.renew(),
    );
  }

  onApplicationBootstrap(): void {
    this.relayNow();
    // And again once listening, for events committed while the connection was being made (or made again).
    this.notifications.listen(() => this.relayNow());
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.pollTimer);
    await Promise.all([this.notifications.stop(), this.relaying, this.renewal.stop()]);
    await this.runner.drain();
  }

  /** Relays and claims now, or once more right after the pass under way (events it may not have seen). */
  private relayNow(): void {
    if (this.stopping) return;
    if (this.relaying) {
      this.relayAgain = true;
      return;
    }
    clearTimeout(this.pollTimer);
    this.relaying = this.relayAndClaim()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not relay and claim deliveries yet'))
      .finally(() => {
        this.relaying = null;
        if (this.relayAgain) {
          this.relayAgain = false;
          this.relayNow();
        } else if (!this.stopping) {
          this.pollTimer = setTimeout(() => this.relayNow(), POLL_MS);
          this.pollTimer.unref();
        }
      });
  }

  /** Relays until the outbox is empty, then has what is due claimed (relayed deliveries are due at once). */
  private async relayAndClaim(): Promise<void> {
    while (!this.stopping && (await this.relay.relay()).events === RELAY_BATCH);
    this.runner.wake();
  }
}
