import { type FormEvent, useState } from 'react';
import { useApi } from '../hooks/useApi';
import { Link } from '../router';
import { storeWorkspaceId } from '../session';
import type { CurrentUser } from '../types';

/**
 * The header's workspace switcher: the person's workspaces, the current one selected. Choosing one and pressing
 * Switch (a change of context, so never on selection alone) stores it; the app then reloads the page's data. The
 * button stays enabled (choosing the current one does nothing), so it keeps the focus after a switch.
 */
export function WorkspaceSwitcher({ user, profileKey }: { user: CurrentUser; profileKey: string }) {
  const current = user.workspace;
  // Reloaded with every profile load (`profileKey`): a switch, a rename, a new workspace or a changed role all come
  // with one.
  const workspaces = useApi('/workspaces', { params: { query: { per_page: 100 } } }, { reloadOn: profileKey });
  const [chosen, setChosen] = useState<{ for: string; id: string } | null>(null);
  const chosenId = chosen && chosen.for === current.id ? chosen.id : current.id;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (chosenId !== current.id) storeWorkspaceId(chosenId);
  }

  const list = workspaces.error ? null : (workspaces.data?.data ?? null);
  const others = list?.filter((workspace) => workspace.id !== current.id) ?? [];
  if (!list || others.length === 0) {
    // One workspace (or the list is unavailable): nothing to switch to, so name the current one.
    return (
      <p className="workspace-switcher workspace-single">
        <span className="workspace-label">Workspace</span>{' '}
        <Link to="/workspace" className="workspace-name" title={current.name}>
          {current.name}
        </Link>
      </p>
    );
  }
  const listed = list.some((workspace) => workspace.id === current.id)
    ? list
    : [{ id: current.id, name: current.name, role: current.role ?? 'viewer' }, ...list];
  return (
    <form className="workspace-switcher" onSubmit={submit}>
      <label htmlFor="workspace-switch" className="workspace-label">
        Workspace
      </label>
      <select
        id="workspace-switch"
        value={chosenId}
        onChange={(event) => setChosen({ for: current.id, id: event.target.value })}
      >
        {listed.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name} ({workspace.role})
          </option>
        ))}
      </select>
      <button type="submit" className="button button-small button-ghost">
        Switch<span className="visually-hidden"> workspace</span>
      </button>
    </form>
  );
}
