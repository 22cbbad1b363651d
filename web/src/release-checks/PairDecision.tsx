import { type FormEvent, useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { Badge } from '../components/Badge';
import { ProblemAlert } from '../components/ProblemAlert';
import { formatDateTime } from '../format';
import type { Artifact } from '../types';
import { pairLabel } from './artifact-labels';

/**
 * One pair's decision (decision 0013): what was decided and by whom, "accepted in revision N, unchanged since" when
 * an earlier acceptance could be carried over, and, for a reviewer of an undecided revision, Accept and Reject
 * (a note is required to reject). Deciding a pair never moves the gate: the submitted review does.
 */
export function PairDecision({
  checkId,
  revision,
  artifact,
  canDecide,
  onDecided,
  onConflict,
}: {
  checkId: string;
  /** The revision shown, which the decision is for. */
  revision: number;
  artifact: Artifact;
  canDecide: boolean;
  /** The pair as the API answered it, with its decision. */
  onDecided: (artifact: Artifact) => void;
  /** The check moved on (a new revision, a submitted review): load it again. */
  onConflict: () => Promise<unknown>;
}) {
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  if (!artifact.needs_decision) return null;
  const label = `${pairLabel(artifact)}, ${artifact.viewport}`;
  const noteId = `pair-note-${artifact.id}`;
  const decision = artifact.decision;

  async function decide(choice: 'accept' | 'reject') {
    setError(null);
    if (choice === 'reject' && !note.trim()) {
      setNoteError('Write what is wrong to reject this pair.');
      return;
    }
    setNoteError(null);
    setBusy(true);
    try {
      const decided = await ok(
        api.PUT('/release-checks/{id}/artifacts/{artifact_id}/decision', {
          params: { path: { id: checkId, artifact_id: artifact.id } },
          body: { decision: choice, revision, ...(note.trim() ? { note: note.trim() } : {}) },
        }),
      );
      setNote('');
      onDecided(decided);
    } catch (caught) {
      setError(caught);
      if (caught instanceof ProblemError && caught.status === 409) await onConflict();
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void decide(submitter?.value === 'reject' ? 'reject' : 'accept');
  }

  return (
    <div className="pair-decision" role="group" aria-label={`Decision on ${label}`}>
      <p className="pair-decision-state">
        {decision ? (
          <>
            <Badge tone={decision.decision === 'accepted' ? 'success' : 'danger'}>
              {decision.decision === 'accepted' ? 'Accepted' : 'Rejected'}
            </Badge>{' '}
            by {decision.decided_by.email}
            {decision.carried_from_revision !== null
              ? `, carried over from revision ${decision.carried_from_revision}`
              : ''}{' '}
            <span className="small muted">
              (<time dateTime={decision.decided_at}>{formatDateTime(decision.decided_at)}</time>)
            </span>
            {decision.note ? <span className="pair-decision-note"> “{decision.note}”</span> : null}
          </>
        ) : (
          <>
            <Badge tone="warning">Awaiting a decision</Badge>
            {artifact.unchanged_since_revision !== null ? (
              <span className="small">
                {' '}
                Accepted in revision {artifact.unchanged_since_revision}, unchanged since: the review can carry it over.
              </span>
            ) : null}
          </>
        )}
      </p>
      {canDecide ? (
        <form className="pair-decision-form" onSubmit={submit} noValidate>
          <label htmlFor={noteId} className="small">
            Note <span className="muted">(required to reject)</span>
          </label>
          <input
            id={noteId}
            type="text"
            maxLength={5000}
            value={note}
            aria-invalid={noteError ? true : undefined}
            aria-describedby={noteError ? `${noteId}-error` : undefined}
            onChange={(event) => {
              setNote(event.target.value);
              if (event.target.value.trim()) setNoteError(null);
            }}
          />
          <button type="submit" value="accept" className="button button-small button-success" disabled={busy}>
            Accept<span className="visually-hidden"> {label}</span>
          </button>
          <button type="submit" value="reject" className="button button-small button-danger" disabled={busy}>
            Reject<span className="visually-hidden"> {label}</span>
          </button>
          {noteError ? (
            <p id={`${noteId}-error`} className="field-error">
              {noteError}
            </p>
          ) : null}
        </form>
      ) : null}
      <ProblemAlert error={error} />
    </div>
  );
}
