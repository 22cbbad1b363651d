import { useState } from 'react';
import { api, ok } from '../api';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/Field';
import {
  CheckRunResult,
  MONITOR_STATUSES,
  MonitorStatusBadge,
  RegionBadges,
  Uptime24h,
} from '../components/MonitorBits';
import { ProblemAlert } from '../components/ProblemAlert';
import { PagedList } from '../components/ResourceView';
import { formatDateTime, formatInterval } from '../format';
import { useResource } from '../hooks/useResource';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { CheckRun, CurrentUser, Monitor, MonitorStatus } from '../types';

const PER_PAGE = 20;

/** What a monitor row's buttons are doing, and what came of it. */
export function useMonitorActions(onChanged: (monitor: Monitor) => void) {
  const [busy, setBusy] = useState<{ id: string; action: 'pause' | 'check' } | null>(null);
  const [run, setRun] = useState<CheckRun | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<{ title: string; error: unknown } | null>(null);

  async function togglePause(monitor: Monitor) {
    setBusy({ id: monitor.id, action: 'pause' });
    setError(null);
    setMessage(null);
    try {
      const updated = await ok(
        api.PATCH('/monitors/{id}', { params: { path: { id: monitor.id } }, body: { paused: !monitor.paused } }),
      );
      onChanged(updated);
      setMessage(
        updated.paused
          ? `Paused “${updated.name}”: no scheduled checks until you resume it.`
          : `Resumed “${updated.name}”: its next check is scheduled.`,
      );
    } catch (caught) {
      setError({ title: `“${monitor.name}” was not ${monitor.paused ? 'resumed' : 'paused'}`, error: caught });
    } finally {
      setBusy(null);
    }
  }

  async function checkNow(monitor: Monitor) {
    setBusy({ id: monitor.id, action: 'check' });
    setError(null);
    setMessage(null);
    setRun(null);
    try {
      const result = await ok(api.POST('/monitors/{id}/check', { params: { path: { id: monitor.id } } }));
      onChanged(result.monitor);
      setRun(result);
    } catch (caught) {
      setError({ title: `“${monitor.name}” could not be checked`, error: caught });
    } finally {
      setBusy(null);
    }
  }

  const feedback = (
    <div className="action-feedback">
      {message ? (
        <p className="alert alert-success" role="status">
          {message}
        </p>
      ) : null}
      {error ? <ProblemAlert error={error.error} title={error.title} /> : null}
      {run ? <CheckRunResult run={run} /> : null}
    </div>
  );
  return { busy, togglePause, checkNow, feedback };
}

export function MonitorActions({
  monitor,
  actions,
}: {
  monitor: Monitor;
  actions: Pick<ReturnType<typeof useMonitorActions>, 'busy' | 'togglePause' | 'checkNow'>;
}) {
  const busy = actions.busy?.id === monitor.id ? actions.busy.action : null;
  return (
    <div className="button-row monitor-actions">
      <button
        type="button"
        className="button button-small button-secondary"
        disabled={busy !== null}
        onClick={() => void actions.checkNow(monitor)}
      >
        {busy === 'check' ? 'Checking…' : 'Check now'}
        <span className="visually-hidden"> {monitor.name}</span>
      </button>
      <button
        type="button"
        className="button button-small button-secondary"
        disabled={busy !== null}
        onClick={() => void actions.togglePause(monitor)}
      >
        {busy === 'pause' ? 'Saving…' : monitor.paused ? 'Resume' : 'Pause'}
        <span className="visually-hidden"> {monitor.name}</span>
      </button>
    </div>
  );
}

export function MonitorsPage({ me }: { me: CurrentUser }) {
  const canWrite = me.workspace.role === 'admin' || me.workspace.role === 'member';
  const { search } = useLocation();
  const statusParam = search.get('status');
  const status = MONITOR_STATUSES.find((item) => item === statusParam);
  const page = pageParam(search);

  const monitors = useResource(withQuery('/monitors', { page, status }), (signal) =>
    ok(api.GET('/monitors', { params: { query: { page, per_page: PER_PAGE, status } }, signal })),
  );
  const actions = useMonitorActions((updated) =>
    monitors.mutate((list) => ({
      ...list,
      data: list.data.map((item) => (item.id === updated.id ? updated : item)),
    })),
  );

  const go = (next: { status?: MonitorStatus; page?: number }) => navigate(withQuery('/monitors', next));
  const total = monitors.data?.pagination.total;

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Monitors</h1>
          <p className="lead">
            Pages Vigil checks on a schedule from each of their regions: whether they are up, and what changed.
          </p>
        </div>
        {canWrite ? (
          <Link to="/monitors/new" className="button button-primary">
            New monitor
          </Link>
        ) : null}
      </div>

      <div className="toolbar">
        <SelectField
          id="status-filter"
          label="Status"
          className="field-inline"
          value={status ?? ''}
          onChange={(value) => go({ status: MONITOR_STATUSES.find((item) => item === value) })}
          options={[
            { value: '', label: 'All statuses' },
            { value: 'up', label: 'Up' },
            { value: 'down', label: 'Down' },
            { value: 'paused', label: 'Paused' },
            { value: 'pending', label: 'Pending' },
          ]}
        />
        <p className="muted toolbar-count" aria-live="polite">
          {total !== undefined ? `${total} ${total === 1 ? 'monitor' : 'monitors'}${status ? ` ${status}` : ''}` : ''}
        </p>
      </div>

      {actions.feedback}

      <PagedList
        resource={monitors}
        loadingText="Loading monitors…"
        pagesLabel="Monitor pages"
        onPage={(next) => go({ status, page: next })}
        empty={
          <div className="empty-state card">
            <h2>No monitors{status ? ` with status ${status}` : ''}</h2>
            <p>
              {canWrite ? (
                <>
                  <Link to="/monitors/new">Create a monitor</Link> for a page you want watched, or create one with an
                  API key (<code>POST /api/v1/monitors</code>).
                </>
              ) : (
                'A member or admin of the workspace can create monitors.'
              )}
            </p>
          </div>
        }
      >
        {(rows) => (
          <DataTable
            label="Monitors"
            caption="Monitors, with status, uptime over 24 hours, last check and regions"
            className="monitors-table"
            rows={rows}
            rowKey={(monitor) => monitor.id}
            rowProps={(monitor) => ({ 'data-monitor-id': monitor.id })}
            columns={[
              {
                header: 'Monitor',
                rowHeader: true,
                cell: (monitor) => (
                  <>
                    <Link to={`/monitors/${monitor.id}`}>{monitor.name}</Link>
                    <span className="block small muted url">{monitor.url}</span>
                  </>
                ),
              },
              { header: 'Status', cell: (monitor) => <MonitorStatusBadge status={monitor.status} /> },
              { header: 'Uptime 24 h', cell: (monitor) => <Uptime24h monitor={monitor} /> },
              {
                header: 'Last check',
                cell: (monitor) => (
                  <>
                    {monitor.last_checked_at ? formatDateTime(monitor.last_checked_at) : 'Not yet'}
                    <span className="block small muted">every {formatInterval(monitor.interval_seconds)}</span>
                  </>
                ),
              },
              { header: 'Regions', cell: (monitor) => <RegionBadges regions={monitor.regions} /> },
              ...(canWrite
                ? [
                    {
                      header: <span className="visually-hidden">Actions</span>,
                      cell: (monitor: Monitor) => <MonitorActions monitor={monitor} actions={actions} />,
                    },
                  ]
                : []),
            ]}
          />
        )}
      </PagedList>
    </>
  );
}
