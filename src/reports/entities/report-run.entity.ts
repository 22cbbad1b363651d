import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Report } from './report.entity';

export const REPORT_RUN_STATUSES = ['queued', 'generating', 'ready', 'failed'] as const;
export type ReportRunStatus = (typeof REPORT_RUN_STATUSES)[number];

/**
 * One generation of a report. Its file is stored whole before the row says `ready` (with size and sha256), and a
 * ready or failed run is never written again.
 */
@Entity({ tableName: 'report_runs' })
@Index({ properties: ['report', 'createdAt'] })
// The resume sweep's scan: unfinished runs only.
@Index({
  name: 'report_runs_unfinished_index',
  expression: `create index "report_runs_unfinished_index" on "report_runs" ("created_at") where "status" in ('queued', 'generating')`,
})
export class ReportRun {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Report, { deleteRule: 'cascade' })
  report: Report;

  @Property({ type: 'text' })
  status: ReportRunStatus & Opt = 'queued';

  /** The period resolved when the run was created: every retry renders the same hours. */
  @Property({ type: 'timestamptz' })
  periodFrom: Date;

  @Property({ type: 'timestamptz' })
  periodTo: Date;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  generatedAt: Date | null = null;

  @Property({ type: 'integer', nullable: true })
  size: number | null = null;

  @Property({ type: 'text', nullable: true })
  sha256: string | null = null;

  /** Where the file is in the artifact store. */
  @Property({ type: 'text', nullable: true })
  artifactKey: string | null = null;

  @Property({ type: 'text', nullable: true })
  failure: string | null = null;
}
