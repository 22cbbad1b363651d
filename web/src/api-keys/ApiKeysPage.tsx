import { useState } from 'react';
import { displayPrefix, keyStatus } from '../components/api-key-status';
import { Badge } from '../components/Badge';
import { type Column, DataTable } from '../components/DataTable';
import { OneTimeSecret } from '../components/OneTimeSecret';
import { PagedList } from '../components/ResourceView';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { canWrite } from '../permissions';
import type { ApiKey, ApiKeyWithSecret, CurrentUser } from '../types';
import { CreateKeyForm } from './CreateKeyForm';
import { RevokeDialog } from './RevokeDialog';

export function ApiKeysPage({ me }: { me: CurrentUser }) {
  const workspace = me.workspace;
  // Workspace admins see (and may revoke) every key of the workspace; others their own. Viewers change nothing.
  const admin = workspace.role === 'admin';
  const mayWrite = canWrite(me);
  const [page, setPage] = useState(1);
  const [created, setCreated] = useState<ApiKeyWithSecret | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const keys = useApi('/users/me/api-keys', { params: { query: { page, per_page: 50 } } });

  const columns: Column<ApiKey>[] = [
    { header: 'Name', rowHeader: true, cell: (key) => key.name },
    { header: 'Prefix', cell: (key) => <code className="nowrap">{displayPrefix(key.prefix)}…</code> },
    {
      header: 'Scopes',
      cell: (key) => (
        <ul className="scope-chips">
          {key.scopes.map((scope) => (
            <li key={scope}>
              <code>{scope}</code>
            </li>
          ))}
        </ul>
      ),
    },
    {
      header: 'Created by',
      className: 'url',
      cell: (key) =>
        key.created_by ? (
          <>
            {key.created_by.email}
            {key.created_by.id === me.id ? <span className="muted"> (you)</span> : null}
          </>
        ) : (
          <span className="muted">No longer in Vigil</span>
        ),
    },
    { header: 'Expires', cell: (key) => (key.expires_at ? formatDateTime(key.expires_at) : 'Never') },
    { header: 'Last used', cell: (key) => (key.last_used_at ? formatDateTime(key.last_used_at) : 'Never') },
    {
      header: 'Status',
      cell: (key) => {
        const status = keyStatus(key);
        return (
          <>
            <Badge tone={status.tone}>{status.label}</Badge>
            {key.revoked_at ? <span className="small muted block">{formatDateTime(key.revoked_at)}</span> : null}
          </>
        );
      },
    },
    {
      header: <span className="visually-hidden">Actions</span>,
      cell: (key) =>
        !key.revoked_at && mayWrite ? (
          <button type="button" className="button button-small button-danger-outline" onClick={() => setRevoking(key)}>
            Revoke<span className="visually-hidden"> {key.name}</span>
          </button>
        ) : null,
    },
  ];

  return (
    <>
      <div className="page-header">
        <div>
          <p className="eyebrow">Settings</p>
          <h1>API keys</h1>
          <p className="lead">
            Keys let integrations such as your CI job call the API with the <code>X-API-Key</code> header. Give each
            integration its own key with only the scopes it needs. A key acts in the workspace it was created in,{' '}
            <strong>{workspace.name}</strong> for keys created here.
          </p>
        </div>
      </div>

      {created ? (
        <OneTimeSecret
          heading={`Key “${created.name}” created`}
          warning={
            <>
              <strong>Copy this secret now.</strong> It is shown only this once and cannot be read again. Store it in
              your CI's secret store; if it is lost, revoke the key and create a new one.
            </>
          }
          label="Secret"
          noun="secret"
          secret={created.secret}
          doneLabel="I have stored the secret"
          onDone={() => setCreated(null)}
        >
          <p className="small muted">
            Scopes: {created.scopes.join(', ')} · Expires:{' '}
            {created.expires_at ? formatDateTime(created.expires_at) : 'never'}
          </p>
        </OneTimeSecret>
      ) : null}

      <div className="settings-layout">
        {mayWrite ? (
          <CreateKeyForm
            onCreated={(key) => {
              setCreated(key);
              setMessage(null);
              keys.reload();
            }}
          />
        ) : (
          <section aria-labelledby="create-key-heading" className="card">
            <h2 id="create-key-heading">Create a key</h2>
            <p>
              You are a viewer of {workspace.name}: viewers cannot create or revoke keys. A member or admin of the
              workspace can.
            </p>
          </section>
        )}

        <section aria-labelledby="keys-heading" className="card">
          <h2 id="keys-heading">{admin ? `Keys of ${workspace.name}` : 'Your keys'}</h2>
          {admin ? (
            <p className="hint keys-hint">
              As an admin of the workspace you see every member’s keys and can revoke them.
            </p>
          ) : null}
          {message ? (
            <p className="alert alert-success" role="status">
              {message}
            </p>
          ) : null}
          <PagedList
            resource={keys}
            loadingText="Loading keys…"
            pagesLabel="API key pages"
            onPage={setPage}
            empty={
              <p className="muted">{admin ? 'This workspace has no API keys yet.' : 'You have no API keys yet.'}</p>
            }
          >
            {(rows) => (
              <DataTable
                label={admin ? `Keys of ${workspace.name}` : 'Your keys'}
                className="keys-table"
                rows={rows}
                rowKey={(key) => key.id}
                rowProps={(key) => ({ 'data-key-id': key.id })}
                columns={columns}
              />
            )}
          </PagedList>
        </section>
      </div>

      {revoking ? (
        <RevokeDialog
          apiKey={revoking}
          onClose={(revoked) => {
            setRevoking(null);
            if (revoked) {
              keys.mutate((current) => ({
                ...current,
                data: current.data.map((item) => (item.id === revoked.id ? revoked : item)),
              }));
              setMessage(`Revoked “${revoked.name}”. Requests with it are refused from now on.`);
            }
          }}
        />
      ) : null}
    </>
  );
}
