import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { PagedList } from '../components/ResourceView';
import { useApi } from '../hooks/useApi';
import type { CodeHostConnection } from '../types';
import { CodeHostItem } from './CodeHostItem';
import { ConnectCodeHostForm } from './ConnectCodeHostForm';

/**
 * The workspace's code-host connections, for its admins: release checks whose source is in a connection's namespace
 * set a commit status and keep one comment on the pull request up to date.
 */
export function CodeHostsSection() {
  const [page, setPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<CodeHostConnection | null>(null);
  const connections = useApi('/code-host-connections', { params: { query: { page, per_page: 20 } } });

  function replace(connection: CodeHostConnection) {
    connections.mutate((current) => ({
      ...current,
      data: current.data.map((item) => (item.id === connection.id ? connection : item)),
    }));
  }

  async function remove(connection: CodeHostConnection) {
    await ok(api.DELETE('/code-host-connections/{id}', { params: { path: { id: connection.id } } }));
    setDeleting(null);
    setMessage(`Deleted “${connection.name}”: release checks no longer report to it.`);
    connections.reload();
  }

  return (
    <section aria-labelledby="code-hosts-heading" className="card code-hosts">
      <h2 id="code-hosts-heading">Code hosts</h2>
      <p className="hint">
        Release checks that name their source (vigil-gate does on GitHub Actions and GitLab CI) show their gate on the
        commit as the status <code>vigil/&lt;check name&gt;</code>, and keep one comment on the pull or merge request up
        to date. Make that status required in branch protection, and a merge waits for a person’s approval here.
      </p>
      {message ? (
        <p className="alert alert-success" role="status">
          {message}
        </p>
      ) : null}
      <PagedList
        resource={connections}
        loadingText="Loading code hosts…"
        pagesLabel="Code host pages"
        onPage={setPage}
        empty={<p>No code host is connected yet.</p>}
      >
        {(items) => (
          <ul className="destination-list" aria-labelledby="code-hosts-heading">
            {items.map((connection) => (
              <CodeHostItem
                key={connection.id}
                connection={connection}
                onChanged={(updated, note) => {
                  replace(updated);
                  setMessage(note);
                }}
                onDelete={() => setDeleting(connection)}
              />
            ))}
          </ul>
        )}
      </PagedList>
      <ConnectCodeHostForm
        onConnected={(connection) => {
          setMessage(`Connected “${connection.name}”. Test it to check the credential.`);
          connections.reload();
        }}
      />
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete connection"
          busyLabel="Deleting…"
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>
            Release checks stop reporting to {deleting.namespace}. Statuses already on commits stay there; a required
            status then waits until the connection is back.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
