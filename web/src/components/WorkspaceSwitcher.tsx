import { type FormEvent, useEffect, useState } from 'react';
import { call } from '../api';
import { Link } from '../router';
import { storeWorkspaceId } from '../session';
import type { CurrentUser, Workspace, WorkspaceList } from '../types';

/**
 * The header's workspace switcher: the person's workspaces, the current one selected. Choosing one and pressing
 * Switch (a change of context, so never on selection alone) stores it; the app then reloads the page's data. The
 * button stays enabled (choosing the current one does nothing), so it keeps the focus after a switch.
 */
export function WorkspaceSwitcher({ user }: { user: CurrentUser }) {
  const current = user.workspace;
  const [workspaces, setWorkspaces] = useState<Workspace[] | null>(null);
  const [chosen, setChosen] = useState(current.id);

  // Reloaded with every profile load: a switch, a rename, a new workspace or a changed role all come with one.
  useEffect(() => {
    const controller = new AbortController();
    call<WorkspaceList>('GET', '/workspaces', { query: { per_page: 100 }, signal: controller.signal }).then(
      (list) => setWorkspaces(list.data),
      () => setWorkspaces(null),
    );
    return () => controller.abort();
  }, [user]);

  useEffect(() => setChosen(current.id), [current.id]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (chosen !== current.id) storeWorkspaceId(chosen);
  }

  const others = workspaces?.filter((workspace) => workspace.id !== current.id) ?? [];
  if (!workspaces || others.length === 0) {
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
  const listed = workspaces.some((workspace) => workspace.id === current.id)
    ? workspaces
    : [{ id: current.id, name: current.name, role: current.role ?? 'viewer' }, ...workspaces];
  return (
    <form className="workspace-switcher" onSubmit={submit}>
      <label htmlFor="workspace-switch" className="workspace-label">
        Workspace
      </label>
      <select id="workspace-switch" value={chosen} onChange={(event) => setChosen(event.target.value)}>
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
