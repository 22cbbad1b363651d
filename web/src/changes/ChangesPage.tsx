import { Badge } from '../components/Badge';
import { CHANGE_KIND_LABELS, FeedbackBadges, SummarySource, ValueMove } from '../components/ChangeBits';
import { SelectField } from '../components/Field';
import { PagedList } from '../components/ResourceView';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { ChangeKind } from '../types';

const KINDS: ChangeKind[] = ['content', 'value', 'visual', 'metadata'];

/** `/changes`: what changed across the workspace's monitors, newest first. */
export function ChangesPage() {
  const { search } = useLocation();
  const kind = KINDS.find((item) => item === search.get('kind'));
  const archived = search.get('archived') === 'true';
  const page = pageParam(search);
  const changes = useApi('/changes', { params: { query: { page, per_page: 20, kind, archived } } });
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
