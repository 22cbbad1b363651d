import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { AlertRules } from '../components/AlertRules';
import { Badge } from '../components/Badge';
import { ChangeScreenshots, FeedbackBadges, SummarySource, ValueMove } from '../components/ChangeBits';
import { CopyField } from '../components/CopyField';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/Field';
import { MonitorStatusBadge, RegionBadges } from '../components/MonitorBits';
import { ProblemAlert } from '../components/ProblemAlert';
import { PagedList, ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { TimeLineChart, UptimeBarChart } from '../charts/charts';
import { formatDateTime, formatInterval, formatMs, formatUptime, plural } from '../format';
import { useResource } from '../hooks/useResource';
import { Link } from '../router';
import type { CurrentUser, Monitor, TrackedValue, TrackedValueSpec, Uptime, UptimeWindow } from '../types';
import { MonitorActions, useMonitorActions } from './MonitorsPage';

const WINDOWS: { value: UptimeWindow; label: string }[] = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
];

const hourLabel = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayHourLabel = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: '2-digit' });
const dayLabel = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const readingLabel = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const TIME_LABEL: Record<UptimeWindow, (date: Date) => string> = {
  '24h': (date) => hourLabel.format(date),
  '7d': (date) => dayHourLabel.format(date),
  '30d': (date) => dayLabel.format(date),
};

export function MonitorPage({ id, me }: { id: string; me: CurrentUser }) {
  const canWrite = me.workspace.role === 'admin' || me.workspace.role === 'member';
  const resource = useResource(`/monitors/${id}`, (signal) =>
    ok(api.GET('/monitors/{id}', { params: { path: { id } }, signal })),
  );
  const monitor = resource.data;
  usePageTitle(monitor ? `${monitor.name} · Monitor` : 'Monitor');
  const actions = useMonitorActions((updated) => resource.mutate(() => updated));

  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to="/monitors">Monitors</Link>
          </li>
          {monitor ? (
            <li>
              <span aria-current="page">{monitor.name}</span>
            </li>
          ) : null}
        </ol>
      </nav>
      {!monitor && resource.error ? <h1>Monitor</h1> : null}
      <ResourceView
        resource={resource}
        loadingText="Loading monitor…"
        errorTitle={
          resource.error instanceof ProblemError && resource.error.status === 404 ? 'Monitor not found' : undefined
        }
      >
        {(loaded) => (
          <>
            <div className="page-header">
              <div>
                <h1>{loaded.name}</h1>
                <p className="check-badges">
                  <MonitorStatusBadge status={loaded.status} />
                  <span className="url muted">{loaded.url}</span>
                </p>
              </div>
              <div className="button-row">
                <Link to={`/accessibility?monitor=${loaded.id}`} className="button button-secondary button-small">
                  Accessibility scans
                </Link>
                {canWrite ? (
                  <>
                    <Link to={`/monitors/${loaded.id}/edit`} className="button button-secondary button-small">
                      Edit<span className="visually-hidden"> {loaded.name}</span>
                    </Link>
                    <MonitorActions monitor={loaded} actions={actions} />
                  </>
                ) : null}
              </div>
            </div>
            {actions.feedback}
            <Facts monitor={loaded} />
            <UptimeSection monitor={loaded} />
            <div className="monitor-layout">
              <Timeline monitor={loaded} />
              <div className="monitor-side">
                <TrackedValues monitor={loaded} />
                <AlertRules monitor={loaded} me={me} />
                <BadgeCard monitor={loaded} canWrite={canWrite} onChanged={(next) => resource.mutate(() => next)} />
              </div>
            </div>
          </>
        )}
      </ResourceView>
    </>
  );
}

function Facts({ monitor }: { monitor: Monitor }) {
  return (
    <dl className="meta-grid monitor-facts">
      <div>
        <dt>Mode</dt>
        <dd>{monitor.mode === 'browser' ? 'Browser (Chromium, with screenshots)' : 'HTTP'}</dd>
      </div>
      <div>
        <dt>Checked every</dt>
        <dd>{formatInterval(monitor.interval_seconds)}</dd>
      </div>
      <div>
        <dt>Regions</dt>
        <dd>
          <RegionBadges regions={monitor.regions} />
        </dd>
      </div>
      <div>
        <dt>Last check</dt>
        <dd>{monitor.last_checked_at ? formatDateTime(monitor.last_checked_at) : 'Not yet'}</dd>
      </div>
      <div>
        <dt>Next check</dt>
        <dd>{monitor.paused ? 'Paused' : formatDateTime(monitor.next_check_at)}</dd>
      </div>
      <div>
        <dt>Keyword</dt>
        <dd>{monitor.keyword ? <code className="value">{monitor.keyword}</code> : 'None'}</dd>
      </div>
      <div>
        <dt>Selector</dt>
        <dd>{monitor.selector ? <code className="value">{monitor.selector}</code> : 'The whole page'}</dd>
      </div>
      <div>
        <dt>Expected status</dt>
        <dd>
          {monitor.expected_status.min}–{monitor.expected_status.max}
        </dd>
      </div>
    </dl>
  );
}

