import { useRef, useState } from 'react';
import { api, ok } from '../api';
import { CodeHostsSection } from '../code-hosts/CodeHostsSection';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { OneTimeSecret } from '../components/OneTimeSecret';
import { ProblemAlert } from '../components/ProblemAlert';
import { PagedList } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { useApi } from '../hooks/useApi';
import { storeWorkspaceId } from '../session';
import type { AddedWorkspaceMember, CurrentUser, WorkspaceMember, WorkspaceRole } from '../types';
import { AddMemberForm } from './AddMemberForm';
import { CreateWorkspaceForm } from './CreateWorkspaceForm';
import { MemberItem } from './MemberItem';
import { ReviewPolicyInfo, SettingsForm } from './SettingsForm';
import { article, ROLE_LABEL } from './workspace-roles';

/**
 * The current workspace: its members and settings. Admins add people by e-mail, change roles, remove members, rename
 * the workspace, set its review policy and connect code hosts; everyone else reads the list (and may leave).
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
  const members = useApi('/workspaces/{id}/members', {
    params: { path: { id: workspaceId }, query: { page, per_page: 100 } },
  });
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

      {admin ? <CodeHostsSection /> : null}

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
