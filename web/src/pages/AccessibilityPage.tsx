import { type FormEvent, useRef, useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { Badge } from '../components/Badge';
import { DataTable } from '../components/DataTable';
import { FindingList } from '../components/FindingList';
import { SelectField, TextAreaField } from '../components/Field';
import { ProblemAlert } from '../components/ProblemAlert';
import { PagedList, ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime } from '../format';
import { usePolling, useResource } from '../hooks/useResource';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { A11yAttestation, A11yReport, A11yScan, A11yScanStatus, CurrentUser } from '../types';

const POLL_MS = 2_000;

const STATUS: Record<A11yScanStatus, { label: string; tone: string }> = {
  queued: { label: 'Queued', tone: 'info' },
  running: { label: 'Scanning', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

const inProgress = (scan: Pick<A11yScan, 'status'>) => scan.status === 'queued' || scan.status === 'running';

export function ScanStatusBadge({ status }: { status: A11yScanStatus }) {
  const { label, tone } = STATUS[status];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Scan: </span>
      {label}
    </Badge>
  );
}

const canWriteIn = (me: CurrentUser) => me.workspace.role === 'admin' || me.workspace.role === 'member';

/** `/accessibility`: scans across monitors, newest first, and a form to start one. */
export function AccessibilityPage({ me }: { me: CurrentUser }) {
  const { search } = useLocation();
  const page = pageParam(search);
  const monitorId = search.get('monitor') ?? undefined;
  const scans = useResource(withQuery('/a11y-scans', { page, monitor: monitorId }), (signal) =>
    ok(api.GET('/a11y-scans', { params: { query: { page, per_page: 20, monitor_id: monitorId } }, signal })),
  );
  const monitors = useResource('/monitors?per_page=500', (signal) =>
    ok(api.GET('/monitors', { params: { query: { per_page: 500 } }, signal })),
  );
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
      {canWriteIn(me) ? (
        <StartScanForm
          monitors={monitors.data?.data ?? []}
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

function StartScanForm({
  monitors,
  initial,
  onStarted,
}: {
  monitors: { id: string; name: string }[];
  initial: string | undefined;
  onStarted: (scan: A11yScan) => void;
}) {
  const [chosen, setChosen] = useState<string>(initial ?? '');
  const [viewports, setViewports] = useState<'both' | 'desktop' | 'mobile'>('both');
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const monitorId = chosen || monitors[0]?.id || '';

  async function start(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!monitorId) {
      setLocal('Create a monitor first: a scan checks a monitor’s page.');
      return;
    }
    setLocal(null);
    setBusy(true);
    try {
      const scan = await ok(
        api.POST('/monitors/{id}/a11y-scan', {
          params: { path: { id: monitorId } },
          body: viewports === 'both' ? {} : { viewports: [viewports] },
        }),
      );
      onStarted(scan);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="start-scan-heading" className="card">
      <h2 id="start-scan-heading">Start a scan</h2>
      <form className="form form-row" onSubmit={(event) => void start(event)} noValidate>
        <SelectField
          id="scan-monitor"
          label="Monitor"
          value={monitorId}
          onChange={setChosen}
          options={monitors.map((monitor) => ({ value: monitor.id, label: monitor.name }))}
          error={local}
        />
        <SelectField
          id="scan-viewports"
          label="Viewports"
          value={viewports}
          onChange={setViewports}
          options={[
            { value: 'both', label: 'Desktop and mobile' },
            { value: 'desktop', label: 'Desktop (1440 × 900)' },
            { value: 'mobile', label: 'Mobile (390 × 844)' },
          ]}
        />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Starting…' : 'Start scan'}
        </button>
      </form>
      <ProblemAlert error={error} />
    </section>
  );
}

/** `/accessibility/scans/:id`: a scan's progress, then its report against the baseline, and attestation. */
export function A11yScanPage({ id, me }: { id: string; me: CurrentUser }) {
  const report = useResource(`/a11y-scans/${id}/report`, (signal) =>
    ok(api.GET('/a11y-scans/{id}/report', { params: { path: { id } }, signal })),
  );
  const scan = report.data?.scan ?? null;
  const monitor = useResource(scan ? `/monitors/${scan.monitor_id}` : null, (signal) =>
    ok(api.GET('/monitors/{id}', { params: { path: { id: scan?.monitor_id ?? '' } }, signal })),
  );
  const name = monitor.data?.name ?? 'Monitor';
  usePageTitle(scan ? `${name} · Accessibility scan` : 'Accessibility scan');
  usePolling(scan !== null && inProgress(scan), POLL_MS, report.reload);

  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to="/accessibility">Accessibility</Link>
          </li>
          {scan ? (
            <li>
              <span aria-current="page">
                {name}, {formatDateTime(scan.created_at)}
              </span>
            </li>
          ) : null}
        </ol>
      </nav>
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

function ReportView({
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

function Comparison({ report }: { report: A11yReport }) {
  const { comparison, baseline } = report;
  if (!comparison) {
    return (
      <section aria-labelledby="comparison-heading" className="card">
        <h2 id="comparison-heading">Compared with the baseline</h2>
        <p className="muted">
          {baseline
            ? 'Not compared yet.'
            : 'This monitor has no baseline yet: attest a scan to compare later ones with it.'}
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="comparison-heading" className="card">
      <h2 id="comparison-heading">Compared with the baseline</h2>
      {comparison.engine_version_mismatch ? (
        <p className="alert alert-warning">
          The baseline was scanned with another axe-core version ({baseline?.axe_version}); the counts are not directly
          comparable.
        </p>
      ) : null}
      <p className="small muted">
        Matched by rule, viewport and element on {comparison.viewports.join(' and ') || 'no common viewport'}.{' '}
        {comparison.new.length} new, {comparison.fixed.length} fixed, {comparison.unchanged} unchanged; needs review:{' '}
        {comparison.needs_review.new.length} new, {comparison.needs_review.fixed.length} resolved,{' '}
        {comparison.needs_review.unchanged} unchanged.
      </p>
      <h3>New ({comparison.new.length})</h3>
      {comparison.new.length ? <FindingList showViewport findings={comparison.new} /> : <p>No new violations.</p>}
      <h3>Fixed ({comparison.fixed.length})</h3>
      {comparison.fixed.length ? <FindingList showViewport findings={comparison.fixed} /> : <p>None fixed.</p>}
      {comparison.needs_review.new.length ? (
        <>
          <h3>New to review ({comparison.needs_review.new.length})</h3>
          <FindingList showViewport findings={comparison.needs_review.new} />
        </>
      ) : null}
    </section>
  );
}

function BaselineCard({ report }: { report: A11yReport }) {
  const { baseline } = report;
  return (
    <section aria-labelledby="baseline-heading" className="card">
      <h2 id="baseline-heading">Baseline</h2>
      {baseline ? (
        <>
          <p>
            {baseline.scan_id === report.scan.id ? (
              'This scan is the baseline'
            ) : (
              <Link to={`/accessibility/scans/${baseline.scan_id}`}>The baseline scan</Link>
            )}
            , attested by <strong>{baseline.attested_by?.email ?? 'someone no longer in Vigil'}</strong> on{' '}
            <time dateTime={baseline.attested_at}>{formatDateTime(baseline.attested_at)}</time> (axe-core{' '}
            {baseline.axe_version}).
          </p>
          <blockquote className="decision-note">{baseline.note}</blockquote>
        </>
      ) : (
        <p className="muted">No baseline yet: the monitor’s first attested scan becomes its baseline.</p>
      )}
    </section>
  );
}

function AttestCard({
  report,
  me,
  onAttested,
}: {
  report: A11yReport;
  me: CurrentUser;
  onAttested: (attestation: A11yAttestation) => void;
}) {
  const [note, setNote] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const noteRef = useRef<HTMLDivElement>(null);
  const { scan } = report;
  const canAttest = canWriteIn(me);

  async function attest(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(null);
    if (!note.trim()) {
      setLocal('Write a note: what you checked, how, and why these findings are acceptable as the baseline.');
      noteRef.current?.querySelector('textarea')?.focus();
      return;
    }
    setLocal(null);
    setBusy(true);
    try {
      const attestation = await ok(
        api.POST('/a11y-scans/{id}/attest', { params: { path: { id: scan.id } }, body: { note: note.trim() } }),
      );
      setNote('');
      setDone(`Attested by ${attestation.attested_by.email}: this scan is now the monitor’s baseline.`);
      onAttested(attestation);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="attest-heading" className="card review-panel">
      <h2 id="attest-heading">Attest as baseline</h2>
      {done ? (
        <p className="alert alert-success" role="status">
          {done}
        </p>
      ) : null}
      {!canAttest ? (
        <div className="alert alert-info" id="attest-not-permitted">
          <p className="alert-title">You cannot attest this scan</p>
          <p>
            You are a viewer of {me.workspace.name}: attesting a baseline is a person’s statement about the page, made
            by a member or admin of the workspace (signed in, never with an API key).
          </p>
        </div>
      ) : scan.status !== 'completed' ? (
        <p className="muted">
          {inProgress(scan) ? 'A scan can be attested once it has completed.' : 'A failed scan cannot be attested.'}
        </p>
      ) : (
        <form className="form" onSubmit={(event) => void attest(event)} noValidate>
          <p className="small">
            Later scans of this monitor are compared with the newest attested scan; earlier attestations are kept as
            history.
          </p>
          <div ref={noteRef}>
            <TextAreaField
              id="attest-note"
              label="Note"
              markRequired
              required
              rows={4}
              maxLength={2000}
              hint="What you checked, by whom and how (for example, a screen-reader pass of the checkout)."
              value={note}
              onChange={(value) => {
                setNote(value);
                if (value.trim()) setLocal(null);
              }}
              error={local}
            />
          </div>
          <ProblemAlert error={error} />
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Attesting…' : 'Attest as baseline'}
          </button>
        </form>
      )}
    </section>
  );
}
