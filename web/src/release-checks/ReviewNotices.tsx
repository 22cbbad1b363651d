import { formatDateTime } from '../format';
import type { CurrentWorkspace, ReleaseCheck, ReviewRecord } from '../types';

/** The decision recorded on the current revision. */
export function DecisionRecord({ decided }: { decided: ReviewRecord }) {
  return (
    <div className={`decision decision-${decided.decision}`}>
      <p className="decision-title">
        {decided.decision === 'approve' ? 'Approved' : 'Rejected'} by {decided.reviewer.email}
      </p>
      <p className="small muted">
        Revision {decided.revision} · <time dateTime={decided.decided_at}>{formatDateTime(decided.decided_at)}</time>
      </p>
      <blockquote className="decision-note">{decided.note}</blockquote>
      <p className="small muted">A new revision needs its own review: approvals never carry over.</p>
    </div>
  );
}

/** Why the review form is not offered: the person's role does not allow deciding. */
export function CannotReview({ workspace }: { workspace: CurrentWorkspace }) {
  return (
    <div className="alert alert-info" id="review-not-permitted">
      <p className="alert-title">You cannot review this check</p>
      <p>
        {workspace.role === 'viewer'
          ? `You are a viewer of ${workspace.name}: viewers can read release checks but not approve or reject them.`
          : `You have no role in ${workspace.name} that lets you review.`}{' '}
        A member or admin of the workspace can decide; an admin can change your role.
      </p>
    </div>
  );
}

/** What limits the decision: a second person must approve, or evidence is missing so only a rejection is possible. */
export function ReviewBlockers({
  check,
  workspace,
  mayApprove,
  incomplete,
}: {
  check: ReleaseCheck;
  workspace: CurrentWorkspace;
  mayApprove: boolean;
  incomplete: boolean;
}) {
  return (
    <>
      {!mayApprove && !incomplete ? (
        <div className="alert alert-warning" id="distinct-reviewer-reason">
          <p className="alert-title">A second person must approve this check</p>
          <p>
            {workspace.name} requires a second person to approve release checks, and you opened this one
            {check.opened_by?.api_key_id ? ' (with an API key you created)' : ''}, so you cannot approve it. Another
            member or admin can; you can still reject it.
          </p>
        </div>
      ) : null}
      {incomplete ? (
        <div className="alert alert-danger" id="cannot-approve-reason">
          <p className="alert-title">This check cannot be approved</p>
          <p>
            Evidence is missing for {check.summary.missing} of {check.summary.pairs} page × viewport{' '}
            {check.summary.pairs === 1 ? 'pair' : 'pairs'} (see the evidence marked missing). A page that could not be
            captured is never treated as a clean page, so the gate stays failed. Fix the pages and collect the evidence
            again; you can still record a rejection.
          </p>
        </div>
      ) : null}
    </>
  );
}
