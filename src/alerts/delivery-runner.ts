import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { type AttemptRecord, type ClaimedDelivery, DeliveryClaims } from './delivery-claims';
import { DeliverySender, type SendOutcome } from './delivery-sender';
import type { DeliveryStatus } from './entities/webhook-delivery.entity';

/** Deliveries claimed per statement; a fill repeats while claims come back full. */
const CLAIM_BATCH = 500;
/** Attempts recorded per statement. */
const RECORD_BATCH = 500;
/**
 * Claims start at least this far apart, and so do records. Attempts end one by one, and a statement (and a commit)
 * for each would cost more than the attempt; waiting a little lets one claim or record take many. A claim takes at
 * most DELIVERY_DESTINATION_CONCURRENCY deliveries of a destination, so the gap also bounds one destination's rate
 * (25 every 10 ms: 2,500 a second per worker process).
 */
const CLAIM_GAP_MS = 10;
const RECORD_GAP_MS = 20;
/** After the database refused to record, the next try waits this long (the claims are renewed meanwhile). */
const RECORD_RETRY_MS = 1000;
/** At shutdown, attempts in flight get this long to end and be recorded (a send gives up after 15 s). */
const DRAIN_TIMEOUT_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** A finished attempt waiting to be recorded, and the destination to disable if its receiver answered 410. */
interface Finished {
  record: AttemptRecord;
  gone: string | null;
}

/**
 * Attempts deliveries in a worker process. Two limits keep destinations apart:
 * - DELIVERY_CONCURRENCY (500) attempts at once in all. They are I/O-bound (a socket and a few KB each while the
 *   receiver thinks), so the total is high: an attempt costs the same CPU at any concurrency.
 * - DELIVERY_DESTINATION_CONCURRENCY (25) of them at most to any one destination. A receiver that answers after a
 *   second, or never (a send gives up after 15 s), holds at most 25 slots: it would take 20 such receivers at once to
 *   make the others wait, and a receiver answering in a second still gets 25 deliveries a second.
 * Each claim reads every destination's due deliveries separately, so a backlog at one never stands in front of
 * another's, as it would in one first-in, first-out queue; a failing receiver's retries wait in the table until they
 * are due, holding no slot.
 *
 * Attempts are claimed from PostgreSQL (DeliveryClaims); a claim is renewed until the attempt's outcome is recorded,
 * in batches. A worker that dies mid-attempt leaves claims that lapse after JOB_LOCK_MS, and another worker makes
 * those attempts again, with the same `webhook-id`.
 */
@Injectable()
export class DeliveryRunner {
  private readonly logger = new Logger(DeliveryRunner.name);
  /** This process's name on its claims. */
  private readonly worker = randomUUID();
  /** Attempts in flight, per destination and in all. */
  private readonly busy = new Map<string, number>();
  private inFlight = 0;
  /** Deliveries this process has claimed and not yet recorded: its claims to renew. */
  private readonly held = new Set<string>();
  private readonly finished: Finished[] = [];
  private filling?: Promise<void>;
  private fillAgain = false;
  private lastClaimAt = 0;
  private recording?: Promise<void>;
  private lastRecordAt = 0;
  private stopped = false;
  /** The soonest time a retry this process recorded falls due (ms since the epoch), and its timer. */
  private dueAt = Infinity;
  private dueTimer?: NodeJS.Timeout;

  constructor(
    private readonly claims: DeliveryClaims,
    private readonly sender: DeliverySender,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Claims due attempts soon, without waiting for them (relayed deliveries, freed slots, lanes unblocked). */
  wake(): void {
    this.fill().catch((error: unknown) => this.logger.warn({ err: error }, 'could not claim deliveries yet'));
  }

  /** Claims and starts due attempts; a call made while a fill runs makes it go round once more. */
  private fill(): Promise<void> {
    if (this.filling) {
      this.fillAgain = true;
      return this.filling;
    }
    this.filling = this.fillSlots().finally(() => (this.filling = undefined));
    return this.filling;
  }

  /** Claims until the slots are full or nothing more is due, and again while asked to: under load, on and on. */
  private async fillSlots(): Promise<void> {
    do {
      this.fillAgain = false;
      await sleep(this.lastClaimAt + CLAIM_GAP_MS - performance.now());
      const wanted = Math.min(CLAIM_BATCH, this.config.deliveryConcurrency - this.inFlight);
      if (this.stopped || wanted <= 0) return;
      this.lastClaimAt = performance.now();
      const claimed = await this.claims.claim(
        this.worker,
        wanted,
        this.config.deliveryDestinationConcurrency,
        this.busy,
        this.config.jobLockMs,
      );
      this.start(claimed);
      // A full claim may have left more behind; a short one took all that is due and allowed.
      if (claimed.length === wanted) this.fillAgain = true;
    } while (this.fillAgain);
  }

  /** Extends the claims this process holds, so no other worker takes them while they are attempted. */
  async renew(): Promise<void> {
    if (this.held.size) await this.claims.renew(this.worker, [...this.held], this.config.jobLockMs);
  }

  /** Stops claiming and waits (a while) for the attempts in flight to end and be recorded. */
  async drain(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.dueTimer);
    await this.filling?.catch(() => undefined);
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (this.held.size && Date.now() < deadline) await sleep(50);
    if (this.held.size) this.logger.warn(`stopped with ${this.held.size} attempt(s) unrecorded; they will be retried`);
  }

