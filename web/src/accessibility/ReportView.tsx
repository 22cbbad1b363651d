import { Badge } from '../components/Badge';
import { FindingList } from '../components/FindingList';
import { formatDateTime } from '../format';
import { Link } from '../router';
import type { A11yAttestation, A11yReport, CurrentUser } from '../types';
import { AttestCard } from './AttestCard';
import { BaselineCard, Comparison } from './BaselineComparison';
import { inProgress, ScanStatusBadge } from './scan-status';

export function ReportView({
  report,
  monitorName,
  me,
  onAttested,
}: {
  report: A11yReport;
  monitorName: string;
  me: CurrentUser;
  onAttested: (attestation: A11yAttestation) => void;
}) {
  const { scan, comparison, baseline } = report;
  const isBaseline = baseline?.scan_id === scan.id;
  return (
    <>
      <div className="page-header">
        <div>
          <p className="eyebrow">
            <Link to={`/monitors/${scan.monitor_id}`}>{monitorName}</Link>
          </p>
          <h1>Accessibility scan</h1>
          <p className="check-badges">
            <ScanStatusBadge status={scan.status} />
            {isBaseline ? <Badge tone="success">Baseline</Badge> : null}
            <span className="url muted">{scan.url}</span>
          </p>
        </div>
        <dl className="meta-grid">
          <div>
            <dt>Started</dt>
            <dd>{formatDateTime(scan.created_at)}</dd>
          </div>
          <div>
            <dt>Finished</dt>
            <dd>{scan.completed_at ? formatDateTime(scan.completed_at) : inProgress(scan) ? 'in progress' : '—'}</dd>
          </div>
          <div>
            <dt>Viewports</dt>
            <dd>{scan.viewports.join(', ')}</dd>
          </div>
          <div>
            <dt>axe-core</dt>
            <dd>{scan.axe_version ?? '—'}</dd>
          </div>
        </dl>
      </div>

      <p className="progress" role="status" aria-live="polite">
        {inProgress(scan)
          ? `The scan is ${scan.status === 'queued' ? 'queued' : 'running'}: it checks the page in Chromium at ${scan.viewports.join(' and ')}. This page updates every 2 seconds.`
          : ''}
      </p>

      {scan.status === 'failed' && scan.failure ? (
        <div className="alert alert-danger" role="alert">
          <p className="alert-title">The scan could not be completed</p>
          <p>
            {scan.failure.message}
            {scan.failure.status_code !== null ? ` (HTTP ${scan.failure.status_code})` : ''}. A page that could not be
            scanned is never reported as having no findings.
          </p>
        </div>
      ) : null}

      {scan.status === 'completed' && scan.summary ? (
        <dl className="stats">
          <div className={`stat${scan.summary.violations ? ' stat-warning' : ''}`}>
            <dt>Violations</dt>
            <dd>{scan.summary.violations}</dd>
          </div>
          <div className={`stat${comparison && comparison.new.length ? ' stat-danger' : ''}`}>
            <dt>New</dt>
            <dd>{comparison ? comparison.new.length : '—'}</dd>
          </div>
          <div className="stat">
            <dt>Fixed</dt>
            <dd>{comparison ? comparison.fixed.length : '—'}</dd>
          </div>
          <div className="stat">
            <dt>Unchanged</dt>
            <dd>{comparison ? comparison.unchanged : '—'}</dd>
          </div>
          <div className="stat">
            <dt>Needs review</dt>
            <dd>{scan.summary.needs_review}</dd>
          </div>
        </dl>
      ) : null}

      <div className="check-layout">
        <div>
          {scan.status === 'completed' ? <Comparison report={report} /> : null}
          {scan.status === 'completed' ? (
            <section aria-labelledby="all-findings-heading" className="card">
              <h2 id="all-findings-heading">All violations ({report.findings.length})</h2>
              {report.findings.length ? (
                <FindingList showViewport findings={report.findings} />
              ) : (
                <p>axe-core found no violations.</p>
              )}
              <h3>Needs review ({report.needs_review.length})</h3>
              <p className="small muted">
                Results axe-core could not decide: a person must check them. They are never counted as violations.
              </p>
              {report.needs_review.length ? <FindingList showViewport findings={report.needs_review} /> : <p>None.</p>}
            </section>
          ) : null}
        </div>
        <div className="review-column">
          <BaselineCard report={report} />
          <AttestCard report={report} me={me} onAttested={onAttested} />
        </div>
      </div>
    </>
  );
}