/** Uptime per region and overall, with the response-time chart of the chosen window. */
function UptimeSection({ monitor }: { monitor: Monitor }) {
  const [history, setHistory] = useState<UptimeWindow>('24h');
  const id = monitor.id;
  const regions = monitor.regions;
  const uptime = useResource(
    `/monitors/${id}/uptime?history=${history}&regions=${regions.join(',')}#${monitor.last_checked_at ?? ''}`,
    async (signal) => {
      const one = (region: string | undefined) =>
        ok(api.GET('/monitors/{id}/uptime', { params: { path: { id }, query: { region, history } }, signal }));
      const [overall, ...perRegion] = await Promise.all([one(undefined), ...regions.map((region) => one(region))]);
      return { overall, perRegion };
    },
  );

  const rows: { label: string; figures: Uptime }[] = uptime.data
    ? [
        { label: 'All regions', figures: uptime.data.overall },
        ...uptime.data.perRegion.map((figures) => ({ label: figures.region ?? '?', figures })),
      ]
    : [];
  const windowLabel = WINDOWS.find((item) => item.value === history)!.label.toLowerCase();

  return (
    <section aria-labelledby="uptime-heading" className="card">
      <h2 id="uptime-heading">Uptime and response time</h2>
      <ResourceView resource={uptime} loadingText="Loading uptime…">
        {(data) => (
          <>
            <DataTable
              label="Uptime by region"
              caption="Uptime by region over 24 hours, 7 days and 30 days"
              className="uptime-table"
              rows={rows}
              rowKey={(row) => row.label}
              columns={[
                { header: 'Region', rowHeader: true, cell: (row) => row.label },
                ...(['24h', '7d', '30d'] as const).map((window) => ({
                  header: { '24h': '24 h', '7d': '7 d', '30d': '30 d' }[window],
                  cell: (row: (typeof rows)[number]) => (
                    <>
                      {formatUptime(row.figures.uptime[window])}
                      <span className="block small muted">{plural(row.figures.checks[window], 'check')}</span>
                    </>
                  ),
                })),
              ]}
            />
            <div className="chart-grid">
              <UptimeBarChart
                caption="Uptime by window, all regions"
                bars={[
                  { label: '24 hours', value: data.overall.uptime['24h'] },
                  { label: '7 days', value: data.overall.uptime['7d'] },
                  { label: '30 days', value: data.overall.uptime['30d'] },
                ]}
                summary={`Uptime over all regions: ${formatUptime(data.overall.uptime['24h'])} over 24 hours, ${formatUptime(data.overall.uptime['7d'])} over 7 days, ${formatUptime(data.overall.uptime['30d'])} over 30 days.`}
              />
              <div>
                <SelectField
                  id="response-window"
                  label="Response times over"
                  className="field-inline"
                  value={history}
                  onChange={setHistory}
                  options={WINDOWS}
                />
                {data.overall.response_times.length === 0 ? (
                  <p className="muted">No checks in the {windowLabel}.</p>
                ) : (
                  <TimeLineChart
                    caption={`Average response time, ${windowLabel}, all regions`}
                    unit="Average response time"
                    points={data.overall.response_times.map((point) => ({ t: point.t, value: point.ms }))}
                    format={formatMs}
                    timeLabel={TIME_LABEL[history]}
                    summary={responseSummary(data.overall, windowLabel)}
                  />
                )}
              </div>
            </div>
          </>
        )}
      </ResourceView>
    </section>
  );
}

function responseSummary(uptime: Uptime, windowLabel: string): string {
  const values = uptime.response_times.map((point) => point.ms);
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return `Over the ${windowLabel}, ${plural(values.length, uptime.history === '30d' ? 'day' : 'hour')} with checks: fastest ${formatMs(Math.min(...values))}, slowest ${formatMs(Math.max(...values))}, mean ${formatMs(mean)}.`;
}

