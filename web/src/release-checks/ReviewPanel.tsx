import { type FormEvent, useRef, useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { ProblemAlert } from '../components/ProblemAlert';
import { plural } from '../format';
import type { CurrentUser, ReleaseCheck, ReviewDecision } from '../types';
import { isCollecting, pairProgress, reviewRights } from './check-state';
import { CannotReview, DecisionRecord, ReviewBlockers } from './ReviewNotices';

function Scope({ check }: { check: Pick<ReleaseCheck, 'pages' | 'viewports'> }) {
  return (
    <>
      {plural(check.pages.length, 'page')} × {plural(check.viewports.length, 'viewport')} ({check.viewports.join(', ')}
      ):
      <ul className="scope-pages">
        {check.pages.map((page, index) => (
          <li key={index}>
            <code>{page.production_path}</code>
            {page.preview_path !== page.production_path ? (
              <>
                {' → '}
                <code>{page.preview_path}</code>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

export function ReviewPanel({
  check,
  me,
  onChange,
  reload,
}: {
  check: ReleaseCheck;
  me: CurrentUser;
  onChange: (check: ReleaseCheck) => void;
  reload: () => Promise<ReleaseCheck | null>;
}) {
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [stale, setStale] = useState<{ from: number; to: number } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState<ReviewDecision | 'rerun' | null>(null);
  const [carryOver, setCarryOver] = useState(false);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const progress = pairProgress(check);

  const collecting = isCollecting(check);
  const incomplete = check.collection_status === 'incomplete' || check.review.status === 'cannot_approve';
  const decided = check.review.decision;
  const { canReview, mayApprove } = reviewRights(check, me);
  const offerApprove = mayApprove && !incomplete;
  const workspace = me.workspace;
  const distinct = workspace.review_policy.require_distinct_reviewer;

  async function decide(decision: ReviewDecision) {
    setError(null);
    setDone(null);
    if (!note.trim()) {
      setNoteError('Write a note: what you reviewed and why you decided.');
      noteRef.current?.focus();
      return;
    }
    setNoteError(null);
    setBusy(decision);
    const revision = check.revision;
    try {
      const updated = await ok(
        api.POST('/release-checks/{id}/review', {
          params: { path: { id: check.id } },
          body: { decision, note: note.trim(), revision, ...(carryOver ? { carry_over: true } : {}) },
        }),
      );
      setStale(null);
      setNote('');
      onChange(updated);
      setDone(
        `${decision === 'approve' ? 'Approved' : 'Rejected'} revision ${revision}. The gate is now ${updated.gate}.`,
      );
    } catch (caught) {
      if (caught instanceof ProblemError && caught.code === 'stale_revision') {
        const fresh = await reload();
        setStale({ from: revision, to: fresh?.revision ?? caught.problem.current_revision ?? revision + 1 });
      } else {
        setError(caught);
        if (caught instanceof ProblemError && caught.status === 409) await reload();
      }
    } finally {
      setBusy(null);
    }
  }

  async function rerun() {
    setError(null);
    setDone(null);
    setBusy('rerun');
    try {
      onChange(await ok(api.POST('/release-checks/{id}/rerun', { params: { path: { id: check.id } } })));
      setDone('Collecting the evidence again as a new revision.');
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void decide(submitter?.value === 'approve' && offerApprove ? 'approve' : 'reject');
  }

  return (
    <section aria-labelledby="review-heading" className="card review-panel">
      <h2 id="review-heading">Review</h2>
      <p className="review-applies">
        {canReview ? 'Your' : 'A'} decision applies to <strong>revision {check.revision}</strong>, for{' '}
        <Scope check={check} />
      </p>
      <p className="review-who">
        <strong>Who may approve:</strong>{' '}
        {distinct
          ? `a member or admin of ${workspace.name} other than the person who opened the check${check.opened_by ? ` (${check.opened_by.email})` : ''}: this workspace requires a second person to approve.`
          : `any member or admin of ${workspace.name}. Viewers cannot review.`}
      </p>

      {stale ? (
        <div className="alert alert-warning" role="alert">
          <p className="alert-title">The check changed while you were reviewing</p>
          <p>
            Your decision was for revision {stale.from}, but the check has been collected again and revision {stale.to}{' '}
            is now current, so nothing was recorded. The new evidence has been loaded: review it, then decide again.
          </p>
        </div>
      ) : null}
      {done ? (
        <p className="alert alert-success" role="status">
          {done}
        </p>
      ) : null}
      <ProblemAlert error={error} />

      {!collecting && !decided && progress.needing > 0 ? (
        <p className="pair-progress" role="status">
          <strong>
            {progress.decided} of {plural(progress.needing, 'pair')} with differences decided
          </strong>
          {progress.rejected > 0 ? `, ${progress.rejected} rejected` : ''}. Approving needs every one accepted.
        </p>
      ) : null}

      {collecting ? (
        <p className="alert alert-info">Evidence is still being collected. Review opens when collection finishes.</p>
      ) : decided ? (
        <DecisionRecord decided={decided} />
      ) : !canReview ? (
        <CannotReview workspace={workspace} />
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <ReviewBlockers check={check} workspace={workspace} mayApprove={mayApprove} incomplete={incomplete} />
          <div className="field">
            <label htmlFor="review-note">
              Review note <span className="required">(required)</span>
            </label>
            <p id="review-note-hint" className="hint">
              What you compared and why you decided. It is kept with the decision.
            </p>
            <textarea
              id="review-note"
              ref={noteRef}
              rows={4}
              maxLength={5000}
              required
              aria-required="true"
              aria-invalid={noteError ? true : undefined}
              aria-describedby={noteError ? 'review-note-hint review-note-error' : 'review-note-hint'}
              value={note}
              onChange={(event) => {
                setNote(event.target.value);
                if (event.target.value.trim()) setNoteError(null);
              }}
            />
            {noteError ? (
              <p id="review-note-error" className="field-error">
                {noteError}
              </p>
            ) : null}
          </div>
          {canReview && progress.carryable > 0 ? (
            <div className="field field-checkbox">
              <input
                id="review-carry-over"
                type="checkbox"
                checked={carryOver}
                onChange={(event) => setCarryOver(event.target.checked)}
              />
              <label htmlFor="review-carry-over">
                Carry over {plural(progress.carryable, 'acceptance')} of pairs unchanged since an earlier revision
                (marked on each pair); the record will say they were carried.
              </label>
            </div>
          ) : null}
          <div className="button-row">
            {offerApprove ? (
              <button type="submit" value="approve" className="button button-success" disabled={busy !== null}>
                {busy === 'approve' ? 'Approving…' : `Approve revision ${check.revision}`}
              </button>
            ) : null}
            <button type="submit" value="reject" className="button button-danger" disabled={busy !== null}>
              {busy === 'reject' ? 'Rejecting…' : `Reject revision ${check.revision}`}
            </button>
          </div>
        </form>
      )}

      {canReview && !collecting && (incomplete || decided) ? (
        <div className="rerun">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void rerun()}
            disabled={busy !== null}
          >
            {busy === 'rerun' ? 'Starting…' : 'Collect evidence again'}
          </button>
          <p className="hint">Starts revision {check.revision + 1}; its gate stays pending until it is reviewed.</p>
        </div>
      ) : null}
    </section>
  );
}
