import { Badge } from '../components/Badge';
import { DataTable } from '../components/DataTable';
import { formatDateTime, formatMs, formatUptime, plural } from '../format';
import { useApi } from '../hooks/useApi';
import type { CheckRun, Monitor, MonitorStatus } from '../types';

const STATUS: Record<MonitorStatus, { label: string; tone: string }> = {
  up: { label: 'Up', tone: 'success' },
  down: { label: 'Down', tone: 'danger' },
  paused: { label: 'Paused', tone: 'neutral' },
  pending: { label: 'Pending', tone: 'info' },
};

export const MONITOR_STATUSES = Object.keys(STATUS) as MonitorStatus[];

export function MonitorStatusBadge({ status }: { status: MonitorStatus }) {
  const { label, tone } = STATUS[status];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Status: </span>
      {label}
    </Badge>
  );
}

export function RegionBadges({ regions }: { regions: string[] }) {
  return (
    <ul className="scope-chips" aria-label="Regions">
      {regions.map((region) => (
        <li key={region}>
          <Badge tone="neutral">{region}</Badge>
        </li>
      ))}
    </ul>
  );
}

/** A monitor's uptime over the last 24 hours, all regions together; loaded again after each new check. */
export function Uptime24h({ monitor }: { monitor: Pick<Monitor, 'id' | 'last_checked_at'> }) {
  const id = monitor.id;
  const uptime = useApi(
    '/monitors/{id}/uptime',
    { params: { path: { id }, query: { history: '24h' } } },
    { reloadOn: monitor.last_checked_at },
  );
  if (uptime.error) return <span className="muted">unavailable</span>;
  if (!uptime.data) return <span className="muted">…</span>;
  return <>{formatUptime(uptime.data.uptime['24h'])}</>;
}

/** The answer of "Check now": one row per region, passed or failed, with the status, time and reason. */
export function CheckRunResult({ run }: { run: CheckRun }) {
  const failed = run.results.filter((result) => !result.ok).length;
  return (
    <div className={`alert ${failed ? 'alert-warning' : 'alert-success'} check-run`} role="status">
      <p className="alert-title">
        Checked “{run.monitor.name}” now:{' '}
        {failed
          ? `failed in ${failed} of ${plural(run.results.length, 'region')}`
          : `passed in ${run.results.length === 1 ? 'its region' : `all ${run.results.length} regions`}`}
        .
      </p>
      <DataTable
        label={`Check results of ${run.monitor.name}`}
        caption={`Check results of ${run.monitor.name}, by region`}
        className="table-compact"
        rows={run.results}
        rowKey={(result) => result.id}
        columns={[
          { header: 'Region', rowHeader: true, cell: (result) => result.region },
          {
            header: 'Result',
            cell: (result) => (result.ok ? <Badge tone="success">Passed</Badge> : <Badge tone="danger">Failed</Badge>),
          },
          { header: 'HTTP status', cell: (result) => result.status_code ?? 'none' },
          { header: 'Response time', cell: (result) => formatMs(result.response_time_ms) },
          {
            header: 'Reason',
            cell: (result) =>
              result.ok ? '—' : [result.failure, result.message].filter(Boolean).join(': ') || 'unknown',
          },
          { header: 'Checked', cell: (result) => formatDateTime(result.checked_at) },
        ]}
      />
    </div>
  );
}
