import { useState } from 'react';
import { DataTable } from '../components/DataTable';
import { PagedList } from '../components/ResourceView';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { Link } from '../router';
import type { Monitor } from '../types';

/** "Depends on Database", linking to the parent monitor, and while the parent is down, that alerts are held. */
export function DependsOn({ parentId }: { parentId: string }) {
  const parent = useApi('/monitors/{id}', { params: { path: { id: parentId } } });
  // Nothing until the parent's name is in; a parent that cannot be read is still linked to, unnamed.
  if (!parent.data && !parent.error) return null;
  return (
    <p className="small">
      Depends on <Link to={`/monitors/${parentId}`}>{parent.data?.name ?? 'its parent monitor'}</Link>
      {parent.data?.status === 'down' ? (
        <span className="muted"> (down: this monitor’s new alerts are held)</span>
      ) : null}
    </p>
  );
}

/**
 * The alerts of the monitors depending on this one that were held, not sent, because it was down, newest first.
 * Most monitors have no dependents: the section shows only once an alert was held (or the list could not be read).
 */
export function HeldAlerts({ monitor }: { monitor: Monitor }) {
  const [page, setPage] = useState(1);
  const held = useApi('/monitors/{id}/held-alerts', {
    params: { path: { id: monitor.id }, query: { page, per_page: 10 } },
  });
  if (!held.error && !held.data?.pagination.total) return null;
  return (
    <section aria-labelledby="held-heading" className="card">
      <h2 id="held-heading">Held alerts</h2>
      <p className="small muted">
        Alerts of monitors depending on this one, held while it was down. A held alert is never sent later; recoveries
        still are.
      </p>
      <PagedList
        resource={held}
        loadingText="Loading held alerts…"
        pagesLabel="Held alert pages"
        onPage={setPage}
        empty={<p className="muted">No alerts were held.</p>}
      >
        {(alerts) => (
          <DataTable
            label="Held alerts"
            caption="Alerts held while this monitor was down, newest first"
            rows={alerts}
            rowKey={(alert) => alert.id}
            rowProps={(alert) => ({ 'data-held-alert-id': alert.id })}
            columns={[
              {
                header: 'Monitor',
                rowHeader: true,
                cell: (alert) => <Link to={`/monitors/${alert.monitor_id}`}>{alert.monitor_name}</Link>,
              },
              {
                header: 'Held',
                cell: (alert) => <time dateTime={alert.held_at}>{formatDateTime(alert.held_at)}</time>,
              },
              { header: 'Region', cell: (alert) => alert.region },
              {
                header: 'Why',
                cell: (alert) =>
                  [alert.status_code === null ? null : `HTTP ${alert.status_code}`, alert.message]
                    .filter(Boolean)
                    .join(': ') || '—',
              },
            ]}
          />
        )}
      </PagedList>
    </section>
  );
}
