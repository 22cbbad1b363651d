import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Viewport } from '../../../libs/capture';
import { User } from '../../users/user.entity';
import { type PagePair, ReleaseCheck } from './release-check.entity';

export const REVIEW_DECISIONS = ['approve', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const REVIEWED_PAIR_OUTCOMES = ['unchanged', 'accepted', 'rejected', 'undecided', 'missing'] as const;
export type ReviewedPairOutcome = (typeof REVIEWED_PAIR_OUTCOMES)[number];

/** One pair of a reviewed revision as the review found it. */
export interface ReviewedPair {
  artifact_id: string;
  production_path: string;
  preview_path: string;
  viewport: Viewport;
  outcome: ReviewedPairOutcome;
  note: string | null;
  decided_by: { id: string; email: string } | null;
  decided_at: string | null;
  carried_from_revision: number | null;
}

/** A person's documented decision on one revision. One per revision; the history is never rewritten. */
@Entity({ tableName: 'release_check_reviews' })
@Unique({ properties: ['check', 'revision'] })
@Index({ properties: ['check', 'decidedAt'] })
export class ReleaseCheckReview {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => ReleaseCheck, { deleteRule: 'cascade' })
  check: ReleaseCheck;

  @Property({ type: 'integer' })
  revision: number;

  @Property({ type: 'text' })
  decision: ReviewDecision;

  @Property({ type: 'text' })
  note: string;

  @ManyToOne(() => User, { deleteRule: 'restrict' })
  reviewer: User;

  /** The pages and viewports the decision covers: the revision's scope, and nothing else. */
  @Property({ type: 'json' })
  scope: { pages: PagePair[]; viewports: Viewport[] };

  @Property({ type: 'timestamptz' })
  decidedAt: Date & Opt = new Date();

  /** Every pair of the revision with its decision (empty for reviews recorded before pair decisions). */
  @Property({ type: 'json' })
  pairs: ReviewedPair[] & Opt = [];
}
