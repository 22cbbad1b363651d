import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Monitor } from '../../monitors/entities/monitor.entity';
import { User } from '../../users/user.entity';
import { A11yScan } from './a11y-scan.entity';

/** A person's statement that a completed scan is the monitor's accessibility baseline. Kept as history. */
@Entity({ tableName: 'a11y_attestations' })
// The monitor's baseline: its newest attestation.
@Index({ properties: ['monitor', 'createdAt'] })
export class A11yAttestation {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => A11yScan, { deleteRule: 'cascade' })
  scan: A11yScan;

  @ManyToOne(() => Monitor, { deleteRule: 'cascade' })
  monitor: Monitor;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  attestedBy: User | null = null;

  @Property({ type: 'text' })
  note: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
