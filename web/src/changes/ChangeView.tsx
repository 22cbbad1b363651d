import { useState } from 'react';
import { api, ok } from '../api';
import {
  CHANGE_KIND_LABELS,
  ChangeDiff,
  ChangeScreenshots,
  FeedbackBadges,
  MetadataMove,
  SummarySource,
  ValueMove,
} from '../components/ChangeBits';
import { ProblemAlert } from '../components/ProblemAlert';
import { formatDateTime } from '../format';
import { Link } from '../router';
import type { ChangeDetail } from '../types';

export function ChangeView({
  change,
  mayWrite,
  onChanged,
}: {
  change: ChangeDetail;
  mayWrite: boolean;
  onChanged: (change: ChangeDetail) => void;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(null);

  async function update(
    label: string,
    body: { feedback?: 'useful' | 'noise' | null; archived?: boolean },
    done: string,
  ) {
    setBusy(label);
    setError(null);
    setMessage(null);
    try {
      onChanged(await ok(api.PATCH('/changes/{id}', { params: { path: { id: change.id } }, body })));
      setMessage(done);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <div className="page-header">
        <div>
          <p className="eyebrow">
            <Link to={`/monitors/${change.monitor_id}`}>{change.monitor_name}</Link>
          </p>
          <h1>{CHANGE_KIND_LABELS[change.kind].heading}</h1>
          <p className="check-row-meta">
            <time dateTime={change.detected_at}>{formatDateTime(change.detected_at)}</time>
            <span aria-hidden="true"> · </span>
            <span>region {change.region}</span>
          </p>
          <p className="check-badges">
            <FeedbackBadges change={change} />
          </p>
        </div>
      </div>
      <div className="check-layout">
        <div>
          <section aria-labelledby="summary-heading" className="card">
            <h2 id="summary-heading">Summary</h2>
            <p className="change-summary">{change.summary.text}</p>
            <p>
              <SummarySource source={change.summary.source} />{' '}
              <span className="small muted">
                {change.summary.source === 'llm'
                  ? 'Written by a language model from the diff: check it against the lines below.'
                  : 'Written by Vigil’s rules from the diff: what was added, removed, and which numbers moved.'}
              </span>
            </p>
            {change.value ? <ValueMove value={change.value} /> : null}
            {change.metadata ? <MetadataMove fields={change.metadata} /> : null}
          </section>
          {change.diff ? (
            <section aria-labelledby="diff-heading" className="card">
              <h2 id="diff-heading">What changed</h2>
              <ChangeDiff diff={change.diff} label="Removed and added lines" />
            </section>
          ) : null}
          {change.before_screenshot_url || change.after_screenshot_url ? (
            <section aria-labelledby="shots-heading" className="card">
              <h2 id="shots-heading">Screenshots</h2>
              <ChangeScreenshots change={change} alt={(label) => `${label} screenshot`} />
            </section>
          ) : null}
        </div>
        <section aria-labelledby="verdict-heading" className="card review-panel">
          <h2 id="verdict-heading">Was it worth knowing?</h2>
          {message ? (
            <p className="alert alert-success" role="status">
              {message}
            </p>
          ) : null}
          <ProblemAlert error={error} />
          {mayWrite ? (
            <div className="button-row">
              <button
                type="button"
                className="button button-success"
                aria-pressed={change.feedback === 'useful'}
                disabled={busy !== null}
                onClick={() =>
                  void update(
                    'useful',
                    { feedback: change.feedback === 'useful' ? null : 'useful' },
                    change.feedback === 'useful' ? 'Feedback withdrawn.' : 'Marked as useful.',
                  )
                }
              >
                Useful
              </button>
              <button
                type="button"
                className="button button-secondary"
                aria-pressed={change.feedback === 'noise'}
                disabled={busy !== null}
                onClick={() =>
                  void update(
                    'noise',
                    { feedback: change.feedback === 'noise' ? null : 'noise' },
                    change.feedback === 'noise' ? 'Feedback withdrawn.' : 'Marked as noise.',
                  )
                }
              >
                Noise
              </button>
              <button
                type="button"
                className="button button-secondary"
                disabled={busy !== null}
                onClick={() =>
                  void update(
                    'archive',
                    { archived: !change.archived },
                    change.archived ? 'Restored from the archive.' : 'Archived: it no longer shows among open changes.',
                  )
                }
              >
                {change.archived ? 'Restore' : 'Archive'}
              </button>
            </div>
          ) : (
            <p className="alert alert-info">Viewers can read changes; a member or admin marks and archives them.</p>
          )}
        </section>
      </div>
    </>
  );
}
