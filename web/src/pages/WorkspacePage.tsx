import { type FormEvent, useRef, useState } from 'react';
import { api, ok } from '../api';
import { Badge } from '../components/Badge';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CreateWorkspaceForm } from '../components/CreateWorkspaceForm';
import { OneTimeSecret } from '../components/OneTimeSecret';
import { TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { PagedList } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { useSubmit } from '../components/useSubmit';
import { formatDateTime } from '../format';
import { useResource } from '../hooks/useResource';
import { clearSession, storeWorkspaceId } from '../session';
import type { AddedWorkspaceMember, CurrentUser, WorkspaceMember, WorkspaceRole } from '../types';

export const ROLES: { role: WorkspaceRole; label: string; grants: string }[] = [
  { role: 'admin', label: 'Admin', grants: 'manages members, all API keys and settings, and does what a member does' },
  { role: 'member', label: 'Member', grants: 'creates and changes checks and keys, and reviews release checks' },
  { role: 'viewer', label: 'Viewer', grants: 'reads only: cannot review, create or change anything' },
];

const ROLE_LABEL: Record<WorkspaceRole, string> = { admin: 'Admin', member: 'Member', viewer: 'Viewer' };
const ROLE_TONE: Record<WorkspaceRole, string> = { admin: 'info', member: 'neutral', viewer: 'neutral' };

/**
 * The current workspace: its members and settings. Admins add people by e-mail, change roles, remove members, rename
 * the workspace and set its review policy; everyone else reads the list (and may leave).
 */
export function WorkspacePage({ me, onChanged }: { me: CurrentUser; onChanged: () => void }) {
  const workspace = me.workspace;
  const admin = workspace.role === 'admin';
  usePageTitle(`${workspace.name} · Workspace`);

  const [page, setPage] = useState(1);
  const [actionError, setActionError] = useState<{ title: string; error: unknown } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [added, setAdded] = useState<AddedWorkspaceMember | null>(null);
  const [removing, setRemoving] = useState<WorkspaceMember | null>(null);
  const membersHeading = useRef<HTMLHeadingElement>(null);

  const workspaceId = workspace.id;
  const members = useResource(`/workspaces/${workspaceId}/members?page=${page}`, (signal) =>
    ok(
      api.GET('/workspaces/{id}/members', {
        params: { path: { id: workspaceId }, query: { page, per_page: 100 } },
        signal,
      }),
    ),
  );
  const memberPath = (member: WorkspaceMember) => ({ params: { path: { id: workspaceId, user_id: member.user_id } } });

  function replace(member: WorkspaceMember) {
    members.mutate((current) => ({
      ...current,
      data: current.data.map((item) => (item.user_id === member.user_id ? member : item)),
    }));
  }

  async function changeRole(member: WorkspaceMember, role: WorkspaceRole): Promise<boolean> {
    setActionError(null);
    setMessage(null);
    try {
      const updated = await ok(
        api.PATCH('/workspaces/{id}/members/{user_id}', { ...memberPath(member), body: { role } }),
      );
      replace(updated);
      setMessage(`${updated.email} is now ${article(updated.role)} ${updated.role}.`);
      // The person's own role decides what this page (and every other) offers them.
      if (updated.user_id === me.id) onChanged();
      return true;
    } catch (caught) {
      setActionError({ title: `The role of ${member.email} was not changed`, error: caught });
      return false;
    }
  }

  async function remove(member: WorkspaceMember) {
    await ok(api.DELETE('/workspaces/{id}/members/{user_id}', memberPath(member)));
    setRemoving(null);
    if (member.user_id === me.id) {
      // Left: act in the default workspace from now on.
      storeWorkspaceId(null);
      return;
    }
    setMessage(`Removed ${member.email} from ${workspace.name}.`);
    // Their row (and its Remove button, which had the focus) is gone: continue from the list's heading.
    membersHeading.current?.focus();
    members.mutate((current) => ({
      ...current,
      data: current.data.filter((item) => item.user_id !== member.user_id),
      pagination: { ...current.pagination, total: current.pagination.total - 1 },
    }));
  }

  const leaving = removing?.user_id === me.id;

  return (
    <>
      <div className="page-header">
        <div>
          <p className="eyebrow">Workspace</p>
          <h1 className="workspace-title">{workspace.name}</h1>
          <p className="lead">
            Everything in Vigil (release checks, monitors, API keys) belongs to a workspace, and its members work on it
            together. Your role here: <strong>{ROLE_LABEL[workspace.role ?? 'viewer'].toLowerCase()}</strong>.
          </p>
        </div>
      </div>

      {added?.temporary_password ? (
        <OneTimeSecret
          heading={`${added.email} can now sign in`}
          warning={
            <>
              <strong>Copy this one-time password now</strong> and give it to {added.email} privately. It is shown only
              this once and cannot be read again.
            </>
          }
          label="One-time password"
          noun="password"
          secret={added.temporary_password}
          doneLabel="I have passed the password on"
          onDone={() => setAdded(null)}
        />
      ) : null}

      <div className="settings-layout">
        <div className="settings-column">
          {admin ? (
            <>
              <AddMemberForm
                me={me}
                workspaceId={workspaceId}
                onAdded={(member) => {
                  setAdded(member);
                  setActionError(null);
                  setMessage(`Added ${member.email} as ${article(member.role)} ${member.role}.`);
                  members.reload();
                }}
              />
              <SettingsForm me={me} onSaved={onChanged} />
            </>
          ) : (
            <ReviewPolicyInfo me={me} />
          )}
        </div>

        <section aria-labelledby="members-heading" className="card">
          <h2 id="members-heading" ref={membersHeading} tabIndex={-1}>
            Members
          </h2>
          {admin ? (
            <p className="hint members-hint">
              Change a role with its list and Save; removing someone takes their access away at once. The API keys they
              created stay with the workspace.
            </p>
          ) : (
            <p className="alert alert-info members-read-only">
              Only admins of this workspace manage its members: ask one of them to add someone, change a role or remove
              a member.
            </p>
          )}
          {message ? (
            <p className="alert alert-success" role="status">
              {message}
            </p>
          ) : null}
          {actionError ? <ProblemAlert error={actionError.error} title={actionError.title} /> : null}
          <PagedList
            resource={members}
            loadingText="Loading members…"
            pagesLabel="Member pages"
            onPage={setPage}
            empty={null}
          >
            {(items) => (
              <ul className="member-list" aria-labelledby="members-heading">
                {items.map((member) => (
                  // Keyed by the role too: a changed role starts the item's draft afresh.
                  <MemberItem
                    key={`${member.user_id}:${member.role}`}
                    member={member}
                    you={member.user_id === me.id}
                    admin={admin}
                    onRole={(role) => changeRole(member, role)}
                    onRemove={() => {
                      setActionError(null);
                      setRemoving(member);
                    }}
                  />
                ))}
              </ul>
            )}
          </PagedList>
        </section>
      </div>

      <section aria-labelledby="new-workspace-heading" className="card new-workspace">
        <h2 id="new-workspace-heading">Create another workspace</h2>
        <p className="hint">You become its admin, and Vigil switches to it.</p>
        <CreateWorkspaceForm
          idPrefix="new-workspace"
          label="Name of the new workspace"
          submitLabel="Create workspace"
        />
      </section>

      {removing ? (
        <ConfirmDialog
          title={leaving ? `Leave ${workspace.name}?` : `Remove ${removing.email}?`}
          confirmLabel={leaving ? 'Leave workspace' : 'Remove member'}
          busyLabel={leaving ? 'Leaving…' : 'Removing…'}
          onConfirm={() => remove(removing)}
          onClose={() => setRemoving(null)}
        >
          <p>
            {leaving
              ? `You lose access to ${workspace.name}'s release checks and keys at once; an admin can add you again.`
              : `${removing.email} loses access to ${workspace.name}'s release checks and keys at once. The API keys they created stay with the workspace; its admins can revoke them.`}
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function article(role: WorkspaceRole): string {
  return role === 'admin' ? 'an' : 'a';
}

function MemberItem({
  member,
  you,
  admin,
  onRole,
  onRemove,
}: {
  member: WorkspaceMember;
  you: boolean;
  admin: boolean;
  onRole: (role: WorkspaceRole) => Promise<boolean>;
  onRemove: () => void;
}) {
  const [draft, setDraft] = useState<WorkspaceRole>(member.role);
  const [busy, setBusy] = useState(false);
  const selectId = `role-${member.user_id}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (draft === member.role) return;
    setBusy(true);
    const changed = await onRole(draft);
    setBusy(false);
    if (!changed) setDraft(member.role);
  }

  return (
    <li className="member" data-user-id={member.user_id}>
      <div className="member-who">
        <span className="member-email url">{member.email}</span>
        {you ? <Badge tone="info">you</Badge> : null}
        <span className="small muted block">
          Added <time dateTime={member.added_at}>{formatDateTime(member.added_at)}</time>
        </span>
      </div>
      <div className="member-actions">
        {admin ? (
          <form className="member-role" onSubmit={(event) => void submit(event)}>
            <label htmlFor={selectId}>
              Role<span className="visually-hidden"> of {member.email}</span>
            </label>
            <select id={selectId} value={draft} onChange={(event) => setDraft(event.target.value as WorkspaceRole)}>
              {ROLES.map(({ role, label }) => (
                <option key={role} value={role}>
                  {label}
                </option>
              ))}
            </select>
            <button type="submit" className="button button-small button-secondary" disabled={busy}>
              {busy ? 'Saving…' : 'Save'}
              <span className="visually-hidden"> role of {member.email}</span>
            </button>
          </form>
        ) : (
          <Badge tone={ROLE_TONE[member.role]}>
            <span className="visually-hidden">Role: </span>
            {ROLE_LABEL[member.role]}
          </Badge>
        )}
        {admin || you ? (
          <button type="button" className="button button-small button-danger-outline" onClick={onRemove}>
            {you ? (
              'Leave'
            ) : (
              <>
                Remove<span className="visually-hidden"> {member.email}</span>
              </>
            )}
          </button>
        ) : null}
      </div>
    </li>
  );
}

function SettingsForm({ me, onSaved }: { me: CurrentUser; onSaved: () => void }) {
  const workspace = me.workspace;
  const [name, setName] = useState(workspace.name);
  const [distinct, setDistinct] = useState(workspace.review_policy.require_distinct_reviewer);
  const [local, setLocal] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      setSaved(null);
      setLocal(name.trim() ? null : 'The workspace needs a name.');
      return Boolean(name.trim());
    },
    send: async () => {
      const updated = await ok(
        api.PATCH('/workspaces/{id}', {
          params: { path: { id: workspace.id } },
          body: { name: name.trim(), review_policy: { require_distinct_reviewer: distinct } },
        }),
      );
      setName(updated.name);
      setDistinct(updated.review_policy.require_distinct_reviewer);
      setSaved(
        updated.review_policy.require_distinct_reviewer
          ? 'Saved. A second person must now approve each release check.'
          : 'Saved. Whoever opened a release check may also approve it.',
      );
      onSaved();
    },
  });

  const nameError = local ?? fieldError(error, 'name');
  return (
    <section aria-labelledby="settings-heading" className="card">
      <h2 id="settings-heading">Settings</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          id="workspace-name"
          label="Name"
          required
          maxLength={100}
          value={name}
          onChange={setName}
          error={nameError}
        />
        <div className="field check">
          <input
            id="require-distinct-reviewer"
            type="checkbox"
            checked={distinct}
            onChange={(event) => setDistinct(event.target.checked)}
            aria-describedby="require-distinct-reviewer-hint"
          />
          <label htmlFor="require-distinct-reviewer">Require a second person to approve release checks</label>
          <span id="require-distinct-reviewer-hint" className="scope-grants">
            The person who opened a check (signed in, or with an API key they created) cannot approve it; they can still
            reject it.
          </span>
        </div>
        <ProblemAlert error={error} />
        {saved ? (
          <p className="alert alert-success" role="status">
            {saved}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
      </form>
    </section>
  );
}

function ReviewPolicyInfo({ me }: { me: CurrentUser }) {
  const distinct = me.workspace.review_policy.require_distinct_reviewer;
  return (
    <section aria-labelledby="policy-heading" className="card">
      <h2 id="policy-heading">Review policy</h2>
      <p>
        {distinct
          ? 'A second person must approve each release check: whoever opened a check cannot approve it (they can still reject it).'
          : 'Any member or admin may approve a release check, including the person who opened it.'}
      </p>
      <p className="small muted">Viewers can read release checks but not review them. Admins change this policy.</p>
    </section>
  );
}

function AddMemberForm({
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

/** For a person who belongs to no workspace (removed from every one): say so, and let them create one. */
export function NoWorkspacePage() {
  usePageTitle('No workspace');
  return (
    <div className="no-workspace">
      <h1>You are not in a workspace</h1>
      <p>
        Release checks, monitors and API keys all belong to a workspace, and you are not a member of any. Ask an admin
        of your team’s workspace to add you with the e-mail address you sign in with, or create a workspace of your own.
      </p>
      <section aria-labelledby="create-workspace-heading" className="card">
        <h2 id="create-workspace-heading">Create a workspace</h2>
        <CreateWorkspaceForm idPrefix="first-workspace" label="Workspace name" submitLabel="Create workspace" />
      </section>
      <button type="button" className="button button-secondary" onClick={() => clearSession('signed_out')}>
        Sign out
      </button>
    </div>
  );
}
