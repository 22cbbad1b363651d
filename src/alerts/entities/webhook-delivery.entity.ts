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

/** One event sent to one destination, with every attempt. A redelivery is a new delivery of the same event. */
@Entity({ tableName: 'webhook_deliveries' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'createdAt'] })
@Index({ properties: ['destination', 'createdAt'] })
@Index({ properties: ['event'] })
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

  @Property({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null = null;

  /** The last request sent (headers with the signature, never the secret), for the log. */
  @Property({ type: 'json', nullable: true })
  request: DeliveryRequest | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
