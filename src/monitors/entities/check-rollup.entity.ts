import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Monitor } from './monitor.entity';

/**
 * Checks per monitor, region and hour, kept when raw results are pruned: uptime and response-time history read
 * at most 720 of these per monitor and region for 30 days, however many checks ran. The history index carries every
 * column the uptime read needs, so that read is an index-only scan: one monitor's hours, written an hour apart, would
 * otherwise sit on 720 different heap pages.
 */
@Entity({ tableName: 'monitor_check_rollups' })
@Index({
  name: 'monitor_check_rollups_history_index',
  properties: ['monitor', 'hour'],
  include: ['region', 'checks', 'passed', 'responseMsSum', 'maintenance'],
})
export class CheckRollup {
  @ManyToOne(() => Monitor, { primary: true, deleteRule: 'cascade' })
  monitor: Monitor;

  @PrimaryKey({ type: 'text' })
  region: string;

  @PrimaryKey({ type: 'timestamptz' })
  hour: Date;

  /** Checks that count in uptime: all but those made during maintenance. */
  @Property({ type: 'integer' })
  checks: number;

  @Property({ type: 'integer' })
  passed: number;

  @Property({ type: 'bigint' })
  responseMsSum: string;

  /** Checks made during maintenance, counted apart: in none of the other columns. */
  @Property({ type: 'integer', default: 0 })
  maintenance: number & Opt = 0;
}
