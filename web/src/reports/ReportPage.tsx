import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ProblemAlert } from '../components/ProblemAlert';
import { ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { plural } from '../format';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import { canWrite } from '../permissions';
import { navigate } from '../router';
import type { CurrentUser } from '../types';
import { reportFormatName, reportTypeLabel, runInProgress } from './ReportBits';
import { POLL_MS } from './ReportBits';
import { ReportFacts } from './ReportFacts';
import { ReportProgress } from './ReportProgress';
import { Runs } from './Runs';
import { Breadcrumb } from '../components/Breadcrumb';

/** `/reports/:id`: a report: generate it (with its progress), its runs with their files, delete it. */
export function ReportPage({ id, me }: { id: string; me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const resource = useApi('/reports/{id}', { params: { path: { id } } });
  const report = resource.data;
  usePageTitle(report ? `${report.name} · Report` : 'Report');
  // A run in progress (started here or elsewhere) is followed until it is ready or failed.
  usePolling(report?.runs.some(runInProgress) ?? false, POLL_MS, resource.reload);
  const [generating, setGenerating] = useState(false);
  const [followed, setFollowed] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [deleting, setDeleting] = useState(false);

  async function generate() {
    setGenerating(true);
    setError(null);
    setFollowed(null);
    try {
      // 200 with the finished run, or 202 with a run still queued or generating: the polling follows it.
      const run = await ok(api.POST('/reports/{id}/generate', { params: { path: { id } } }));
      setFollowed(run.id);
      resource.mutate((current) => ({ ...current, runs: [run, ...current.runs.filter((item) => item.id !== run.id)] }));
    } catch (caught) {
      setError(caught);
    } finally {
      setGenerating(false);
    }
  }

  return (
    <>
      <Breadcrumb trail={[{ to: '/reports', label: 'Reports' }]} current={report ? report.name : null} />
      {!report && resource.error ? <h1>Report</h1> : null}
      <ResourceView
        resource={resource}
        loadingText="Loading the report…"
        errorTitle={
          resource.error instanceof ProblemError && resource.error.status === 404 ? 'Report not found' : undefined
        }
      >
        {(loaded) => (
          <>
            <div className="page-header">
              <div className="report-title">
                <p className="eyebrow">Report</p>
                <h1>{loaded.name}</h1>
                <p className="check-badges">
                  <span className="badge badge-neutral">{reportTypeLabel(loaded.type)}</span>
                  <span className="badge badge-neutral">{reportFormatName(loaded.format)}</span>
                </p>
              </div>
              {mayWrite ? (
                <div className="button-row">
                  <button
                    type="button"
                    className="button button-primary"
                    disabled={generating}
                    onClick={() => void generate()}
                  >
                    {generating ? 'Generating…' : 'Generate now'}
                  </button>
                  <button type="button" className="button button-danger-outline" onClick={() => setDeleting(true)}>
                    Delete<span className="visually-hidden"> {loaded.name}</span>
                  </button>
                </div>
              ) : null}
            </div>
            {mayWrite ? null : (
              <p className="alert alert-info">
                You are a viewer of {me.workspace.name}: you can read this report and download its files, but only a
                member or admin can generate or delete it.
              </p>
            )}
            <ProblemAlert error={error} title="The report was not generated" />
            <ReportProgress report={loaded} generating={generating} followed={followed} />
            <ReportFacts report={loaded} />
            <Runs report={loaded} />

            {deleting ? (
              <ConfirmDialog
                title={`Delete “${loaded.name}”?`}
                confirmLabel="Delete report"
                busyLabel="Deleting…"
                onConfirm={async () => {
                  await ok(api.DELETE('/reports/{id}', { params: { path: { id: loaded.id } } }));
                  navigate('/reports');
                }}
                onClose={() => setDeleting(false)}
              >
                <p>
                  Its {plural(loaded.runs.length, 'run')} and their files are deleted with it. This cannot be undone.
                </p>
              </ConfirmDialog>
            ) : null}
          </>
        )}
      </ResourceView>
    </>
  );
}
