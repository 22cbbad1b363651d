import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { AxeFinding, MissingReason, ResponseDigest, Viewport } from '../../../libs/capture';
import type { EvidenceComparison } from '../../../libs/compare';
import { ReleaseCheck } from './release-check.entity';

export type Side = 'production' | 'preview';
export const SIDES: readonly Side[] = ['production', 'preview'];

/** What one capture recorded, kept as one JSON value so a side is written whole or not at all. */
export type SideRecord =
  | {
      state: 'captured';
      url: string;
      final_url: string;
      status: number;
      robots: string | null;
      canonical: string | null;
      required_selector_found: boolean | null;
      findings: AxeFinding[];
      axe_version: string;
      /** ArtifactStore keys. */
      screenshot_key: string;
      text_key: string;
      captured_at: string;
      /** What the page's content came from, for the second look (absent from records made before it). */
      responses?: ResponseDigest[] | null;
      user_agent?: string;
    }
  | {
      state: 'missing';
      url: string;
      final_url: string | null;
      status: number | null;
      reason: MissingReason | 'capture_failed';
      message: string;
      captured_at: string;
    };

/** The comparison as stored: the diff image lives in the ArtifactStore. */
export type StoredComparison = Omit<EvidenceComparison, 'screenshot'> & {
  screenshot: Omit<EvidenceComparison['screenshot'], 'diff_png'> & { diff_key: string | null };
};

export type ArtifactState = 'collecting' | 'compared' | 'missing';

export const PAIR_DECISIONS = ['accepted', 'rejected'] as const;
export type PairDecisionOutcome = (typeof PAIR_DECISIONS)[number];

/** A person's decision on one pair of one revision; `carried_from_revision` when carried over from an earlier one. */
export interface StoredPairDecision {
  decision: PairDecisionOutcome;
  note: string | null;
  decided_by: { id: string; email: string };
  decided_at: string;
  carried_from_revision: number | null;
}

/** One page pair at one viewport, for one revision: both sides' evidence and their comparison. */
@Entity({ tableName: 'release_check_artifacts' })
@Unique({ properties: ['check', 'revision', 'pageIndex', 'viewport'] })
@Index({ properties: ['check', 'revision'] })
export class ReleaseCheckArtifact {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => ReleaseCheck, { deleteRule: 'cascade' })
  check: ReleaseCheck;

  @Property({ type: 'integer' })
  revision: number;

  @Property({ type: 'integer' })
  pageIndex: number;

  @Property({ type: 'text' })
  viewport: Viewport;

  @Property({ type: 'text' })
  state: ArtifactState & Opt = 'collecting';

  @Property({ type: 'json', nullable: true })
  production: SideRecord | null = null;

  @Property({ type: 'json', nullable: true })
  preview: SideRecord | null = null;

  @Property({ type: 'json', nullable: true })
  comparison: StoredComparison | null = null;

  /** A digest of the compared evidence (pair-fingerprint.ts), written with the comparison. */
  @Property({ type: 'text', nullable: true })
  fingerprint: string | null = null;

  @Property({ type: 'json', nullable: true })
  decision: StoredPairDecision | null = null;
}