  /**
   * Claims again when a retry falls due: the worker that recorded it is the likeliest to be idle. Only the soonest is
   * kept (the claim then takes all that are due); a later one left behind waits for the poll (AlertsProcessor).
   */
  private wakeAt(time: number): void {
    if (this.stopped || time >= this.dueAt) return;
    clearTimeout(this.dueTimer);
    this.dueAt = time;
    this.dueTimer = setTimeout(
      () => {
        this.dueAt = Infinity;
        this.wake();
      },
      Math.max(0, time - Date.now()),
    );
    this.dueTimer.unref();
  }

  private start(claimed: ClaimedDelivery[]): void {
    for (const delivery of claimed) {
      this.held.add(delivery.id);
      this.busy.set(delivery.destination.id, (this.busy.get(delivery.destination.id) ?? 0) + 1);
      this.inFlight += 1;
      void this.attempt(delivery);
    }
  }

  /** One attempt, then its outcome joins the records to write. */
  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const { destination } = delivery;
    try {
      const outcome = destination.enabled ? await this.sender.send(destination, delivery.event) : null;
      this.finished.push({
        record: recordOf(delivery, outcome, this.config.deliveryRetryDelaysMs),
        gone: outcome?.gone ? destination.id : null,
      });
    } catch (error) {
      // Not the receiver's failure but ours: the claim lapses and the attempt is made again.
      this.held.delete(delivery.id);
      this.logger.warn({ err: error }, `delivery ${delivery.id}: the attempt failed; it will be made again`);
    } finally {
      const busy = (this.busy.get(destination.id) ?? 1) - 1;
      if (busy) this.busy.set(destination.id, busy);
      else this.busy.delete(destination.id);
      this.inFlight -= 1;
    }
    void this.record();
    this.wake();
  }

  /** Writes finished attempts in batches, one batch at a time. */
  private record(): Promise<void> {
    this.recording ??= this.recordFinished().finally(() => (this.recording = undefined));
    return this.recording;
  }

  private async recordFinished(): Promise<void> {
    while (this.finished.length) {
      await sleep(this.lastRecordAt + RECORD_GAP_MS - performance.now());
      this.lastRecordAt = performance.now();
      const batch = this.finished.splice(0, RECORD_BATCH);
      try {
        const recorded = await this.claims.record(
          this.worker,
          batch.map((finished) => finished.record),
          new Set(batch.flatMap((finished) => (finished.gone ? [finished.gone] : []))),
        );
        for (const status of recorded) if (status !== 'pending') this.metrics.deliveryRecorded(status);
      } catch (error) {
        this.finished.unshift(...batch);
        this.logger.warn({ err: error }, 'could not record delivery attempts yet');
        setTimeout(() => void this.record(), RECORD_RETRY_MS).unref();
        return;
      }
      for (const { record } of batch) {
        this.held.delete(record.id);
        if (record.nextAttemptAt) this.wakeAt(record.nextAttemptAt.getTime());
      }
      // The deliveries that waited for these in their lanes can go now.
      this.wake();
    }
  }
}

/**
 * The delivery's state after an attempt: succeeded (2xx), failed for good (410 Gone, the destination disabled, or the
 * retries spent), or retrying after the next back-off with ±20% jitter, so many retries do not land at once.
 */
function recordOf(delivery: ClaimedDelivery, outcome: SendOutcome | null, retryDelaysMs: number[]): AttemptRecord {
  const attempt = outcome?.attempt ?? {
    at: new Date().toISOString(),
    response_status: null,
    duration_ms: 0,
    error: 'not sent: the destination is disabled',
    response_body: null,
  };
  const base = {
    id: delivery.id,
    attemptsMade: delivery.attemptsMade,
    lane: delivery.lane,
    eventSeq: delivery.eventSeq,
    attempt,
    request: outcome?.request ?? null,
  };
  const done = (status: DeliveryStatus): AttemptRecord => ({ ...base, status, nextAttemptAt: null });
  if (!outcome || outcome.gone) return done('failed');
  if (outcome.delivered) return done('succeeded');
  const delay = retryDelaysMs[delivery.attemptsMade];
  if (delay === undefined) return done('failed');
  const withJitter = Math.round(delay * (0.8 + Math.random() * 0.4));
  return { ...base, status: 'retrying', nextAttemptAt: new Date(Date.now() + withJitter) };
}
