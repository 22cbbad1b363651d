import { InjectQueue } from '@nestjs/bull';
import { LockMode } from '@mikro-orm/core';
import { type EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { acrossWorkspaces } from '../common/tenancy/workspace-scope';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { OutboxEvent } from '../events/event.entity';
import { type DeliveryAttemptJob, deliveryJobOptions, JOBS, QUEUES } from '../queues/jobs';
import { DeliverySender, type EventPayload } from './delivery-sender';
import { AlertDestination } from './entities/alert-destination.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';

const RELAY_BATCH = 200;
/** A pending delivery with no attempt this long after it was due has lost its job (a crash); it is queued again. */
const LOST_AFTER_MS = 30_000;

export function payloadOf(event: OutboxEvent): EventPayload {
  return {
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    workspace_id: event.workspace.id,
    data: event.data,
  };
}

/**
 * Delivers the outbox. The relay turns committed events into deliveries (one per destination: the rule's and the
 * workspace's subscribers of that type) and queues each one's first attempt. An attempt sends once and records what
 * happened; a failure queues the next attempt after the back-off, until the last. Both are safe to run twice.
 */
@Injectable()
export class DeliveryRunner {
  private readonly logger = new Logger(DeliveryRunner.name);

  constructor(
    private readonly orm: MikroORM,
    private readonly sender: DeliverySender,
    @InjectQueue(QUEUES.deliveries) private readonly queue: Queue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Fans out the oldest unrelayed events (several relays share the work: rows are taken with SKIP LOCKED). */
  async relay(): Promise<number> {
    const created = await acrossWorkspaces(this.orm.em).transactional(async (em) => {
      const events = await em.find(
        OutboxEvent,
        { relayedAt: null },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit: RELAY_BATCH, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
      );
      const deliveries: WebhookDelivery[] = [];
      for (const event of events) {
        const destinations = await em.find(AlertDestination, {
          workspace: event.workspace,
          enabled: true,
          $or: [{ id: { $in: event.destinationIds } }, { events: { $contains: [event.type] } }],
        });
        for (const destination of destinations) {
          deliveries.push(em.create(WebhookDelivery, { workspace: event.workspace, event, destination }));
        }
        event.relayedAt = new Date();
      }
      return deliveries;
    });
    // After the commit: a crash here leaves deliveries without a job, which `requeueLost` finds.
    await Promise.all(created.map((delivery) => this.enqueue({ deliveryId: delivery.id, attempt: 1 })));
    return created.length;
  }

  /** Queues again the attempts that were due a while ago and never ran (their job was lost). */
  async requeueLost(): Promise<number> {
    const em = acrossWorkspaces(this.orm.em);
    const cutoff = new Date(Date.now() - LOST_AFTER_MS);
    const lost = await em.find(
      WebhookDelivery,
      {
        status: { $in: ['pending', 'retrying'] },
        $or: [{ nextAttemptAt: { $lt: cutoff } }, { nextAttemptAt: null, createdAt: { $lt: cutoff } }],
      },
      { fields: ['id', 'attempts'], limit: 500 },
    );
    await Promise.all(
      lost.map((delivery) => this.enqueue({ deliveryId: delivery.id, attempt: delivery.attempts.length + 1 })),
    );
    return lost.length;
  }

  async enqueue(job: DeliveryAttemptJob, delayMs = 0): Promise<void> {
    await this.queue.add(JOBS.attemptDelivery, job, deliveryJobOptions(job, delayMs));
  }

  /** One attempt; its result is recorded under the delivery's row lock, so a duplicate job records nothing. */
  async attempt(job: DeliveryAttemptJob): Promise<void> {
    const em = acrossWorkspaces(this.orm.em);
    const delivery = await em.findOne(WebhookDelivery, { id: job.deliveryId }, { populate: ['event', 'destination'] });
    if (!delivery || delivery.attempts.length + 1 !== job.attempt) return;
    if (delivery.status === 'succeeded' || delivery.status === 'failed') return;
    const outcome = delivery.destination.enabled
      ? await this.sender.send(delivery.destination, payloadOf(delivery.event))
      : null;
    const next = await em.transactional(async (tx) => {
      const locked = await tx.findOneOrFail(
        WebhookDelivery,
        { id: delivery.id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (locked.attempts.length + 1 !== job.attempt) return null;
      if (!outcome) {
        const notSent = { at: new Date().toISOString(), response_status: null, duration_ms: 0, response_body: null };
        locked.attempts = [...locked.attempts, { ...notSent, error: 'not sent: the destination is disabled' }];
        locked.status = 'failed';
        locked.nextAttemptAt = null;
        return null;
      }
      locked.attempts = [...locked.attempts, outcome.attempt];
      locked.request = outcome.request;
      if (outcome.delivered) {
        locked.status = 'succeeded';
        locked.nextAttemptAt = null;
        return null;
      }
      if (outcome.gone) {
        locked.status = 'failed';
        locked.nextAttemptAt = null;
        await this.disable(tx, delivery.destination.id);
        return null;
      }
      const delay = this.config.deliveryRetryDelaysMs[job.attempt - 1];
      if (delay === undefined) {
        locked.status = 'failed';
        locked.nextAttemptAt = null;
        return null;
      }
      const withJitter = Math.round(delay * (0.8 + Math.random() * 0.4));
      locked.status = 'retrying';
      locked.nextAttemptAt = new Date(Date.now() + withJitter);
      return withJitter;
    });
    if (next !== null) await this.enqueue({ deliveryId: delivery.id, attempt: job.attempt + 1 }, next);
  }

  /** A receiver that answered 410 Gone wants nothing more: the destination is disabled until someone enables it. */
  private async disable(em: EntityManager, destinationId: string): Promise<void> {
    const destination = await em.findOneOrFail(AlertDestination, { id: destinationId });
    destination.enabled = false;
    destination.disabledReason = `The receiver answered 410 Gone at ${new Date().toISOString()}.`;
    this.logger.warn(`destination ${destinationId} disabled: its receiver answered 410 Gone`);
  }
}
