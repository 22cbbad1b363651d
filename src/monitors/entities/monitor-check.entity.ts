import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { ServedCertificate } from '../../../libs/net-guard';
import type { CheckFailure, FailedAssertion } from '../../../libs/page-check';
import { Monitor } from './monitor.entity';

export const CHECK_TRIGGERS = ['scheduled', 'manual', 'ping'] as const;
export type CheckTrigger = (typeof CHECK_TRIGGERS)[number];

/** One check of one monitor from one region. Raw results are pruned after CHECK_RETENTION_DAYS. */
@Entity({ tableName: 'monitor_checks' })
// A retried job finds its result already recorded: one result per monitor, region and slot.
@Unique({ properties: ['monitor', 'region', 'scheduledFor'] })
@Index({ properties: ['monitor', 'checkedAt'] })
@Index({ properties: ['checkedAt'] })
export class MonitorCheck {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Monitor, { deleteRule: 'cascade' })
  monitor: Monitor;

  @Property({ type: 'text' })
  region: string;

  @Property({ type: 'text' })
  trigger: CheckTrigger;

  /** When the check was due (scheduled) or asked for (manual). */
  @Property({ type: 'timestamptz' })
  scheduledFor: Date;

  /** When the check started; minus scheduledFor, the schedule lag. */
  @Property({ type: 'timestamptz' })
  checkedAt: Date;

  @Property({ type: 'boolean' })
  ok: boolean;

  @Property({ type: 'integer', nullable: true })
  statusCode: number | null;

  @Property({ type: 'integer' })
  responseTimeMs: number;

  @Property({ type: 'text', nullable: true })
  failure: CheckFailure | null;

  @Property({ type: 'text', nullable: true })
  message: string | null;

  /** The assertions the response did not meet (failure `assertion`), with the values read; null for none. */
  @Property({ type: 'json', nullable: true })
  failedAssertions: FailedAssertion[] | null = null;

  @Property({ type: 'text', nullable: true })
  contentHash: string | null;

  /** The certificate an HTTPS check was served (also when it was refused); null for http. */
  @Property({ type: 'json', nullable: true })
  certificate: ServedCertificate | null = null;

  /** The maintenance window that muted the check's alerts; the check then counts apart in uptime. */
  @Property({ type: 'uuid', nullable: true })
  maintenanceWindowId: string | null = null;
}
