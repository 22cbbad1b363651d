import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { AxeFinding, MissingReason, Viewport } from '../../../libs/capture';
import type { PlacedFinding } from '../../../libs/compare';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { Monitor } from '../../monitors/entities/monitor.entity';
import { User } from '../../users/user.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';

export const A11Y_SCAN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type A11yScanStatus = (typeof A11Y_SCAN_STATUSES)[number];

/** A finding at the viewport it was found at, with its fingerprint (rule id, viewport, target). */
export type ScanFinding = PlacedFinding<AxeFinding, Viewport>;

export interface A11yScanFailure {
  reason: Exclude<MissingReason, 'required_selector_missing'> | 'capture_failed';
  status_code: number | null;
  message: string;
}

export interface A11yScanSummary {
  violations: number;
  by_impact: { minor: number; moderate: number; serious: number; critical: number };
  needs_review: number;
  /** Against the baseline current when the scan completed; null when there was none. */
  new: number | null;
  fixed: number | null;
}

/** An on-demand axe-core scan of a monitor's page. Its results are written whole, once, when it ends. */
@Entity({ tableName: 'a11y_scans' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'createdAt'] })
@Index({ properties: ['monitor', 'createdAt'] })
// The resume sweep's scan: unfinished scans only.
@Index({
  name: 'a11y_scans_unfinished_index',
  expression: `create index "a11y_scans_unfinished_index" on "a11y_scans" ("created_at") where "status" in ('queued', 'running')`,
})
export class A11yScan {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  @ManyToOne(() => Monitor, { deleteRule: 'cascade' })
  monitor: Monitor;

  /** The monitor's URL when the scan was asked for. */
  @Property({ type: 'text' })
  url: string;

  @Property({ type: 'text' })
  status: A11yScanStatus & Opt = 'queued';

  @Property({ type: ArrayType, columnType: 'text[]' })
  viewports: Viewport[];

  @Property({ type: ArrayType, columnType: 'text[]' })
  tags: string[];

  @Property({ type: 'json', nullable: true })
  failure: A11yScanFailure | null = null;

  @Property({ type: 'text', nullable: true })
  axeVersion: string | null = null;

  /** The ids of the rules that ran, to tell a new rule's findings from regressions. */
  @Property({ type: 'json' })
  rulesRun: string[] & Opt = [];

  @Property({ type: 'json', lazy: true })
  findings: ScanFinding[] & Opt = [];

  @Property({ type: 'json', lazy: true })
  needsReview: ScanFinding[] & Opt = [];

  @Property({ type: 'json', nullable: true })
  summary: A11yScanSummary | null = null;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  completedAt: Date | null = null;
}
