import { useState } from 'react';
import { Badge } from '../components/Badge';
import { DataTable } from '../components/DataTable';
import { PagedList } from '../components/ResourceView';
import { formatDateTime, formatMs } from '../format';
import { useApi } from '../hooks/useApi';
import type { Monitor } from '../types';

const TRIGGER: Record<'scheduled' | 'manual' | 'ping', string> = {
  scheduled: 'Scheduled',
  manual: 'Check now',
  ping: 'Ping',
};

/** The monitor's latest results, newest first: for a heartbeat monitor, each ping and each missed slot. */
export function RecentResults({ monitor }: { monitor: Monitor }) {
  const [page, setPage] = useState(1);
  const results = useApi(
    '/monitors/{id}/checks',
    { params: { path: { id: monitor.id }, query: { page, per_page: 10 } } },
    { reloadOn: monitor.last_checked_at },
  );
  return (
    <section aria-labelledby="results-heading" className="card">
      <h2 id="results-heading">Recent results</h2>
      <PagedList
        resource={results}
        loadingText="Loading results…"
        pagesLabel="Result pages"
        onPage={setPage}
        empty={<p className="muted">No results yet: the first ping, or the first missed one, shows here.</p>}
      >
        {(checks) => (
          <DataTable
            label="Recent results"
            rows={checks}
            rowKey={(check) => check.id}
            rowProps={(check) => ({ 'data-check-id': check.id })}
            columns={[
              {
                header: 'When',
                rowHeader: true,
                cell: (check) => <time dateTime={check.checked_at}>{formatDateTime(check.checked_at)}</time>,
              },
              {
                header: 'Result',
                cell: (check) => <Badge tone={check.ok ? 'success' : 'danger'}>{check.ok ? 'Passed' : 'Failed'}</Badge>,
              },
              { header: 'From', cell: (check) => TRIGGER[check.trigger] },
              {
                header: 'Run time',
                cell: (check) => (check.response_time_ms ? formatMs(check.response_time_ms) : '—'),
              },
              { header: 'Why', cell: (check) => check.message ?? '' },
            ]}
          />
        )}
      </PagedList>
    </section>
  );
}
