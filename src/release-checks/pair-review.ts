import { createHash } from 'node:crypto';
import type { ReleaseCheckArtifact } from './entities/release-check-artifact.entity';
import type { ReviewedPair } from './entities/release-check-review.entity';
import type { ReleaseCheck } from './entities/release-check.entity';

/**
 * The rules of reviewing pair by pair (decision 0013), in one place: which pairs need a person's decision, how a
 * pair's evidence is identified across revisions, and what an earlier acceptance says about a pair now.
 */

type PairFacts = Pick<ReleaseCheckArtifact, 'state' | 'comparison' | 'fingerprint' | 'production' | 'preview'>;

/** A pair needs a decision when its sides were compared and a stable difference survived. */
export function needsDecision(artifact: Pick<ReleaseCheckArtifact, 'state' | 'comparison'>): boolean {
  return artifact.state === 'compared' && artifact.comparison?.has_differences === true;
}

/**
 * The pair's fingerprint: the compared evidence's, written with the comparison; for missing evidence, a digest of
 * what is missing (side, reason, status), so an unchanged failure is recognised too; null while collecting.
 */
export function pairFingerprint(artifact: PairFacts): string | null {
  if (artifact.state === 'compared') return artifact.fingerprint;
  if (artifact.state !== 'missing') return null;
  const missing = (record: ReleaseCheckArtifact['production']) =>
    record?.state === 'missing' ? { reason: record.reason, status: record.status } : null;
  return createHash('sha256')
    .update(
      JSON.stringify({ missing: { production: missing(artifact.production), preview: missing(artifact.preview) } }),
    )
    .digest('hex');
}

/** Pairs are the same pair across revisions by page and viewport. */
const samePair = (a: Pick<ReleaseCheckArtifact, 'pageIndex' | 'viewport'>, b: typeof a) =>
  a.pageIndex === b.pageIndex && a.viewport === b.viewport;

/**
 * The earliest earlier revision in which a pair with this pair's fingerprint was accepted, for a pair that needs a
 * decision; null otherwise. Knowing it lets a reviewer carry the acceptance over; it never accepts anything itself.
 */
export function unchangedSinceRevision(
  artifact: PairFacts & Pick<ReleaseCheckArtifact, 'pageIndex' | 'viewport' | 'revision'>,
  earlier: Array<Pick<ReleaseCheckArtifact, 'pageIndex' | 'viewport' | 'revision' | 'fingerprint' | 'decision'>>,
): number | null {
  if (!needsDecision(artifact) || artifact.fingerprint === null) return null;
  const accepted = earlier.filter(
    (other) =>
      other.revision < artifact.revision &&
      samePair(other, artifact) &&
      other.fingerprint === artifact.fingerprint &&
      other.decision?.decision === 'accepted',
  );
  return accepted.length === 0 ? null : Math.min(...accepted.map((other) => other.revision));
}

/** Every pair of a revision as its review records it. */
export function reviewedPairs(check: ReleaseCheck, artifacts: ReleaseCheckArtifact[]): ReviewedPair[] {
  return artifacts.map((artifact) => {
    const page = check.pages[artifact.pageIndex];
    const decision = artifact.decision;
    const outcome: ReviewedPair['outcome'] =
      artifact.state === 'missing'
        ? 'missing'
        : !needsDecision(artifact)
          ? 'unchanged'
          : (decision?.decision ?? 'undecided');
    return {
      artifact_id: artifact.id,
      production_path: page.production_path,
      preview_path: page.preview_path,
      viewport: artifact.viewport,
      outcome,
      note: decision?.note ?? null,
      decided_by: decision?.decided_by ?? null,
      decided_at: decision?.decided_at ?? null,
      carried_from_revision: decision?.carried_from_revision ?? null,
    };
  });
}
