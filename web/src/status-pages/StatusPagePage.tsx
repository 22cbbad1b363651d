import { type ReactNode } from 'react';
import { ProblemError } from '../api';
import { ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { useAllMonitors } from '../hooks/useAllMonitors';
import { useApi } from '../hooks/useApi';
import { canWrite } from '../permissions';
import type { CurrentUser, Monitor } from '../types';
import { ComponentsView } from './ComponentsView';
import { Incidents } from './Incidents';
import { StatusPageForm } from './StatusPageForm';
import { StatusPageHeader } from './StatusPageHeader';
import { Subscribers } from './Subscribers';
import { Breadcrumb } from '../components/Breadcrumb';

/**
 * `/status-pages/:id`: one status page: publish or unpublish, its address, its components, its incidents and its
 * subscribers.
 */
export function StatusPagePage({ id, me }: { id: string; me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const resource = useApi('/status-pages/{id}', { params: { path: { id } } });
  const page = resource.data;
  usePageTitle(page ? `${page.title} · Status page` : 'Status page');

  return (
    <>
      <Breadcrumb trail={[{ to: '/status-pages', label: 'Status pages' }]} current={page ? page.title : null} />
      {!page && resource.error ? <h1>Status page</h1> : null}
      <ResourceView
        resource={resource}
        loadingText="Loading the status page…"
        errorTitle={
          resource.error instanceof ProblemError && resource.error.status === 404 ? 'Status page not found' : undefined
        }
      >
        {(loaded) => (
          <>
            <StatusPageHeader page={loaded} me={me} onChanged={(next) => resource.mutate(() => next)} />
            <div className="settings-layout status-page-layout">
              {mayWrite ? (
                <section aria-labelledby="edit-heading" className="card">
                  <h2 id="edit-heading">Page and components</h2>
                  <WithMonitors>
                    {(monitors) => (
                      <StatusPageForm
                        page={loaded}
                        monitors={monitors}
                        onSaved={(next) => resource.mutate(() => next)}
                      />
                    )}
                  </WithMonitors>
                </section>
              ) : (
                <ComponentsView page={loaded} me={me} />
              )}
              <div className="settings-column">
                <Incidents page={loaded} mayWrite={mayWrite} />
                <Subscribers page={loaded} mayWrite={mayWrite} />
              </div>
            </div>
          </>
        )}
      </ResourceView>
    </>
  );
}

/** Loads every monitor of the workspace, then shows what needs them. */
function WithMonitors({ children }: { children: (monitors: Monitor[]) => ReactNode }) {
  const monitors = useAllMonitors();
  return (
    <ResourceView resource={monitors} loadingText="Loading monitors…" errorTitle="The monitors could not be loaded">
      {children}
    </ResourceView>
  );
}
