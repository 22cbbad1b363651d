import { DataTable } from '../components/DataTable';
import { PagedList } from '../components/ResourceView';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import { canWrite } from '../permissions';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { CurrentUser } from '../types';
import { inProgress, POLL_MS, ScanStatusBadge } from './scan-status';
import { StartScanForm } from './StartScanForm';

/** `/accessibility`: scans across monitors, newest first, and a form to start one. */
export function AccessibilityPage({ me }: { me: CurrentUser }) {
  const { search } = useLocation();
  const page = pageParam(search);
  const monitorId = search.get('monitor') ?? undefined;
  const scans = useApi('/a11y-scans', { params: { query: { page, per_page: 20, monitor_id: monitorId } } });
  const monitors = useApi('/monitors', { params: { query: { per_page: 500 } } });
  const names = new Map(monitors.data?.data.map((monitor) => [monitor.id, monitor.name]));
  // Scans in progress end by themselves: refresh the list while any is.
  usePolling(scans.data?.data.some(inProgress) ?? false, POLL_MS, scans.reload);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Accessibility</h1>
          <p className="lead">
            axe-core scans (WCAG 2 A/AA and 2.1 AA) of your monitored pages at desktop and phone sizes, compared with
            the baseline someone attested.
          </p>
        </div>
      </div>
      {canWrite(me) ? (
        <StartScanForm
          // A heartbeat monitor has no page to scan.
          monitors={(monitors.data?.data ?? []).filter((monitor) => monitor.url !== null)}
          initial={monitorId}
          onStarted={(scan) => navigate(`/accessibility/scans/${scan.id}`)}
        />
      ) : (
        <p className="alert alert-info">
          You are a viewer of {me.workspace.name}: you can read scans and reports, but only a member or admin can start
          a scan or attest a baseline.
        </p>
      )}
      <section aria-labelledby="scans-heading">
        <h2 id="scans-heading">Scans</h2>
        {monitorId ? (
          <p>
            Scans of {names.get(monitorId) ?? 'one monitor'}.{' '}
            <Link to="/accessibility">Show every monitor’s scans</Link>
          </p>
        ) : null}
        <PagedList
          resource={scans}
          loadingText="Loading scans…"
          pagesLabel="Scan pages"
          onPage={(next) => navigate(withQuery('/accessibility', { page: next, monitor: monitorId }))}
          empty={<p className="muted">No scans yet.</p>}
        >
          {(rows) => (
            <DataTable
              label="Accessibility scans"
              caption="Accessibility scans, newest first"
              rows={rows}
              rowKey={(scan) => scan.id}
              rowProps={(scan) => ({ 'data-scan-id': scan.id })}
              columns={[
                {
                  header: 'Scan',
                  rowHeader: true,
                  cell: (scan) => (
                    <>
                      <Link to={`/accessibility/scans/${scan.id}`}>
                        {names.get(scan.monitor_id) ?? 'Monitor'}, {formatDateTime(scan.created_at)}
                      </Link>
                      <span className="block small muted url">{scan.url}</span>
                    </>
                  ),
                },
                { header: 'Status', cell: (scan) => <ScanStatusBadge status={scan.status} /> },
                { header: 'Viewports', cell: (scan) => scan.viewports.join(', ') },
                {
                  header: 'Violations',
                  cell: (scan) => (scan.summary ? scan.summary.violations : '—'),
                },
                {
                  header: 'New / fixed',
                  cell: (scan) =>
                    scan.summary && scan.summary.new !== null
                      ? `${scan.summary.new} new, ${scan.summary.fixed ?? 0} fixed`
                      : scan.summary
                        ? 'no baseline'
                        : '—',
                },
                { header: 'Needs review', cell: (scan) => (scan.summary ? scan.summary.needs_review : '—') },
              ]}
            />
          )}
        </PagedList>
      </section>
    </>
  );
}
