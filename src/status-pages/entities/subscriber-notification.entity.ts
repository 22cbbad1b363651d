import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import type { PublicIncidentDto, PublicMaintenanceDto } from '../dto/status-pages.dto';
import { StatusPageSubscriber } from './status-page-subscriber.entity';

export const NOTIFICATION_KINDS = [
  'confirmation',
  'incident.updated',
  'maintenance.started',
  'maintenance.ended',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export type NotificationStatus = 'pending' | 'sent' | 'failed';

/** What a notification tells, as it was when it was written (a later change tells its own). */
export interface NotificationContent {
  page: { title: string; slug: string };
  incident: PublicIncidentDto | null;
  maintenance: PublicMaintenanceDto | null;
}

/**
 * The subscribers' outbox: a notification is written in the transaction of the change it tells (an incident's update,
 * a maintenance starting or ending, a subscription to confirm) and sent after commit by the notifier, with retries.
 */
@Entity({ tableName: 'subscriber_notifications' })
@WorkspaceScoped()
// The notifier's scan: notifications due to be sent.
@Index({
  name: 'subscriber_notifications_due_index',
  expression:
    'create index "subscriber_notifications_due_index" on "subscriber_notifications" ("next_attempt_at") where "status" = \'pending\'',
})
export class SubscriberNotification {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  @ManyToOne(() => StatusPageSubscriber, { deleteRule: 'cascade' })
  subscriber: StatusPageSubscriber;

  @Property({ type: 'text' })
  kind: NotificationKind;

  @Property({ type: 'json' })
  content: NotificationContent;

  @Property({ type: 'text' })
  status: NotificationStatus & Opt = 'pending';

  @Property({ type: 'integer' })
  attempts: number & Opt = 0;

  /** When it is due: now, after a failed attempt later, and while an attempt runs, when its claim lapses. */
  @Property({ type: 'timestamptz' })
  nextAttemptAt: Date & Opt = new Date();

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  sentAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
