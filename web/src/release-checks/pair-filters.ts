import type { Artifact, UnstableEvidence } from '../types';

/** What the review page can narrow its pairs to. */
export const PAIR_FILTERS = [
  { value: 'all', label: 'All pairs' },
  { value: 'awaiting', label: 'Awaiting a decision' },
  { value: 'differences', label: 'With differences' },
  { value: 'unstable', label: 'Moving on their own' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'missing', label: 'Missing evidence' },
] as const;
export type PairFilter = (typeof PAIR_FILTERS)[number]['value'];

/** Evidence that moved on its own, when the pair has any (decision 0012). */
export function hasUnstable(unstable: UnstableEvidence | null | undefined): unstable is UnstableEvidence {
  return (
    !!unstable &&
    (unstable.lines.length > 0 ||
      unstable.regions.length > 0 ||
      unstable.robots ||
      unstable.canonical ||
      unstable.findings.length > 0)
  );
}

export function matchesFilter(artifact: Artifact, filter: PairFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'awaiting':
      return artifact.needs_decision && artifact.decision === null;
    case 'differences':
      return artifact.needs_decision;
    case 'unstable':
      return hasUnstable(artifact.comparison?.unstable);
    case 'rejected':
      return artifact.decision?.decision === 'rejected';
    case 'missing':
      return artifact.state === 'missing';
  }
}

/**
 * Where a pair goes on the page: pairs with differences, missing evidence, then the unchanged. A decision does not
 * move a pair, so the list holds still while a reviewer works through it.
 */
export function reviewRank(artifact: Artifact): number {
  if (artifact.needs_decision) return 0;
  return artifact.state === 'missing' ? 1 : 2;
}
