import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/Field';
import { ManagedBadge } from '../components/ManagedBadge';
import { PagedList } from '../components/ResourceView';
import { formatDateTime, formatInterval } from '../format';
import { useApi } from '../hooks/useApi';
import { canWrite } from '../permissions';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { CurrentUser, Monitor, MonitorStatus } from '../types';
import { MonitorActions, useMonitorActions } from './MonitorActions';
import { MONITOR_STATUSES, MonitorStatusBadge, RegionBadges, Uptime24h } from './MonitorBits';

const PER_PAGE = 20;

export function MonitorsPage({ me }: { me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const { search } = useLocation();
  const statusParam = search.get('status');
  const status = MONITOR_STATUSES.find((item) => item === statusParam);
  const page = pageParam(search);

  const monitors = useApi('/monitors', { params: { query: { page, per_page: PER_PAGE, status } } });
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
        {mayWrite ? (
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
              {mayWrite ? (
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
                    <span className="block small muted url">{monitor.url ?? 'Heartbeat'}</span>
                    <ManagedBadge declarationKey={monitor.declaration_key} />
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
              ...(mayWrite
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
