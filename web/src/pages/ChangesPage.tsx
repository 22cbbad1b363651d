import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { Badge } from '../components/Badge';
import {
  CHANGE_KIND_LABELS,
  ChangeDiff,
  ChangeScreenshots,
  FeedbackBadges,
  MetadataMove,
  SummarySource,
  ValueMove,
} from '../components/ChangeBits';
import { SelectField } from '../components/Field';
import { ProblemAlert } from '../components/ProblemAlert';
import { PagedList, ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime } from '../format';
import { useResource } from '../hooks/useResource';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { ChangeDetail, ChangeKind, CurrentUser } from '../types';

const KINDS: ChangeKind[] = ['content', 'value', 'visual', 'metadata'];

/** `/changes`: what changed across the workspace's monitors, newest first. */
export function ChangesPage() {
  const { search } = useLocation();
  const kind = KINDS.find((item) => item === search.get('kind'));
  const archived = search.get('archived') === 'true';
  const page = pageParam(search);
  const changes = useResource(withQuery('/changes', { page, kind, archived }), (signal) =>
    ok(api.GET('/changes', { params: { query: { page, per_page: 20, kind, archived } }, signal })),
  );
  const go = (next: { kind?: ChangeKind; archived?: boolean; page?: number }) =>
    navigate(withQuery('/changes', { ...next, archived: next.archived || undefined }));
  const total = changes.data?.pagination.total;

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Changes</h1>
          <p className="lead">
            What moved on your monitored pages, newest first: the watched text, or a tracked value. Mark each as useful
            or noise, and archive what you have dealt with.
          </p>
        </div>
      </div>
      <div className="toolbar">
        <div className="toolbar-filters">
          <SelectField
            id="kind-filter"
            label="Kind"
            className="field-inline"
            value={kind ?? ''}
            onChange={(value) => go({ kind: KINDS.find((item) => item === value), archived })}
            options={[
              { value: '', label: 'All kinds' },
              { value: 'content', label: 'Content' },
              { value: 'value', label: 'Tracked value' },
              { value: 'visual', label: 'Visual' },
              { value: 'metadata', label: 'Metadata' },
            ]}
          />
          <SelectField
            id="archived-filter"
            label="Show"
            className="field-inline"
            value={archived ? 'true' : 'false'}
            onChange={(value) => go({ kind, archived: value === 'true' })}
            options={[
              { value: 'false', label: 'Open changes' },
              { value: 'true', label: 'Archived changes' },
            ]}
          />
        </div>
        <p className="muted toolbar-count" aria-live="polite">
          {total !== undefined ? `${total} ${total === 1 ? 'change' : 'changes'}` : ''}
        </p>
      </div>
      <PagedList
        resource={changes}
        loadingText="Loading changes…"
        pagesLabel="Change pages"
        onPage={(next) => go({ kind, archived, page: next })}
        empty={
          <div className="empty-state card">
            <h2>No {archived ? 'archived ' : ''}changes</h2>
            <p>Vigil records a change when a monitor’s watched text or one of its tracked values moves.</p>
          </div>
        }
      >
        {(items) => (
          <ul className="check-list" aria-label="Changes">
            {items.map((change) => (
              <li key={change.id} className="check-row card change-row">
                <div className="check-row-main">
                  <h2 className="check-row-title">
                    <Link to={`/changes/${change.id}`}>{change.summary.text}</Link>
                  </h2>
                  <p className="check-row-meta">
                    <span>{change.monitor_name}</span>
                    <span aria-hidden="true"> · </span>
                    <span>{change.region}</span>
                    <span aria-hidden="true"> · </span>
                    <time dateTime={change.detected_at}>{formatDateTime(change.detected_at)}</time>
                  </p>
                  {change.value ? <ValueMove value={change.value} /> : null}
                </div>
                <div className="check-row-status">
                  <Badge tone="neutral">{CHANGE_KIND_LABELS[change.kind].badge}</Badge>
                  <SummarySource source={change.summary.source} />
                  <FeedbackBadges change={change} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </>
  );
}

/** `/changes/:id`: one change, its diff and summary, and the person's verdict on it. */
export function ChangePage({ id, me }: { id: string; me: CurrentUser }) {
  const canWrite = me.workspace.role === 'admin' || me.workspace.role === 'member';
  const change = useResource(`/changes/${id}`, (signal) =>
    ok(api.GET('/changes/{id}', { params: { path: { id } }, signal })),
  );
  usePageTitle(change.data ? `${change.data.monitor_name} · Change` : 'Change');

  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to="/changes">Changes</Link>
          </li>
          {change.data ? (
            <li>
              <span aria-current="page">{formatDateTime(change.data.detected_at)}</span>
            </li>
          ) : null}
        </ol>
      </nav>
      {!change.data && change.error ? <h1>Change</h1> : null}
      <ResourceView
        resource={change}
        loadingText="Loading change…"
        errorTitle={
          change.error instanceof ProblemError && change.error.status === 404 ? 'Change not found' : undefined
        }
      >
        {(loaded) => <ChangeView change={loaded} canWrite={canWrite} onChanged={(next) => change.mutate(() => next)} />}
      </ResourceView>
    </>
  );
}

function ChangeView({
  change,
  canWrite,
  onChanged,
}: {
  change: ChangeDetail;
  canWrite: boolean;
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
          {canWrite ? (
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
