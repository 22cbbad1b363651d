import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { type DeliveryAttemptJob, JOBS, QUEUES } from '../queues/jobs';
import { DeliveryRunner } from './delivery-runner';

/** Attempts at once per worker process: they mostly wait on receivers. */
const DELIVERY_CONCURRENCY = 20;
/** How often the relay looks for committed events: the delay between a state change and its first send. */
const RELAY_INTERVAL_MS = 200;
const LOST_SWEEP_INTERVAL_MS = 30_000;

/** In worker processes: the outbox relay's loop, the delivery queue, and the sweep for lost attempts. */
@Injectable()
export class AlertsProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AlertsProcessor.name);
  private relayTimer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;
  private stopping = false;

  constructor(
    @InjectQueue(QUEUES.deliveries) private readonly queue: Queue,
    private readonly runner: DeliveryRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.queue
      .process(JOBS.attemptDelivery, DELIVERY_CONCURRENCY, (job: Job<DeliveryAttemptJob>) =>
        this.runner.attempt(job.data),
      )
      .catch((error: unknown) => this.logger.warn({ err: error }, 'deliveries stopped'));
    this.scheduleRelay();
    this.sweepTimer = setInterval(() => void this.sweep(), LOST_SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.relayTimer);
    clearInterval(this.sweepTimer);
    await this.queue.close();
  }

  /** Relays until the outbox is empty, then waits a moment; never two relays at once in one process. */
  private scheduleRelay(): void {
    if (this.stopping) return;
    this.relayTimer = setTimeout(() => {
      void (async () => {
        try {
          while (!this.stopping && (await this.runner.relay()) > 0);
        } catch (error) {
          this.logger.warn({ err: error }, 'could not relay events yet');
        }
        this.scheduleRelay();
      })();
    }, RELAY_INTERVAL_MS);
    this.relayTimer.unref();
  }

  private async sweep(): Promise<void> {
    try {
      const requeued = await this.runner.requeueLost();
      if (requeued) this.logger.log(`queued ${requeued} lost delivery attempt(s) again`);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not look for lost deliveries');
    }
  }
}
