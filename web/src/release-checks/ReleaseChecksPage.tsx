import { CollectionBadge, GateBadge, ReviewBadge } from '../components/Badge';
import { PagedList } from '../components/ResourceView';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { Gate } from '../types';

const GATES: Gate[] = ['pending', 'passed', 'failed'];
const PER_PAGE = 20;

export function ReleaseChecksPage() {
  const { search } = useLocation();
  const gateParam = search.get('gate');
  const gate = GATES.find((item) => item === gateParam);
  const page = pageParam(search);

  const list = useApi('/release-checks', { params: { query: { page, per_page: PER_PAGE, gate } } });
  // Checks being collected change by themselves: refresh this page of the list while any is.
  const collecting =
    list.data?.data.some((check) => check.collection_status === 'queued' || check.collection_status === 'running') ??
    false;
  usePolling(collecting, 5_000, list.reload);

  function go(next: { gate?: Gate; page?: number }) {
    navigate(withQuery('/release-checks', next));
  }

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Release checks</h1>
          <p className="lead">
            Production compared with preview, newest first. A gate passes only after a person approves the evidence.
          </p>
        </div>
      </div>

      <div className="toolbar">
        <div className="field field-inline">
          <label htmlFor="gate-filter">Gate</label>
          <select
            id="gate-filter"
            value={gate ?? ''}
            onChange={(event) => go({ gate: (event.target.value || undefined) as Gate | undefined })}
          >
            <option value="">All gates</option>
            <option value="pending">Pending</option>
            <option value="passed">Passed</option>
            <option value="failed">Failed</option>
          </select>
        </div>
        <p className="muted toolbar-count" aria-live="polite">
          {list.data && !list.loading
            ? `${list.data.pagination.total} ${list.data.pagination.total === 1 ? 'check' : 'checks'}`
            : ''}
          {gate ? ` with gate ${gate}` : ''}
        </p>
      </div>

      <PagedList
        resource={list}
        loadingText="Loading release checks…"
        pagesLabel="Release check pages"
        onPage={(next) => go({ gate, page: next })}
        empty={
          <div className="empty-state card">
            <h2>No release checks{gate ? ` with gate ${gate}` : ''}</h2>
            <p>
              Release checks are created by your CI job with an API key (<code>POST /api/v1/release-checks</code>), for
              example with <code>vigil-gate</code>. Create a key with <code>monitors:read</code> and{' '}
              <code>monitors:write</code> under <Link to="/settings/api-keys">API keys</Link>.
            </p>
          </div>
        }
      >
        {(checks) => (
          <ul className="check-list" aria-label="Release checks">
            {checks.map((check) => (
              <li key={check.id} className="check-row card">
                <div className="check-row-main">
                  <h2 className="check-row-title">
                    <Link to={`/release-checks/${check.id}`}>{check.name}</Link>
                  </h2>
                  <p className="check-row-meta">
                    <span>Revision {check.revision}</span>
                    <span aria-hidden="true"> · </span>
                    <span>
                      {check.pages.length} {check.pages.length === 1 ? 'page' : 'pages'} × {check.viewports.join(', ')}
                    </span>
                    <span aria-hidden="true"> · </span>
                    <span>
                      Created <time dateTime={check.created_at}>{formatDateTime(check.created_at)}</time>
                    </span>
                  </p>
                  <p className="check-row-urls muted">
                    <span className="url">{check.production_url}</span> →{' '}
                    <span className="url">{check.preview_url}</span>
                  </p>
                </div>
                <div className="check-row-status">
                  <GateBadge gate={check.gate} />
                  <CollectionBadge status={check.collection_status} />
                  <ReviewBadge status={check.review.status} />
                  {check.summary.with_differences > 0 ? (
                    <span className="muted small">
                      {check.summary.with_differences} of {check.summary.pairs} with differences
                    </span>
                  ) : null}
                  {check.summary.missing > 0 ? (
                    <span className="text-danger small">{check.summary.missing} missing evidence</span>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </>
  );
}
