import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { TrackedValueKind } from '../../../libs/page-check';
import { Monitor } from './monitor.entity';

/** One tracked value as one check read it. */
@Entity({ tableName: 'tracked_value_readings' })
@Unique({ properties: ['checkId', 'name'] })
@Index({ properties: ['monitor', 'capturedAt'] })
export class TrackedValueReadingRecord {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Monitor, { deleteRule: 'cascade' })
  monitor: Monitor;

  /** The check that read it (not a foreign key: raw checks are pruned, readings are kept). */
  @Property({ type: 'uuid' })
  checkId: string;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text' })
  kind: TrackedValueKind;

  @Property({ type: 'text', nullable: true })
  raw: string | null;

  @Property({ type: 'double', nullable: true })
  amount: number | null;

  @Property({ type: 'text', nullable: true })
  currency: string | null;

  @Property({ type: 'text' })
  region: string;

  @Property({ type: 'timestamptz' })
  capturedAt: Date;
}
