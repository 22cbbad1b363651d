import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../common/tenancy/workspace-scope';
import { Workspace } from '../workspaces/entities/workspace.entity';

export const EVENT_TYPES = [
  'monitor.down',
  'monitor.recovered',
  'change.detected',
  'value.changed',
  'release_check.started',
  'release_check.completed',
  'release_check.reviewed',
  'a11y_scan.completed',
  'crawl.completed',
  'certificate.expiring',
  'certificate.renewed',
  'maintenance.started',
  'maintenance.ended',
  'ping',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The outbox: an event is written in the same transaction as the state change it reports, so the two commit or
 * roll back together; the relay fans it out to destinations afterwards. Never updated but for `relayedAt`.
 *
 * Each statement that records events notifies `vigil_events`: PostgreSQL sends it at commit, folds a transaction's
 * identical notifications into one and sends none on a rollback. Workers listen and relay at once (EventNotifications).
 */
@Entity({
  tableName: 'events',
  triggers: [
    {
      name: 'events_notify',
      timing: 'after',
      events: ['insert'],
      forEach: 'statement',
      body: `perform pg_notify('vigil_events', ''); return null;`,
    },
  ],
})
@WorkspaceScoped()
// The relay's scan: events not yet fanned out, in the order they were recorded.
@Index({
  name: 'events_unrelayed_index',
  expression: 'create index "events_unrelayed_index" on "events" ("seq") where "relayed_at" is null',
})
export class OutboxEvent {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  @Property({ type: 'text' })
  type: EventType;

  @Property({ type: 'json' })
  data: Record<string, unknown>;

  /** Destinations named by the rule that raised it; workspace-wide subscribers are added when it is relayed. */
  @Property({ type: ArrayType, columnType: 'uuid[]' })
  destinationIds: string[] & Opt = [];

  /**
   * Events with the same key reach each destination in the order they were recorded (a monitor's down before its
   * recovery); null: no order to keep.
   */
  @Property({ type: 'text', nullable: true })
  orderingKey: string | null = null;

  /**
   * The order events were recorded in, from a database sequence: taken at insert, so of two events written under one
   * row lock (a monitor's) the later always has the higher number, whichever machine's clock wrote `createdAt`.
   */
  @Property({ type: 'bigint', autoincrement: true })
  seq: Opt<string>;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  relayedAt: Date | null = null;
}
