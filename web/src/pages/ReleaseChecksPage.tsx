import { useEffect, useRef, useState } from 'react';
import { call } from '../api';
import { CollectionBadge, GateBadge, ReviewBadge } from '../components/Badge';
import { Pagination } from '../components/Pagination';
import { ProblemAlert } from '../components/ProblemAlert';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime } from '../format';
import { Link, navigate, useLocation } from '../router';
import type { Gate, ReleaseCheckList } from '../types';

const GATES: Gate[] = ['pending', 'passed', 'failed'];
const PER_PAGE = 20;

export function ReleaseChecksPage() {
  usePageTitle('Release checks');
  const { search } = useLocation();
  const gateParam = search.get('gate');
  const gate = GATES.includes(gateParam as Gate) ? (gateParam as Gate) : undefined;
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);

  const [list, setList] = useState<ReleaseCheckList | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const listRef = useRef<ReleaseCheckList | null>(null);
  listRef.current = list;

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    const load = (quiet: boolean) =>
      call<ReleaseCheckList>('GET', '/release-checks', {
        query: { page, per_page: PER_PAGE, gate },
        signal: controller.signal,
      }).then(
        (result) => {
          setList(result);
          setLoading(false);
        },
        (caught: unknown) => {
          if (controller.signal.aborted) return;
          if (!quiet) setError(caught);
          setLoading(false);
        },
      );
    void load(false);
    // Checks being collected change by themselves: refresh this page of the list quietly while any is.
    const timer = setInterval(() => {
      const collecting = listRef.current?.data.some(
        (check) => check.collection_status === 'queued' || check.collection_status === 'running',
      );
      if (collecting && document.visibilityState === 'visible') void load(true);
    }, 5_000);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [page, gate]);

  function go(next: { gate?: Gate; page?: number }) {
    const params = new URLSearchParams();
    if (next.gate) params.set('gate', next.gate);
    if (next.page && next.page > 1) params.set('page', String(next.page));
    const query = params.toString();
    navigate(`/release-checks${query ? `?${query}` : ''}`);
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
          {list && !loading ? `${list.pagination.total} ${list.pagination.total === 1 ? 'check' : 'checks'}` : ''}
          {gate ? ` with gate ${gate}` : ''}
        </p>
      </div>

      <ProblemAlert error={error} />

      {loading && !list ? (
        <p className="loading" role="status">
          Loading release checks…
        </p>
      ) : null}

      {list && list.data.length === 0 ? (
        <div className="empty-state card">
          <h2>No release checks{gate ? ` with gate ${gate}` : ''}</h2>
          <p>
            Release checks are created by your CI job with an API key (<code>POST /api/v1/release-checks</code>), for
            example with <code>vigil-gate</code>. Create a key with <code>monitors:read</code> and{' '}
            <code>monitors:write</code> under <Link to="/settings/api-keys">API keys</Link>.
          </p>
        </div>
      ) : null}

      {list && list.data.length > 0 ? (
        <>
          <ul className="check-list" aria-label="Release checks">
            {list.data.map((check) => (
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
          <Pagination
            pagination={list.pagination}
            label="Release check pages"
            onPage={(next) => go({ gate, page: next })}
          />
        </>
      ) : null}
    </>
  );
}
