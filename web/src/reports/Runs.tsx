import { useId, useState } from 'react';
import { ProblemAlert } from '../components/ProblemAlert';
import { formatBytes, formatDateTime } from '../format';
import type { Report, ReportRun } from '../types';
import { downloadRun, reportFormatName, runInProgress, RunStatusBadge } from './ReportBits';

export function Runs({ report }: { report: Report }) {
  return (
    <section aria-labelledby="runs-heading" className="card runs">
      <h2 id="runs-heading">Runs</h2>
      <p className="small muted">The latest 20, newest first. A ready run’s file never changes.</p>
      {report.runs.length === 0 ? (
        <p className="muted">Not generated yet.</p>
      ) : (
        <ol className="run-list">
          {report.runs.map((run) => (
            <RunItem key={run.id} report={report} run={run} />
          ))}
        </ol>
      )}
    </section>
  );
}

function RunItem({ report, run }: { report: Report; run: ReportRun }) {
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const requested = formatDateTime(run.created_at);

  async function download() {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const { fileName, size } = await downloadRun(report, run);
      setNote(`Downloaded ${fileName} (${formatBytes(size)}).`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="run" data-run-id={run.id}>
      <article aria-labelledby={headingId}>
        <div className="destination-head">
          <h3 id={headingId}>Run requested {requested}</h3>
          <p className="check-badges">
            <RunStatusBadge status={run.status} />
          </p>
        </div>
        <dl className="meta-grid run-facts">
          <div>
            <dt>Period</dt>
            <dd>
              {formatDateTime(run.period.from)} to {formatDateTime(run.period.to)}
            </dd>
          </div>
          <div>
            <dt>Generated</dt>
            <dd>{run.generated_at ? formatDateTime(run.generated_at) : runInProgress(run) ? 'In progress' : '—'}</dd>
          </div>
          <div>
            <dt>Size</dt>
            <dd>{run.size === null ? '—' : formatBytes(run.size)}</dd>
          </div>
          <div className="run-sha">
            <dt>SHA-256</dt>
            <dd>{run.sha256 ? <code>{run.sha256}</code> : '—'}</dd>
          </div>
        </dl>
        {run.status === 'failed' ? (
          <p className="alert alert-danger">Failed: {run.failure ?? 'the service gave no reason.'}</p>
        ) : null}
        {run.status === 'ready' ? (
          <button
            type="button"
            className="button button-small button-secondary"
            disabled={busy}
            onClick={() => void download()}
          >
            {busy ? 'Downloading…' : `Download ${reportFormatName(report.format)}`}
            <span className="visually-hidden"> of the run requested {requested}</span>
          </button>
        ) : null}
        <div role="status">{note ? <p className="small text-success run-note">{note}</p> : null}</div>
        <ProblemAlert error={error} title="The file could not be downloaded" />
      </article>
    </li>
  );
}
