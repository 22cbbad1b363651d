import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { OutboxEvent } from '../../events/event.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { AlertDestination } from './alert-destination.entity';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'retrying', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryAttempt {
  at: string;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  /** The first 4 KiB of the answer. */
  response_body: string | null;
}

export interface DeliveryRequest {
  headers: Record<string, string>;
  body: string;
}

/**
 * One event sent to one destination, with every attempt. A redelivery is a new delivery of the same event. Worker
 * processes take due deliveries by claiming them for a while (`claimedBy`, `claimedUntil`), so a claim whose worker
 * died expires and another worker takes the delivery.
 */
@Entity({ tableName: 'webhook_deliveries' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'createdAt'] })
@Index({ properties: ['destination', 'createdAt'] })
@Index({ properties: ['event'] })
// The claim's scan: each destination's unfinished deliveries, soonest due first.
@Index({
  name: 'webhook_deliveries_due_index',
  expression:
    'create index "webhook_deliveries_due_index" on "webhook_deliveries" ("destination_id", "next_attempt_at") ' +
    `where "status" in ('pending', 'retrying')`,
})
// The claim's order check: the first unfinished delivery of a lane. Its own column leads, so no other index can serve
// the lookup, whatever the planner's statistics say of a table that changes this fast.
@Index({
  name: 'webhook_deliveries_lane_index',
  expression:
    'create index "webhook_deliveries_lane_index" on "webhook_deliveries" ("lane", "event_seq") ' +
    `where "status" in ('pending', 'retrying') and "lane" is not null`,
})
export class WebhookDelivery {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  @ManyToOne(() => OutboxEvent, { deleteRule: 'cascade' })
  event: OutboxEvent;

  @ManyToOne(() => AlertDestination, { deleteRule: 'cascade' })
  destination: AlertDestination;

  @Property({ type: 'text' })
  status: DeliveryStatus & Opt = 'pending';

  @Property({ type: 'json' })
  attempts: DeliveryAttempt[] & Opt = [];

  /** When the next attempt is due; null once the delivery has succeeded or failed for good. */
  @Property({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null = new Date();

  /** The event's `seq`: the delivery's place in its lane. */
  @Property({ type: 'bigint' })
  eventSeq: string;

  /**
   * The destination and the event's ordering key (`<destination id>:<key>`), or null: deliveries of one lane are
   * attempted one at a time, in event order; a delivery waits while an earlier one of its lane is unfinished.
   */
  @Property({ type: 'text', nullable: true })
  lane: string | null = null;

  /** The worker process attempting it now; the claim lapses at `claimedUntil` unless that worker renews it. */
  @Property({ type: 'uuid', nullable: true })
  claimedBy: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  claimedUntil: Date | null = null;

  /** The last request sent (headers with the signature, never the secret), for the log. */
  @Property({ type: 'json', nullable: true })
  request: DeliveryRequest | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
