import { useState } from 'react';
import { api, ok } from '../api';
import { Badge } from '../components/Badge';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { type Column, DataTable } from '../components/DataTable';
import { TextField } from '../components/Field';
import { OneTimeSecret } from '../components/OneTimeSecret';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { PagedList } from '../components/ResourceView';
import { useSubmit } from '../components/useSubmit';
import { formatDateTime } from '../format';
import { useResource } from '../hooks/useResource';
import { SCOPES } from '../scopes';
import type { ApiKey, ApiKeyWithSecret, CurrentUser, Scope } from '../types';

/** Keys are recognised by the start of their secret, which always begins with `vgl_`. */
export function displayPrefix(prefix: string): string {
  return prefix.startsWith('vgl_') ? prefix : `vgl_${prefix}`;
}

export function keyStatus(key: Pick<ApiKey, 'revoked_at' | 'expires_at'>): { label: string; tone: string } {
  if (key.revoked_at) return { label: 'Revoked', tone: 'danger' };
  if (key.expires_at && new Date(key.expires_at).getTime() <= Date.now()) return { label: 'Expired', tone: 'neutral' };
  return { label: 'Active', tone: 'success' };
}

export function ApiKeysPage({ me }: { me: CurrentUser }) {
  const workspace = me.workspace;
  // Workspace admins see (and may revoke) every key of the workspace; others their own. Viewers change nothing.
  const admin = workspace.role === 'admin';
  const canWrite = workspace.role === 'admin' || workspace.role === 'member';
  const [page, setPage] = useState(1);
  const [created, setCreated] = useState<ApiKeyWithSecret | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const keys = useResource(`/users/me/api-keys?page=${page}`, (signal) =>
    ok(api.GET('/users/me/api-keys', { params: { query: { page, per_page: 50 } }, signal })),
  );

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
        !key.revoked_at && canWrite ? (
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
        {canWrite ? (
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

function CreateKeyForm({ onCreated }: { onCreated: (key: ApiKeyWithSecret) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [expires, setExpires] = useState('');
  const [local, setLocal] = useState<{ name?: string; scopes?: string; expires?: string }>({});

  function toggle(scope: Scope, on: boolean) {
    setScopes((current) => (on ? [...current, scope] : current.filter((item) => item !== scope)));
  }

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: typeof local = {};
      if (!name.trim()) problems.name = 'Give the key a name, such as the integration that uses it.';
      if (scopes.length === 0) problems.scopes = 'Pick at least one scope.';
      if (expires) {
        const time = new Date(expires).getTime();
        if (Number.isNaN(time)) problems.expires = 'Enter a valid date and time.';
        else if (time <= Date.now()) problems.expires = 'The expiry must be in the future.';
      }
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const ordered = SCOPES.map((item) => item.scope).filter((scope) => scopes.includes(scope));
      const key = await ok(
        api.POST('/users/me/api-keys', {
          body: {
            name: name.trim(),
            scopes: ordered,
            ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
          },
        }),
      );
      setName('');
      setScopes([]);
      setExpires('');
      onCreated(key);
    },
  });

  const nameError = local.name ?? fieldError(error, 'name');
  const scopesError = local.scopes ?? fieldError(error, 'scopes');
  const expiresError = local.expires ?? fieldError(error, 'expires_at');

  return (
    <section aria-labelledby="create-key-heading" className="card">
      <h2 id="create-key-heading">Create a key</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          id="key-name"
          label="Name"
          required
          maxLength={100}
          placeholder="e.g. GitHub Actions release gate"
          value={name}
          onChange={setName}
          error={nameError}
        />

        <fieldset className="field scopes" aria-describedby={scopesError ? 'scopes-error' : undefined}>
          <legend>Scopes</legend>
          <p className="hint">A release-gate CI job needs monitors:read and monitors:write.</p>
          <ul className="scope-options">
            {SCOPES.map(({ scope, grants }) => {
              const id = `scope-${scope.replace(':', '-')}`;
              return (
                <li key={scope} className="check">
                  <input
                    id={id}
                    type="checkbox"
                    checked={scopes.includes(scope)}
                    onChange={(event) => toggle(scope, event.target.checked)}
                    aria-describedby={`${id}-grants`}
                  />
                  <label htmlFor={id}>
                    <code>{scope}</code>
                  </label>
                  <span id={`${id}-grants`} className="scope-grants">
                    {grants}
                  </span>
                </li>
              );
            })}
          </ul>
          {scopesError ? (
            <p id="scopes-error" className="field-error">
              {scopesError}
            </p>
          ) : null}
        </fieldset>

        <TextField
          id="key-expires"
          type="datetime-local"
          label="Expires"
          optional
          hint="In your local time. Leave empty for a key that does not expire."
          value={expires}
          onChange={setExpires}
          error={expiresError}
        />

        <ProblemAlert error={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </button>
      </form>
    </section>
  );
}

function RevokeDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: (revoked: ApiKey | null) => void }) {
  return (
    <ConfirmDialog
      title={`Revoke “${apiKey.name}”?`}
      confirmLabel="Revoke key"
      busyLabel="Revoking…"
      onConfirm={async () =>
        onClose(await ok(api.DELETE('/users/me/api-keys/{id}', { params: { path: { id: apiKey.id } } })))
      }
      onClose={() => onClose(null)}
    >
      <p>
        Requests with the key <code className="nowrap">{displayPrefix(apiKey.prefix)}…</code> are refused immediately,
        on every instance. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
