import { type FormEvent, useRef, useState } from 'react';
import { api, ok } from '../api';
import { TextAreaField } from '../components/Field';
import { ProblemAlert } from '../components/ProblemAlert';
import { canWrite } from '../permissions';
import type { A11yAttestation, A11yReport, CurrentUser } from '../types';
import { inProgress } from './scan-status';

export function AttestCard({
  report,
  me,
  onAttested,
}: {
  report: A11yReport;
  me: CurrentUser;
  onAttested: (attestation: A11yAttestation) => void;
}) {
  const [note, setNote] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const noteRef = useRef<HTMLDivElement>(null);
  const { scan } = report;
  const canAttest = canWrite(me);

  async function attest(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(null);
    if (!note.trim()) {
      setLocal('Write a note: what you checked, how, and why these findings are acceptable as the baseline.');
      noteRef.current?.querySelector('textarea')?.focus();
      return;
    }
    setLocal(null);
    setBusy(true);
    try {
      const attestation = await ok(
        api.POST('/a11y-scans/{id}/attest', { params: { path: { id: scan.id } }, body: { note: note.trim() } }),
      );
      setNote('');
      setDone(`Attested by ${attestation.attested_by.email}: this scan is now the monitor’s baseline.`);
      onAttested(attestation);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="attest-heading" className="card review-panel">
      <h2 id="attest-heading">Attest as baseline</h2>
      {done ? (
        <p className="alert alert-success" role="status">
          {done}
        </p>
      ) : null}
      {!canAttest ? (
        <div className="alert alert-info" id="attest-not-permitted">
          <p className="alert-title">You cannot attest this scan</p>
          <p>
            You are a viewer of {me.workspace.name}: attesting a baseline is a person’s statement about the page, made
            by a member or admin of the workspace (signed in, never with an API key).
          </p>
        </div>
      ) : scan.status !== 'completed' ? (
        <p className="muted">
          {inProgress(scan) ? 'A scan can be attested once it has completed.' : 'A failed scan cannot be attested.'}
        </p>
      ) : (
        <form className="form" onSubmit={(event) => void attest(event)} noValidate>
          <p className="small">
            Later scans of this monitor are compared with the newest attested scan; earlier attestations are kept as
            history.
          </p>
          <div ref={noteRef}>
            <TextAreaField
              id="attest-note"
              label="Note"
              markRequired
              required
              rows={4}
              maxLength={2000}
              hint="What you checked, by whom and how (for example, a screen-reader pass of the checkout)."
              value={note}
              onChange={(value) => {
                setNote(value);
                if (value.trim()) setLocal(null);
              }}
              error={local}
            />
          </div>
          <ProblemAlert error={error} />
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Attesting…' : 'Attest as baseline'}
          </button>
        </form>
      )}
    </section>
  );
}
