import { canWrite } from '../permissions';
import type { CurrentUser, ReleaseCheck } from '../types';

/** A check being collected is read again this often, so its progress shows without a reload. */
export const POLL_MS = 2_000;

/** Evidence is still being collected (queued or running). */
export const isCollecting = (check: ReleaseCheck) =>
  check.collection_status === 'queued' || check.collection_status === 'running';

/**
 * Who may decide, from the person's role in the workspace and its review policy (the API enforces both): a viewer
 * cannot review; with `require_distinct_reviewer`, whoever opened the check may reject it but not approve it.
 */
export function reviewRights(check: ReleaseCheck, me: CurrentUser): { canReview: boolean; mayApprove: boolean } {
  const canReview = canWrite(me);
  const openerBarred = me.workspace.review_policy.require_distinct_reviewer && check.opened_by?.id === me.id;
  return { canReview, mayApprove: canReview && !openerBarred };
}

/** How far the reviewer is: pairs that need a decision, decided, rejected, and undecided ones that can be carried. */
export function pairProgress(check: ReleaseCheck): {
  needing: number;
  decided: number;
  rejected: number;
  carryable: number;
} {
  const needing = check.artifacts.filter((artifact) => artifact.needs_decision);
  return {
    needing: needing.length,
    decided: needing.filter((artifact) => artifact.decision !== null).length,
    rejected: needing.filter((artifact) => artifact.decision?.decision === 'rejected').length,
    carryable: needing.filter((artifact) => !artifact.decision && artifact.unchanged_since_revision !== null).length,
  };
}
