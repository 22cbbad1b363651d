import { useState } from 'react';
import { api, ok } from '../api';
import { displayPrefix, keyStatus } from '../components/api-key-status';
import { Badge } from '../components/Badge';
import { DataTable } from '../components/DataTable';
import { ProblemAlert } from '../components/ProblemAlert';
import { PagedList } from '../components/ResourceView';
import { useSubmit } from '../components/useSubmit';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import type { AdminApiKey } from '../types';

export function AdminKeys() {
  const [page, setPage] = useState(1);
  const keys = useApi('/admin/api-keys', { params: { query: { page, per_page: 50 } } });

  return (
    <section aria-labelledby="limits-heading" className="admin-section">
      <h2 id="limits-heading">API key rate limits</h2>
      <p className="muted">
        Each key may make a set number of requests a minute (120 by default). A new ceiling applies from the key's next
        request.
      </p>
      <div className="card">
        <PagedList
          resource={keys}
          loadingText="Loading keys…"
          pagesLabel="Key pages"
          onPage={setPage}
          empty={<p className="muted">No API keys yet.</p>}
        >
          {(rows) => (
            <DataTable
              label="API key rate limits"
              rows={rows}
              rowKey={(key) => key.id}
              rowProps={(key) => ({ 'data-key-id': key.id })}
              columns={[
                {
                  header: 'Key',
                  rowHeader: true,
                  cell: (key) => (
                    <>
                      {key.name}
                      <span className="block small muted">
                        <code className="nowrap">{displayPrefix(key.prefix)}…</code>
                      </span>
                    </>
                  ),
                },
                { header: 'Owner', className: 'url', cell: (key) => key.user_email },
                {
                  header: 'Status',
                  cell: (key) => {
                    const status = keyStatus(key);
                    return <Badge tone={status.tone}>{status.label}</Badge>;
                  },
                },
                { header: 'Last used', cell: (key) => (key.last_used_at ? formatDateTime(key.last_used_at) : 'Never') },
                {
                  header: 'Requests per minute',
                  cell: (key) => (
                    <LimitForm
                      key={key.id}
                      apiKey={key}
                      onSaved={(saved) =>
                        keys.mutate((current) => ({
                          ...current,
                          data: current.data.map((item) => (item.id === saved.id ? saved : item)),
                        }))
                      }
                    />
                  ),
                },
              ]}
            />
          )}
        </PagedList>
      </div>
    </section>
  );
}

/** A key's rate-limit ceiling, changed in place. */
function LimitForm({ apiKey, onSaved }: { apiKey: AdminApiKey; onSaved: (key: AdminApiKey) => void }) {
  const [value, setValue] = useState(String(apiKey.rate_limit_per_minute));
  const [saved, setSaved] = useState<string | null>(null);
  const inputId = `limit-${apiKey.id}`;
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      setSaved(null);
      return true;
    },
    send: async () => {
      const updated = await ok(
        api.PUT('/admin/api-keys/{id}/rate-limit', {
          params: { path: { id: apiKey.id } },
          body: { requests_per_minute: Number(value) },
        }),
      );
      onSaved(updated);
      setValue(String(updated.rate_limit_per_minute));
      setSaved(`Saved: ${updated.rate_limit_per_minute} requests a minute.`);
    },
  });

  return (
    <>
      <form className="limit-form" onSubmit={onSubmit}>
        <label htmlFor={inputId} className="visually-hidden">
          Requests per minute for {apiKey.name} ({displayPrefix(apiKey.prefix)})
        </label>
        <input
          id={inputId}
          type="number"
          min={1}
          max={1000000}
          step={1}
          required
          inputMode="numeric"
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" className="button button-small button-secondary" disabled={busy}>
          Save<span className="visually-hidden"> limit for {apiKey.name}</span>
        </button>
      </form>
      {saved ? (
        <p className="small text-success" role="status">
          {saved}
        </p>
      ) : null}
      <ProblemAlert error={error} />
    </>
  );
}
