import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Monitor } from '../../monitors/entities/monitor.entity';

export const RULE_EVENTS = ['down', 'change', 'value_change', 'response_time', 'certificate_expiry'] as const;
export type RuleEvent = (typeof RULE_EVENTS)[number];
export const RULE_STATES = ['ok', 'pending', 'firing'] as const;
export type RuleState = (typeof RULE_STATES)[number];

/** A monitor's alert rule, with the state of its current incident. Changed only under the monitor's row lock. */
@Entity({ tableName: 'alert_rules' })
@Index({ properties: ['monitor', 'createdAt'] })
// A declaration's logical key names one resource (DeclarationsService).
@Index({
  name: 'alert_rules_declaration_key_unique',
  expression:
    'create unique index "alert_rules_declaration_key_unique" on "alert_rules" ("monitor_id", "declaration_key") where "declaration_key" is not null',
})
export class AlertRule {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Monitor, { deleteRule: 'cascade' })
  monitor: Monitor;

  /** The logical key of the declaration managing it; null when it is managed by hand. */
  @Property({ type: 'text', nullable: true })
  declarationKey: string | null = null;

  @Property({ type: 'text' })
  event: RuleEvent;

  @Property({ type: ArrayType, columnType: 'uuid[]' })
  destinationIds: string[];

  @Property({ type: 'integer' })
  consecutiveFailures: number & Opt = 1;

  @Property({ type: 'integer' })
  minRegions: number & Opt = 1;

  @Property({ type: 'integer', nullable: true })
  thresholdMs: number | null = null;

  /** `certificate_expiry`: fires when the served certificate has at most this many days left. */
  @Property({ type: 'integer', nullable: true })
  daysBefore: number | null = null;

  @Property({ type: 'boolean' })
  notifyRecovery: boolean & Opt = true;

  @Property({ type: 'integer', nullable: true })
  reminderMinutes: number | null = null;

  @Property({ type: 'boolean' })
  enabled: boolean & Opt = true;

  @Property({ type: 'text' })
  state: RuleState & Opt = 'ok';

  /** Failing checks in a row, per region. */
  @Property({ type: 'json' })
  streaks: Record<string, number> & Opt = {};

  /** When the current incident was last told (its alert or a reminder). */
  @Property({ type: 'timestamptz', nullable: true })
  notifiedAt: Date | null = null;

  /** Since when the rule fired unheard because its monitor's parent was down (`withParent`); null when it did not. */
  @Property({ type: 'timestamptz', nullable: true })
  heldSince: Date | null = null;

  /** `certificate_expiry`: the certificate (`certificateIdentity`) the rule fired for, while firing. */
  @Property({ type: 'text', nullable: true })
  firedFor: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
