import { useState } from 'react';
import { api, ok } from '../api';
import { Badge } from '../components/Badge';
import { DataTable } from '../components/DataTable';
import { SelectField, TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { PagedList } from '../components/ResourceView';
import { useSubmit } from '../components/useSubmit';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import type { Role, User } from '../types';

export function AdminUsers() {
  const [page, setPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const users = useApi('/admin/users', { params: { query: { page, per_page: 50 } } });

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
