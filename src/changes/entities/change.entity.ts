import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { ChangeSummary, TextDiff } from '../../../libs/change-summary';
import type { TrackedValueKind } from '../../../libs/page-check';
import { Monitor } from '../../monitors/entities/monitor.entity';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { Workspace } from '../../workspaces/entities/workspace.entity';

export const CHANGE_KINDS = ['content', 'value', 'visual', 'metadata'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
export const CHANGE_FEEDBACK = ['useful', 'noise'] as const;
export type ChangeFeedback = (typeof CHANGE_FEEDBACK)[number];

export interface ValueChange {
  name: string;
  kind: TrackedValueKind;
  before: string | null;
  after: string | null;
  before_amount: number | null;
  after_amount: number | null;
  currency: string | null;
}

export const METADATA_FIELDS = ['title', 'robots', 'canonical', 'status_class'] as const;
export type MetadataField = (typeof METADATA_FIELDS)[number];

export interface MetadataFieldChange {
  field: MetadataField;
  before: string | null;
  after: string | null;
}

export interface VisualChange {
  mismatch_ratio: number;
  threshold: number;
}

/**
 * A stable change of a monitored page: its watched text (kind content), one tracked value (kind value), its
 * screenshot (kind visual) or what it says about itself (kind metadata).
 */
@Entity({ tableName: 'changes' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'archived', 'detectedAt'] })
@Index({ properties: ['monitor', 'detectedAt'] })
export class Change {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  /** The monitor's workspace, kept here so "the workspace's changes, newest first" reads one index. */
  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  @ManyToOne(() => Monitor, { deleteRule: 'cascade' })
  monitor: Monitor;

  @Property({ type: 'text' })
  kind: ChangeKind;

  @Property({ type: 'text' })
  region: string;

  /** The check that saw it; a retried check finds its change already recorded. */
  @Property({ type: 'uuid' })
  checkId: string;

  @Property({ type: 'timestamptz' })
  detectedAt: Date;

  @Property({ type: 'json' })
  summary: ChangeSummary;

  @Property({ type: 'json', nullable: true })
  diff: TextDiff | null = null;

  @Property({ type: 'json', nullable: true })
  value: ValueChange | null = null;

  @Property({ type: 'json', nullable: true })
  visual: VisualChange | null = null;

  @Property({ type: 'json', nullable: true })
  metadata: MetadataFieldChange[] | null = null;

  @Property({ type: 'text', nullable: true })
  beforeScreenshotKey: string | null = null;

  @Property({ type: 'text', nullable: true })
  afterScreenshotKey: string | null = null;

  /** Kind visual: the difference image. */
  @Property({ type: 'text', nullable: true })
  diffScreenshotKey: string | null = null;

  @Property({ type: 'text', nullable: true })
  feedback: ChangeFeedback | null = null;

  @Property({ type: 'boolean' })
  archived: boolean & Opt = false;
}
