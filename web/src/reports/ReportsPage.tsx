import { DataTable } from '../components/DataTable';
import { PagedList, ResourceView } from '../components/ResourceView';
import { formatDateTime } from '../format';
import { useAllMonitors } from '../hooks/useAllMonitors';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import { canWrite } from '../permissions';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { CurrentUser } from '../types';
import { CreateReportForm } from './CreateReportForm';
import { latestRun, periodText, reportFormatName, reportTypeLabel, runInProgress, RunStatusBadge } from './ReportBits';
import { POLL_MS } from './ReportBits';

const PER_PAGE = 20;

/** `/reports`: the workspace's reports, newest first, and a form to create one. */
export function ReportsPage({ me }: { me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const { search } = useLocation();
  const page = pageParam(search);
  const reports = useApi('/reports', { params: { query: { page, per_page: PER_PAGE } } });
  const monitors = useAllMonitors(mayWrite);
  // Runs in progress end by themselves: refresh the list while any is.
  usePolling(reports.data?.data.some((report) => report.runs.some(runInProgress)) ?? false, POLL_MS, reports.reload);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Reports</h1>
          <p className="lead">
            Uptime, changes, accessibility and release checks over a period, as a PDF, CSV or JSON file. A report is
            saved once and generated as often as needed; each generation is a run with its own file.
          </p>
        </div>
      </div>
      <div className="settings-layout">
        <section aria-labelledby="create-report-heading" className="card">
          <h2 id="create-report-heading">Create a report</h2>
          {mayWrite ? (
            <ResourceView
              resource={monitors}
              loadingText="Loading monitors…"
              errorTitle="The monitors could not be loaded"
            >
              {(choices) => (
                <CreateReportForm monitors={choices} onCreated={(report) => navigate(`/reports/${report.id}`)} />
              )}
            </ResourceView>
          ) : (
            <p className="alert alert-info">
              You are a viewer of {me.workspace.name}: you can read the reports and download their files, but only a
              member or admin can create, generate or delete a report.
            </p>
          )}
        </section>

        <section aria-labelledby="reports-heading" className="card">
          <h2 id="reports-heading">Reports of {me.workspace.name}</h2>
          <PagedList
            resource={reports}
            loadingText="Loading reports…"
            pagesLabel="Report list pages"
            onPage={(next) => navigate(withQuery('/reports', { page: next }))}
            empty={<p className="muted">No reports yet.</p>}
          >
            {(rows) => (
              <DataTable
                label="Reports"
                caption="Reports, newest first, with their period and latest run"
                rows={rows}
                rowKey={(report) => report.id}
                rowProps={(report) => ({ 'data-report-id': report.id })}
                columns={[
                  {
                    header: 'Report',
                    rowHeader: true,
                    cell: (report) => (
                      <>
                        <Link to={`/reports/${report.id}`}>{report.name}</Link>
                        <span className="block small muted">
                          {reportTypeLabel(report.type)}, {reportFormatName(report.format)}
                        </span>
                      </>
                    ),
                  },
                  { header: 'Period', cell: (report) => periodText(report.period) },
                  {
                    header: 'Latest run',
                    cell: (report) => {
                      const run = latestRun(report);
                      return run ? (
                        <>
                          <RunStatusBadge status={run.status} />
                          <span className="block small muted">{formatDateTime(run.created_at)}</span>
                        </>
                      ) : (
                        <span className="muted">Not generated yet</span>
                      );
                    },
                  },
                  { header: 'Created', cell: (report) => formatDateTime(report.created_at) },
                ]}
              />
            )}
          </PagedList>
        </section>
      </div>
    </>
  );
}
