import { isStable } from '../../libs/compare';
import { needsDecision } from './pair-review';
import type { ReleaseCheckArtifact } from './entities/release-check-artifact.entity';
import type { ReviewDecision } from './entities/release-check-review.entity';
import type { CollectionStatus, Gate, ReleaseCheckSummary } from './entities/release-check.entity';

/** The counts of one revision, from its artifacts. */
export function summarize(artifacts: ReleaseCheckArtifact[]): Required<ReleaseCheckSummary> {
  const compared = artifacts.filter((artifact) => artifact.state === 'compared');
  return {
    pairs: artifacts.length,
    captured: compared.length,
    missing: artifacts.filter((artifact) => artifact.state === 'missing').length,
    with_differences: compared.filter((artifact) => artifact.comparison?.has_differences).length,
    unstable: compared.filter((artifact) => artifact.comparison?.unstable && !isStable(artifact.comparison.unstable))
      .length,
    awaiting_decision: compared.filter((artifact) => needsDecision(artifact) && artifact.decision === null).length,
    new_findings: compared.reduce((sum, artifact) => sum + (artifact.comparison?.findings.new.length ?? 0), 0),
  };
}

/** Where a revision's collection stands: finished only when no artifact is still collecting. */
export function collectionStatusOf(artifacts: ReleaseCheckArtifact[]): CollectionStatus {
  if (artifacts.some((artifact) => artifact.state === 'collecting')) {
    return artifacts.some((artifact) => artifact.production || artifact.preview) ? 'running' : 'queued';
  }
  return artifacts.some((artifact) => artifact.state === 'missing') ? 'incomplete' : 'completed';
}

/**
 * The gate of a revision: a person's decision when there is one; otherwise failed when evidence is missing, and
 * pending while collecting or once complete — complete evidence waits for a person, differences or not.
 */
export function gateOf(status: CollectionStatus, decision: ReviewDecision | null): Gate {
  if (decision === 'approve') return 'passed';
  if (decision === 'reject' || status === 'incomplete') return 'failed';
  return 'pending';
}
