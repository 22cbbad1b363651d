import { ProblemError } from '../api';
import { ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import type { CurrentUser } from '../types';
import { ReportView } from './ReportView';
import { inProgress, POLL_MS } from './scan-status';
import { Breadcrumb } from '../components/Breadcrumb';

/** `/accessibility/scans/:id`: a scan's progress, then its report against the baseline, and attestation. */
export function A11yScanPage({ id, me }: { id: string; me: CurrentUser }) {
  const report = useApi('/a11y-scans/{id}/report', { params: { path: { id } } });
  const scan = report.data?.scan ?? null;
  const monitor = useApi('/monitors/{id}', scan ? { params: { path: { id: scan.monitor_id } } } : null);
  const name = monitor.data?.name ?? 'Monitor';
  usePageTitle(scan ? `${name} · Accessibility scan` : 'Accessibility scan');
  usePolling(scan !== null && inProgress(scan), POLL_MS, report.reload);

  return (
    <>
      <Breadcrumb
        trail={[{ to: '/accessibility', label: 'Accessibility' }]}
        current={scan ? `${name}, ${formatDateTime(scan.created_at)}` : null}
      />
      {!report.data && report.error ? <h1>Accessibility scan</h1> : null}
      <ResourceView
        resource={report}
        loadingText="Loading the scan…"
        errorTitle={report.error instanceof ProblemError && report.error.status === 404 ? 'Scan not found' : undefined}
      >
        {(loaded) => (
          <ReportView
            report={loaded}
            monitorName={name}
            me={me}
            onAttested={(attestation) => {
              // The new baseline shows at once; the comparison is loaded again with it.
              report.mutate((current) => ({
                ...current,
                baseline: {
                  scan_id: attestation.scan_id,
                  attested_by: attestation.attested_by,
                  attested_at: attestation.attested_at,
                  note: attestation.note,
                  axe_version: attestation.axe_version,
                },
              }));
              report.reload();
            }}
          />
        )}
      </ResourceView>
    </>
  );
}
