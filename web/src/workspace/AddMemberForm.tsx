import { useState } from 'react';
import { api, ok } from '../api';
import { TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import type { AddedWorkspaceMember, CurrentUser, WorkspaceRole } from '../types';
import { ROLES } from './workspace-roles';

export function AddMemberForm({
  me,
  workspaceId,
  onAdded,
}: {
  me: CurrentUser;
  workspaceId: string;
  onAdded: (member: AddedWorkspaceMember) => void;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('member');
  const [local, setLocal] = useState<string | null>(null);
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const valid = /^[^\s@]+@[^\s@]+$/.test(email.trim());
      setLocal(valid ? null : 'Enter the person’s e-mail address, such as name@example.com.');
      return valid;
    },
    send: async () => {
      const member = await ok(
        api.POST('/workspaces/{id}/members', {
          params: { path: { id: workspaceId } },
          body: { email: email.trim(), role },
        }),
      );
      setEmail('');
      setRole('member');
      onAdded(member);
    },
  });

  const emailError = local ?? fieldError(error, 'email');
  return (
    <section aria-labelledby="add-member-heading" className="card">
      <h2 id="add-member-heading">Add a member</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          id="member-email"
          type="email"
          label="Email"
          required
          autoComplete="off"
          maxLength={254}
          hint={
            me.role === 'admin'
              ? 'Someone new to Vigil is created with a one-time password, shown to you once.'
              : 'They must have signed up to Vigil already.'
          }
          value={email}
          onChange={setEmail}
          error={emailError}
        />
        <fieldset className="field">
          <legend>Role</legend>
          <ul className="scope-options">
            {ROLES.map((option) => {
              const id = `new-member-role-${option.role}`;
              return (
                <li key={option.role} className="check">
                  <input
                    id={id}
                    type="radio"
                    name="new-member-role"
                    value={option.role}
                    checked={role === option.role}
                    onChange={() => setRole(option.role)}
                    aria-describedby={`${id}-grants`}
                  />
                  <label htmlFor={id}>{option.label}</label>
                  <span id={`${id}-grants`} className="scope-grants">
                    {option.grants}
                  </span>
                </li>
              );
            })}
          </ul>
        </fieldset>
        <ProblemAlert error={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add member'}
        </button>
      </form>
    </section>
  );
}