/** The monitor's changes, newest first, with the screenshots of browser monitors. */
function Timeline({ monitor }: { monitor: Monitor }) {
  const [page, setPage] = useState(1);
  const id = monitor.id;
  const timeline = useResource(`/monitors/${id}/timeline?page=${page}#${monitor.last_checked_at ?? ''}`, (signal) =>
    ok(api.GET('/monitors/{id}/timeline', { params: { path: { id }, query: { page, per_page: 10 } }, signal })),
  );
  return (
    <section aria-labelledby="timeline-heading" className="card">
      <h2 id="timeline-heading">Timeline of changes</h2>
      <PagedList
        resource={timeline}
        loadingText="Loading changes…"
        pagesLabel="Timeline pages"
        onPage={setPage}
        empty={
          <p className="muted">No changes yet: Vigil records one when the watched text or a tracked value moves.</p>
        }
      >
        {(changes) => (
          <ol className="timeline">
            {changes.map((change) => (
              <li key={change.id} className="timeline-item">
                <p className="timeline-when">
                  <time dateTime={change.detected_at}>{formatDateTime(change.detected_at)}</time>
                  <span className="muted"> · {change.region}</span>
                </p>
                <p className="timeline-summary">
                  <Link to={`/changes/${change.id}`}>{change.summary.text}</Link>
                </p>
                <p className="check-badges">
                  <Badge tone="neutral">{change.kind === 'value' ? 'Value' : 'Content'}</Badge>
                  <SummarySource source={change.summary.source} />
                  <FeedbackBadges change={change} />
                </p>
                {change.value ? <ValueMove value={change.value} /> : null}
                {change.before_screenshot_url || change.after_screenshot_url ? (
                  <ChangeScreenshots
                    change={change}
                    className="screenshots timeline-shots"
                    alt={(label) => `${label} the change of ${formatDateTime(change.detected_at)}`}
                  />
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </PagedList>
    </section>
  );
}

function TrackedValues({ monitor }: { monitor: Monitor }) {
  if (monitor.tracked_values.length === 0) return null;
  return (
    <section aria-labelledby="tracked-heading" className="card">
      <h2 id="tracked-heading">Tracked values</h2>
      {monitor.tracked_values.map((spec) => (
        <TrackedValueView key={spec.name} monitor={monitor} spec={spec} />
      ))}
    </section>
  );
}

function readingText(reading: TrackedValue): string {
  if (reading.raw === null) return 'not found on the page';
  return reading.raw;
}

function TrackedValueView({ monitor, spec }: { monitor: Monitor; spec: TrackedValueSpec }) {
  const id = monitor.id;
  const readings = useResource(
    `/monitors/${id}/tracked-values?name=${spec.name}#${monitor.last_checked_at ?? ''}`,
    (signal) =>
      ok(
        api.GET('/monitors/{id}/tracked-values', {
          params: { path: { id }, query: { name: spec.name, per_page: 50 } },
          signal,
        }),
      ),
  );
  return (
    <div className="tracked-value">
      <h3>
        {spec.name} <span className="muted small">({spec.kind})</span>
      </h3>
      <p className="small muted">
        <code className="value">{spec.selector}</code>
      </p>
      <ResourceView resource={readings} loadingText={`Loading ${spec.name}…`}>
        {(list) => {
          const newest = list.data[0];
          if (!newest) return <p className="muted">Not read yet: the next check reads it.</p>;
          const points = list.data
            .filter((reading) => reading.amount !== null)
            .map((reading) => ({ t: reading.captured_at, value: reading.amount! }))
            .reverse();
          const currency = newest.currency ?? '';
          const format = (value: number) => `${currency ? `${currency} ` : ''}${value.toLocaleString()}`;
          return (
            <>
              <p className="tracked-latest">
                Latest: <strong>{readingText(newest)}</strong>{' '}
                <span className="small muted">
                  ({newest.region}, {formatDateTime(newest.captured_at)})
                </span>
              </p>
              {spec.kind !== 'text' && points.length > 1 ? (
                <TimeLineChart
                  caption={`${spec.name} over its last ${plural(points.length, 'reading')}`}
                  unit={spec.name}
                  points={points}
                  format={format}
                  fromZero={false}
                  timeLabel={(date) => readingLabel.format(date)}
                  summary={`${spec.name} went from ${format(points[0].value)} to ${format(points[points.length - 1].value)}; lowest ${format(Math.min(...points.map((point) => point.value)))}, highest ${format(Math.max(...points.map((point) => point.value)))}.`}
                />
              ) : null}
            </>
          );
        }}
      </ResourceView>
    </div>
  );
}

function BadgeCard({
  monitor,
  canWrite,
  onChanged,
}: {
  monitor: Monitor;
  canWrite: boolean;
  onChanged: (monitor: Monitor) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const path = { params: { path: { id: monitor.id } } };

  async function toggle() {
    setBusy(true);
    setError(null);
    try {
      if (monitor.badge_enabled) {
        await ok(api.DELETE('/monitors/{id}/badge', path));
        onChanged({ ...monitor, badge_enabled: false, badge_url: null });
      } else {
        const badge = await ok(api.POST('/monitors/{id}/badge', path));
        onChanged({ ...monitor, badge_enabled: true, badge_url: badge.url });
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  const absolute = monitor.badge_url ? new URL(monitor.badge_url, window.location.origin).toString() : null;
  return (
    <section aria-labelledby="badge-heading" className="card">
      <h2 id="badge-heading">Status badge</h2>
      {monitor.badge_enabled && absolute ? (
        <>
          <p>
            <img src={absolute} alt={`Status badge of ${monitor.name}`} className="status-badge" />
          </p>
          <p className="small muted">Public: anyone with the address sees the monitor’s name and status.</p>
          <CopyField id="badge-markdown" label="Markdown" value={`![${monitor.name} status](${absolute})`} />
        </>
      ) : (
        <p className="muted">The badge is off. Turned on, it shows this monitor’s status on a README or status page.</p>
      )}
      <ProblemAlert error={error} />
      {canWrite ? (
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => void toggle()}>
          {busy ? 'Saving…' : monitor.badge_enabled ? 'Disable badge' : 'Enable badge'}
        </button>
      ) : null}
    </section>
  );
}
