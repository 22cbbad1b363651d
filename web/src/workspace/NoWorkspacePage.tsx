import { usePageTitle } from '../components/usePageTitle';
import { clearSession } from '../session';
import { CreateWorkspaceForm } from './CreateWorkspaceForm';

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
