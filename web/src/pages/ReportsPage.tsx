import { useId, useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { canWriteIn } from '../components/AlertBits';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DataTable } from '../components/DataTable';
import { SelectField, TextField } from '../components/Field';
import { allMonitors } from '../components/MonitorBits';
import { MonitorPicker } from '../components/MonitorPicker';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import {
  dayRange,
  downloadRun,
  latestRun,
  PERIOD_PRESETS,
  type PresetName,
  periodText,
  REPORT_FORMATS,
  REPORT_TYPES,
  reportFormatName,
  reportTypeLabel,
  runInProgress,
  RunStatusBadge,
} from '../components/ReportBits';
import { PagedList, ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { useSubmit } from '../components/useSubmit';
import { formatBytes, formatDateTime, plural } from '../format';
import { usePolling, useResource } from '../hooks/useResource';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { CurrentUser, Monitor, Report, ReportFormat, ReportRun, ReportType } from '../types';

const PER_PAGE = 20;
/** A run in progress is read again this often. */
const POLL_MS = 1_500;

/** `/reports`: the workspace's reports, newest first, and a form to create one. */
export function ReportsPage({ me }: { me: CurrentUser }) {
  const canWrite = canWriteIn(me);
  const { search } = useLocation();
  const page = pageParam(search);
  const reports = useResource(withQuery('/reports', { page }), (signal) =>
    ok(api.GET('/reports', { params: { query: { page, per_page: PER_PAGE } }, signal })),
  );
  const monitors = useResource(canWrite ? '/monitors?all' : null, allMonitors);
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
          {canWrite ? (
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

type PeriodChoice = PresetName | 'days';

function CreateReportForm({ monitors, onCreated }: { monitors: Monitor[]; onCreated: (report: Report) => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<ReportType>('uptime');
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [period, setPeriod] = useState<PeriodChoice>('last_30_days');
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [format, setFormat] = useState<ReportFormat>('pdf');
  const [local, setLocal] = useState<{ name?: string; first?: string; last?: string }>({});
  const forMonitors = type !== 'release_checks';

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: typeof local = {};
      if (!name.trim()) problems.name = 'Name the report, such as “Monthly uptime”.';
      if (period === 'days') {
        if (!first) problems.first = 'Enter the first day of the period.';
        if (!last) problems.last = 'Enter the last day of the period.';
        else if (first && last < first) problems.last = 'The last day cannot come before the first.';
      }
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const report = await ok(
        api.POST('/reports', {
          body: {
            name: name.trim(),
            type,
            monitor_ids: forMonitors ? monitorIds : [],
            period: period === 'days' ? dayRange(first, last) : { preset: period },
            format,
          },
        }),
      );
      onCreated(report);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;
  const periodError = fieldError(error, 'period');
  const covers = REPORT_TYPES.find((item) => item.value === type)!.covers;

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {invalid ? (
        <ProblemAlert error={error} title="The report was not created: correct the fields marked below" />
      ) : (
        <ProblemAlert error={error} title="The report was not created" />
      )}
      <TextField
        id="report-name"
        label="Name"
        required
        maxLength={120}
        placeholder="e.g. Monthly uptime"
        hint="Also the start of its files’ names."
        value={name}
        onChange={setName}
        error={local.name ?? fieldError(error, 'name')}
      />
      <SelectField
        id="report-type"
        label="Type"
        value={type}
        onChange={setType}
        options={REPORT_TYPES}
        hint={`Covers ${covers}.`}
        error={fieldError(error, 'type')}
      />
      {forMonitors ? (
        <MonitorPicker
          id="report-monitors"
          legend="Monitors"
          hint="None ticked: every monitor of the workspace when the report is generated."
          monitors={monitors}
          selected={monitorIds}
          onChange={setMonitorIds}
          error={fieldError(error, 'monitor_ids')}
        />
      ) : (
        <p className="small muted">A release checks report covers every release check of the workspace.</p>
      )}
      <fieldset className="field" aria-describedby={periodError ? 'report-period-error' : 'report-period-hint'}>
        <legend>Period</legend>
        <p id="report-period-hint" className="hint">
          A preset covers the time up to each generation; days are fixed, at most 366.
        </p>
        <ul className="scope-options">
          {[...PERIOD_PRESETS, { value: 'days' as const, label: 'Between two days (UTC)' }].map((choice) => (
            <li key={choice.value} className="check">
              <input
                id={`report-period-${choice.value}`}
                type="radio"
                name="report-period"
                checked={period === choice.value}
                onChange={() => setPeriod(choice.value)}
              />
              <label htmlFor={`report-period-${choice.value}`}>{choice.label}</label>
            </li>
          ))}
        </ul>
        {period === 'days' ? (
          <div className="rule-form-grid">
            <TextField
              id="report-first-day"
              type="date"
              label="First day"
              required
              value={first}
              onChange={setFirst}
              error={local.first}
            />
            <TextField
              id="report-last-day"
              type="date"
              label="Last day (included)"
              required
              value={last}
              onChange={setLast}
              error={local.last}
            />
          </div>
        ) : null}
        {periodError ? (
          <p id="report-period-error" className="field-error">
            {periodError}
          </p>
        ) : null}
      </fieldset>
      <SelectField
        id="report-format"
        label="Format"
        value={format}
        onChange={setFormat}
        options={REPORT_FORMATS}
        error={fieldError(error, 'format')}
      />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create report'}
      </button>
    </form>
  );
}

/** `/reports/:id`: a report: generate it (with its progress), its runs with their files, delete it. */
export function ReportPage({ id, me }: { id: string; me: CurrentUser }) {
  const canWrite = canWriteIn(me);
  const resource = useResource(`/reports/${id}`, (signal) =>
    ok(api.GET('/reports/{id}', { params: { path: { id } }, signal })),
  );
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
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to="/reports">Reports</Link>
          </li>
          {report ? (
            <li>
              <span aria-current="page">{report.name}</span>
            </li>
          ) : null}
        </ol>
      </nav>
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
              {canWrite ? (
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
            {canWrite ? null : (
              <p className="alert alert-info">
                You are a viewer of {me.workspace.name}: you can read this report and download its files, but only a
                member or admin can generate or delete it.
              </p>
            )}
            <ProblemAlert error={error} title="The report was not generated" />
            <Progress report={loaded} generating={generating} followed={followed} />
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

/**
 * What generation is doing, in words, in a live region: waiting for the API's answer, a run queued or generating
 * (with how often the page checks), then how the run started here ended.
 */
function Progress({ report, generating, followed }: { report: Report; generating: boolean; followed: string | null }) {
  const running = report.runs.find(runInProgress);
  const ended = report.runs.find((run) => run.id === followed && !runInProgress(run));
  let content = null;
  if (generating) {
    content = (
      <p className="progress">
        Generating the report… Vigil waits up to 30 seconds for it; a longer one is followed here until it is ready.
      </p>
    );
  } else if (running) {
    content = (
      <p className="progress">
        {running.status === 'queued'
          ? `The run requested ${formatDateTime(running.created_at)} is queued, waiting for a worker.`
          : `The run requested ${formatDateTime(running.created_at)} is being generated.`}{' '}
        This page checks again every {POLL_MS / 1000} seconds.
      </p>
    );
  } else if (ended?.status === 'ready') {
    content = (
      <p className="alert alert-success">
        The report is ready: {formatBytes(ended.size ?? 0)}, generated {formatDateTime(ended.generated_at)}. Download it
        from the runs below.
      </p>
    );
  } else if (ended?.status === 'failed') {
    content = (
      <div className="alert alert-danger">
        <p className="alert-title">The report could not be generated</p>
        <p>{ended.failure ?? 'The service gave no reason.'}</p>
      </div>
    );
  }
  return (
    <div role="status" className="report-progress">
      {content}
    </div>
  );
}

function ReportFacts({ report }: { report: Report }) {
  const monitors = useResource(report.monitor_ids.length ? '/monitors?all' : null, allMonitors);
  const named = new Map((monitors.data ?? []).map((monitor) => [monitor.id, monitor.name]));
  const covers = REPORT_TYPES.find((item) => item.value === report.type)!.covers;
  let which: string;
  if (report.type === 'release_checks') which = 'Every release check';
  else if (report.monitor_ids.length === 0) which = 'Every monitor of the workspace when generated';
  else if (monitors.error) which = plural(report.monitor_ids.length, 'monitor');
  else which = report.monitor_ids.map((monitorId) => named.get(monitorId) ?? '…').join(', ');
  return (
    <dl className="meta-grid report-facts">
      <div>
        <dt>Covers</dt>
        <dd>{covers.charAt(0).toUpperCase() + covers.slice(1)}</dd>
      </div>
      <div>
        <dt>{report.type === 'release_checks' ? 'Release checks' : 'Monitors'}</dt>
        <dd>{which}</dd>
      </div>
      <div>
        <dt>Period</dt>
        <dd>{periodText(report.period)}</dd>
      </div>
      <div>
        <dt>Format</dt>
        <dd>{REPORT_FORMATS.find((item) => item.value === report.format)!.label}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>{formatDateTime(report.created_at)}</dd>
      </div>
    </dl>
  );
}

function Runs({ report }: { report: Report }) {
  return (
    <section aria-labelledby="runs-heading" className="card runs">
      <h2 id="runs-heading">Runs</h2>
      <p className="small muted">The latest 20, newest first. A ready run’s file never changes.</p>
      {report.runs.length === 0 ? (
        <p className="muted">Not generated yet.</p>
      ) : (
        <ol className="run-list">
          {report.runs.map((run) => (
            <RunItem key={run.id} report={report} run={run} />
          ))}
        </ol>
      )}
    </section>
  );
}

function RunItem({ report, run }: { report: Report; run: ReportRun }) {
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const requested = formatDateTime(run.created_at);

  async function download() {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const { fileName, size } = await downloadRun(report, run);
      setNote(`Downloaded ${fileName} (${formatBytes(size)}).`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="run" data-run-id={run.id}>
      <article aria-labelledby={headingId}>
        <div className="destination-head">
          <h3 id={headingId}>Run requested {requested}</h3>
          <p className="check-badges">
            <RunStatusBadge status={run.status} />
          </p>
        </div>
        <dl className="meta-grid run-facts">
          <div>
            <dt>Period</dt>
            <dd>
              {formatDateTime(run.period.from)} to {formatDateTime(run.period.to)}
            </dd>
          </div>
          <div>
            <dt>Generated</dt>
            <dd>{run.generated_at ? formatDateTime(run.generated_at) : runInProgress(run) ? 'In progress' : '—'}</dd>
          </div>
          <div>
            <dt>Size</dt>
            <dd>{run.size === null ? '—' : formatBytes(run.size)}</dd>
          </div>
          <div className="run-sha">
            <dt>SHA-256</dt>
            <dd>{run.sha256 ? <code>{run.sha256}</code> : '—'}</dd>
          </div>
        </dl>
        {run.status === 'failed' ? (
          <p className="alert alert-danger">Failed: {run.failure ?? 'the service gave no reason.'}</p>
        ) : null}
        {run.status === 'ready' ? (
          <button
            type="button"
            className="button button-small button-secondary"
            disabled={busy}
            onClick={() => void download()}
          >
            {busy ? 'Downloading…' : `Download ${reportFormatName(report.format)}`}
            <span className="visually-hidden"> of the run requested {requested}</span>
          </button>
        ) : null}
        <div role="status">{note ? <p className="small text-success run-note">{note}</p> : null}</div>
        <ProblemAlert error={error} title="The file could not be downloaded" />
      </article>
    </li>
  );
}
