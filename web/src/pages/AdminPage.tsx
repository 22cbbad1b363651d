import { useState } from 'react';
import { api, ok } from '../api';
import { Badge } from '../components/Badge';
import { DataTable } from '../components/DataTable';
import { SelectField, TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { PagedList } from '../components/ResourceView';
import { useSubmit } from '../components/useSubmit';
import { formatDateTime } from '../format';
import { useResource } from '../hooks/useResource';
import type { AdminApiKey, Role, User } from '../types';
import { displayPrefix, keyStatus } from './ApiKeysPage';

export function AdminPage() {
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
  const [message, setMessage] = useState<string | null>(null);
  const users = useResource(`/admin/users?page=${page}`, (signal) =>
    ok(api.GET('/admin/users', { params: { query: { page, per_page: 50 } }, signal })),
  );

  return (
    <section aria-labelledby="users-heading" className="admin-section">
      <h2 id="users-heading">Users</h2>
      <div className="settings-layout">
        <CreateUserForm
          onCreated={(user) => {
            setMessage(`Added ${user.email} as ${user.role}.`);
            users.reload();
          }}
        />
        <div className="card">
          <h3 id="user-list-heading">People</h3>
          {message ? (
            <p className="alert alert-success" role="status">
              {message}
            </p>
          ) : null}
          <PagedList
            resource={users}
            loadingText="Loading users…"
            pagesLabel="User pages"
            onPage={setPage}
            empty={<p className="muted">No people yet.</p>}
          >
            {(rows) => (
              <DataTable
                label="People"
                rows={rows}
                rowKey={(user) => user.id}
                columns={[
                  { header: 'Email', rowHeader: true, className: 'url', cell: (user) => user.email },
                  {
                    header: 'Role',
                    cell: (user) => <Badge tone={user.role === 'admin' ? 'info' : 'neutral'}>{user.role}</Badge>,
                  },
                  { header: 'Added', cell: (user) => formatDateTime(user.created_at) },
                ]}
              />
            )}
          </PagedList>
        </div>
      </div>
    </section>
  );
}

function CreateUserForm({ onCreated }: { onCreated: (user: User) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('member');
  const { busy, error, onSubmit } = useSubmit({
    send: async () => {
      const user = await ok(api.POST('/admin/users', { body: { email: email.trim(), password, role } }));
      setEmail('');
      setPassword('');
      setRole('member');
      onCreated(user);
    },
  });

  return (
    <div className="card">
      <h3 id="add-user-heading">Add a person</h3>
      {/* The browser's own checks (required, 12 characters) stop what it can before the API is asked. */}
      <form className="form" onSubmit={onSubmit} aria-labelledby="add-user-heading">
        <TextField
          id="user-email"
          type="email"
          label="Email"
          required
          autoComplete="off"
          value={email}
          onChange={setEmail}
          error={fieldError(error, 'email')}
        />
        <TextField
          id="user-password"
          type="password"
          label="Initial password"
          required
          minLength={12}
          autoComplete="new-password"
          hint="At least 12 characters. Share it with the person over a safe channel."
          value={password}
          onChange={setPassword}
          error={fieldError(error, 'password')}
        />
        <SelectField
          id="user-role"
          label="Role"
          hint="Members review release checks and manage their own keys; admins also manage people and rate limits."
          value={role}
          onChange={setRole}
          options={[
            { value: 'member', label: 'Member' },
            { value: 'admin', label: 'Admin' },
          ]}
        />
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
  const keys = useResource(`/admin/api-keys?page=${page}`, (signal) =>
    ok(api.GET('/admin/api-keys', { params: { query: { page, per_page: 50 } }, signal })),
  );

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
