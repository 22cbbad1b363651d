import { useCallback, useEffect, useState } from 'react';
import { call } from '../api';
import { Badge } from '../components/Badge';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { OneTimeSecret } from '../components/OneTimeSecret';
import { Pagination } from '../components/Pagination';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { TableWrap } from '../components/TableWrap';
import { usePageTitle } from '../components/usePageTitle';
import { useSubmit } from '../components/useSubmit';
import { formatDateTime } from '../format';
import { SCOPES } from '../scopes';
import type { ApiKey, ApiKeyList, ApiKeyWithSecret, CurrentUser, Scope } from '../types';

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
  usePageTitle('API keys');
  const workspace = me.workspace;
  // Workspace admins see (and may revoke) every key of the workspace; others their own. Viewers change nothing.
  const admin = workspace.role === 'admin';
  const canWrite = workspace.role === 'admin' || workspace.role === 'member';
  const [page, setPage] = useState(1);
  const [list, setList] = useState<ApiKeyList | null>(null);
  const [listError, setListError] = useState<unknown>(null);
  const [created, setCreated] = useState<ApiKeyWithSecret | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setList(await call<ApiKeyList>('GET', '/users/me/api-keys', { query: { page, per_page: 50 } }));
      setListError(null);
    } catch (caught) {
      setListError(caught);
    }
  }, [page]);

  useEffect(() => {
    void load();
  }, [load]);

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
              void load();
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
          <ProblemAlert error={listError} />
          {!list && !listError ? (
            <p className="loading" role="status">
              Loading keys…
            </p>
          ) : null}
          {list && list.data.length === 0 ? (
            <p className="muted">{admin ? 'This workspace has no API keys yet.' : 'You have no API keys yet.'}</p>
          ) : null}
          {list && list.data.length > 0 ? (
            <TableWrap label={admin ? `Keys of ${workspace.name}` : 'Your keys'}>
              <table className="table keys-table">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Prefix</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Created by</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Status</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((key) => {
                    const status = keyStatus(key);
                    return (
                      <tr key={key.id} data-key-id={key.id}>
                        <th scope="row">{key.name}</th>
                        <td>
                          <code className="nowrap">{displayPrefix(key.prefix)}…</code>
                        </td>
                        <td>
                          <ul className="scope-chips">
                            {key.scopes.map((scope) => (
                              <li key={scope}>
                                <code>{scope}</code>
                              </li>
                            ))}
                          </ul>
                        </td>
                        <td className="url">
                          {key.created_by ? (
                            <>
                              {key.created_by.email}
                              {key.created_by.id === me.id ? <span className="muted"> (you)</span> : null}
                            </>
                          ) : (
                            <span className="muted">No longer in Vigil</span>
                          )}
                        </td>
                        <td>{key.expires_at ? formatDateTime(key.expires_at) : 'Never'}</td>
                        <td>{key.last_used_at ? formatDateTime(key.last_used_at) : 'Never'}</td>
                        <td>
                          <Badge tone={status.tone}>{status.label}</Badge>
                          {key.revoked_at ? (
                            <span className="small muted block">{formatDateTime(key.revoked_at)}</span>
                          ) : null}
                        </td>
                        <td>
                          {!key.revoked_at && canWrite ? (
                            <button
                              type="button"
                              className="button button-small button-danger-outline"
                              onClick={() => setRevoking(key)}
                            >
                              Revoke<span className="visually-hidden"> {key.name}</span>
                            </button>
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableWrap>
          ) : null}
          {list ? <Pagination pagination={list.pagination} onPage={setPage} label="API key pages" /> : null}
        </section>
      </div>

      {revoking ? (
        <RevokeDialog
          apiKey={revoking}
          onClose={(revoked) => {
            setRevoking(null);
            if (revoked) {
              setList((current) =>
                current
                  ? { ...current, data: current.data.map((item) => (item.id === revoked.id ? revoked : item)) }
                  : current,
              );
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
      const key = await call<ApiKeyWithSecret>('POST', '/users/me/api-keys', {
        body: {
          name: name.trim(),
          scopes: ordered,
          ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
        },
      });
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
        <div className="field">
          <label htmlFor="key-name">Name</label>
          <input
            id="key-name"
            type="text"
            maxLength={100}
            required
            aria-required="true"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'key-name-error' : undefined}
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="e.g. GitHub Actions release gate"
          />
          {nameError ? (
            <p id="key-name-error" className="field-error">
              {nameError}
            </p>
          ) : null}
        </div>

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

        <div className="field">
          <label htmlFor="key-expires">
            Expires <span className="optional">(optional)</span>
          </label>
          <input
            id="key-expires"
            type="datetime-local"
            aria-invalid={expiresError ? true : undefined}
            aria-describedby={expiresError ? 'key-expires-hint key-expires-error' : 'key-expires-hint'}
            value={expires}
            onChange={(event) => setExpires(event.target.value)}
          />
          <p id="key-expires-hint" className="hint">
            In your local time. Leave empty for a key that does not expire.
          </p>
          {expiresError ? (
            <p id="key-expires-error" className="field-error">
              {expiresError}
            </p>
          ) : null}
        </div>

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
      onConfirm={async () => onClose(await call<ApiKey>('DELETE', `/users/me/api-keys/${apiKey.id}`))}
      onClose={() => onClose(null)}
    >
      <p>
        Requests with the key <code className="nowrap">{displayPrefix(apiKey.prefix)}…</code> are refused immediately,
        on every instance. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
