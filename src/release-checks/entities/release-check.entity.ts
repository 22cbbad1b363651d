import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Viewport } from '../../../libs/capture';
import { User } from '../../users/user.entity';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { Workspace } from '../../workspaces/entities/workspace.entity';

export const GATES = ['pending', 'passed', 'failed'] as const;
export type Gate = (typeof GATES)[number];
export const COLLECTION_STATUSES = ['queued', 'running', 'completed', 'incomplete'] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];

export interface PagePair {
  production_path: string;
  preview_path: string;
  required_selector: string | null;
}

/** Where a release check's change comes from: a commit on a code host, and its pull or merge request. */
export interface ReleaseCheckSource {
  provider: 'github' | 'gitlab';
  repository: string;
  /** Lower case. */
  commit_sha: string;
  pull_request?: number;
  branch?: string;
}

export interface ReleaseCheckSummary {
  pairs: number;
  captured: number;
  missing: number;
  /** Pairs with a stable difference. */
  with_differences: number;
  /** Pairs with evidence that moved on its own (absent from summaries recorded before second looks existed). */
  unstable?: number;
  /** Pairs with stable differences and no decision yet (absent from summaries recorded before pair decisions). */
  awaiting_decision?: number;
  new_findings: number;
}

export const EMPTY_SUMMARY: ReleaseCheckSummary = {
  pairs: 0,
  captured: 0,
  missing: 0,
  with_differences: 0,
  unstable: 0,
  awaiting_decision: 0,
  new_findings: 0,
};

@Entity({ tableName: 'release_checks' })
@WorkspaceScoped()
@Unique({ properties: ['workspace', 'requestKey'] })
@Index({ properties: ['workspace', 'createdAt'] })
export class ReleaseCheck {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  /** The person who opened it: the creator of the key it was opened with, or the signed-in person. */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  openedBy: User | null = null;

  /** The key it was opened with; null when a session opened it. Kept as a value: keys are revoked, not deleted. */
  @Property({ type: 'uuid', nullable: true })
  openedByKeyId: string | null = null;

  @Property({ type: 'text' })
  name: string;

  /** The caller's idempotency key, unique per workspace. */
  @Property({ type: 'text' })
  requestKey: string;

  /** SHA-256 of the normalized request: a retry with the same key must carry the same request. */
  @Property({ type: 'text' })
  requestHash: string;

  @Property({ type: 'text' })
  productionUrl: string;

  @Property({ type: 'text' })
  previewUrl: string;

  @Property({ type: 'json' })
  pages: PagePair[];

  @Property({ type: ArrayType, columnType: 'text[]' })
  viewports: Viewport[];

  @Property({ type: 'json' })
  maskSelectors: string[];

  @Property({ type: 'double' })
  mismatchThreshold: number;

  /** Where the checked change comes from (code host, repository, commit); null when the request named none. */
  @Property({ type: 'json', nullable: true })
  source: ReleaseCheckSource | null = null;

  @Property({ type: 'integer' })
  revision: number & Opt = 1;

  @Property({ type: 'text' })
  collectionStatus: CollectionStatus & Opt = 'queued';

  @Property({ type: 'text' })
  gate: Gate & Opt = 'pending';

  @Property({ type: 'json' })
  summary: ReleaseCheckSummary & Opt = { ...EMPTY_SUMMARY };

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  completedAt: Date | null = null;
}
