import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { call } from '../api';
import { Badge } from '../components/Badge';
import { Pagination } from '../components/Pagination';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { TableWrap } from '../components/TableWrap';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime } from '../format';
import type { AdminApiKey, AdminApiKeyList, Role, User, UserList } from '../types';
import { displayPrefix, keyStatus } from './ApiKeysPage';

export function AdminPage() {
  usePageTitle('Admin');
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Admin</h1>
          <p className="lead">People who can sign in, and the rate-limit ceiling of every API key.</p>
        </div>
      </div>
      <Users />
      <Keys />
    </>
  );
}

function Users() {
  const [page, setPage] = useState(1);
  const [list, setList] = useState<UserList | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setList(await call<UserList>('GET', '/admin/users', { query: { page, per_page: 50 } }));
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }, [page]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section aria-labelledby="users-heading" className="admin-section">
      <h2 id="users-heading">Users</h2>
      <div className="settings-layout">
        <CreateUserForm
          onCreated={(user) => {
            setMessage(`Added ${user.email} as ${user.role}.`);
            void load();
          }}
        />
        <div className="card">
          <h3 id="user-list-heading">People</h3>
          {message ? (
            <p className="alert alert-success" role="status">
              {message}
            </p>
          ) : null}
          <ProblemAlert error={error} />
          {list ? (
            <TableWrap label="People">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Added</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((user) => (
                    <tr key={user.id}>
                      <th scope="row" className="url">
                        {user.email}
                      </th>
                      <td>
                        <Badge tone={user.role === 'admin' ? 'info' : 'neutral'}>{user.role}</Badge>
                      </td>
                      <td>{formatDateTime(user.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          ) : !error ? (
            <p className="loading" role="status">
              Loading users…
            </p>
          ) : null}
          {list ? <Pagination pagination={list.pagination} onPage={setPage} label="User pages" /> : null}
        </div>
      </div>
    </section>
  );
}

function CreateUserForm({ onCreated }: { onCreated: (user: User) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const user = await call<User>('POST', '/admin/users', { body: { email: email.trim(), password, role } });
      setEmail('');
      setPassword('');
      setRole('member');
      onCreated(user);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  const emailError = fieldError(error, 'email');
  const passwordError = fieldError(error, 'password');
  return (
    <div className="card">
      <h3 id="add-user-heading">Add a person</h3>
      <form className="form" onSubmit={submit} aria-labelledby="add-user-heading">
        <div className="field">
          <label htmlFor="user-email">Email</label>
          <input
            id="user-email"
            type="email"
            required
            autoComplete="off"
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? 'user-email-error' : undefined}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          {emailError ? (
            <p id="user-email-error" className="field-error">
              {emailError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="user-password">Initial password</label>
          <input
            id="user-password"
            type="password"
            required
            minLength={12}
            autoComplete="new-password"
            aria-invalid={passwordError ? true : undefined}
            aria-describedby={passwordError ? 'user-password-hint user-password-error' : 'user-password-hint'}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <p id="user-password-hint" className="hint">
            At least 12 characters. Share it with the person over a safe channel.
          </p>
          {passwordError ? (
            <p id="user-password-error" className="field-error">
              {passwordError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="user-role">Role</label>
          <select
            id="user-role"
            value={role}
            aria-describedby="user-role-hint"
            onChange={(event) => setRole(event.target.value as Role)}
          >
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
          <p id="user-role-hint" className="hint">
            Members review release checks and manage their own keys; admins also manage people and rate limits.
          </p>
        </div>
        <ProblemAlert error={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add person'}
        </button>
      </form>
    </div>
  );
}

function Keys() {
  const [page, setPage] = useState(1);
  const [list, setList] = useState<AdminApiKeyList | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(async () => {
    try {
      setList(await call<AdminApiKeyList>('GET', '/admin/api-keys', { query: { page, per_page: 50 } }));
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }, [page]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section aria-labelledby="limits-heading" className="admin-section">
      <h2 id="limits-heading">API key rate limits</h2>
      <p className="muted">
        Each key may make a set number of requests a minute (120 by default). A new ceiling applies from the key's next
        request.
      </p>
      <div className="card">
        <ProblemAlert error={error} />
        {list && list.data.length === 0 ? <p className="muted">No API keys yet.</p> : null}
        {list && list.data.length > 0 ? (
          <TableWrap label="API key rate limits">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Requests per minute</th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((key) => (
                  <KeyRow
                    key={key.id}
                    apiKey={key}
                    onSaved={(saved) =>
                      setList((current) =>
                        current
                          ? { ...current, data: current.data.map((item) => (item.id === saved.id ? saved : item)) }
                          : current,
                      )
                    }
                  />
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
        {!list && !error ? (
          <p className="loading" role="status">
            Loading keys…
          </p>
        ) : null}
        {list ? <Pagination pagination={list.pagination} onPage={setPage} label="Key pages" /> : null}
      </div>
    </section>
  );
}

function KeyRow({ apiKey, onSaved }: { apiKey: AdminApiKey; onSaved: (key: AdminApiKey) => void }) {
  const [value, setValue] = useState(String(apiKey.rate_limit_per_minute));
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const status = keyStatus(apiKey);
  const inputId = `limit-${apiKey.id}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      const updated = await call<AdminApiKey>('PUT', `/admin/api-keys/${apiKey.id}/rate-limit`, {
        body: { requests_per_minute: Number(value) },
      });
      onSaved(updated);
      setValue(String(updated.rate_limit_per_minute));
      setSaved(`Saved: ${updated.rate_limit_per_minute} requests a minute.`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr data-key-id={apiKey.id}>
      <th scope="row">
        {apiKey.name}
        <span className="block small muted">
          <code className="nowrap">{displayPrefix(apiKey.prefix)}…</code>
        </span>
      </th>
      <td className="url">{apiKey.user_email}</td>
      <td>
        <Badge tone={status.tone}>{status.label}</Badge>
      </td>
      <td>{apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : 'Never'}</td>
      <td>
        <form className="limit-form" onSubmit={submit}>
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
      </td>
    </tr>
  );
}
