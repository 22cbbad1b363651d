import { type FormEvent, useState } from 'react';
import { Badge } from '../components/Badge';
import { formatDateTime } from '../format';
import type { WorkspaceMember, WorkspaceRole } from '../types';
import { ROLE_LABEL, ROLE_TONE, ROLES } from './workspace-roles';

export function MemberItem({
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
