import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { Workspace } from '../../workspaces/entities/workspace.entity';

export const REPORT_TYPES = ['uptime', 'changes', 'accessibility', 'release_checks'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const REPORT_FORMATS = ['pdf', 'csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const PERIOD_PRESETS = ['last_7_days', 'last_30_days', 'last_month'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** A preset resolved when a run starts, or fixed times (RFC 3339, as sent). */
export type ReportPeriod = { preset: PeriodPreset } | { from: string; to: string };

/** A saved report definition; each generation is a ReportRun. */
@Entity({ tableName: 'reports' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'createdAt'] })
export class Report {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text' })
  type: ReportType;

  /** Empty for all of the workspace's monitors at generation time. */
  @Property({ type: ArrayType, columnType: 'uuid[]' })
  monitorIds: string[] & Opt = [];

  @Property({ type: 'json' })
  period: ReportPeriod;

  @Property({ type: 'text' })
  format: ReportFormat;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
