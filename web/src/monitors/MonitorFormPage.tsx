import { ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { useApi } from '../hooks/useApi';
import { canWrite } from '../permissions';
import type { CurrentUser } from '../types';
import { MonitorForm } from './MonitorForm';
import { Breadcrumb } from '../components/Breadcrumb';

/** `/monitors/new` and `/monitors/:id/edit`. */
export function MonitorFormPage({ id, me }: { id: string | null; me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const monitor = useApi('/monitors/{id}', id ? { params: { path: { id } } } : null);
  usePageTitle(id ? (monitor.data ? `Edit ${monitor.data.name}` : 'Edit monitor') : 'New monitor');

  return (
    <>
      <Breadcrumb
        trail={[
          { to: '/monitors', label: 'Monitors' },
          ...(id && monitor.data ? [{ to: `/monitors/${id}`, label: monitor.data.name }] : []),
        ]}
        current={id ? 'Edit' : 'New monitor'}
      />
      <div className="page-header">
        <div>
          <h1>{id ? `Edit ${monitor.data?.name ?? 'monitor'}` : 'New monitor'}</h1>
          <p className="lead">
            Vigil checks the page at each interval from every region you pick, and records a change when the watched
            text or a tracked value moves.
          </p>
        </div>
      </div>
      {!mayWrite ? (
        <p className="alert alert-info">
          You are a viewer of {me.workspace.name}: viewers cannot create or change monitors. A member or admin can.
        </p>
      ) : id ? (
        <ResourceView resource={monitor} loadingText="Loading monitor…">
          {(loaded) => <MonitorForm key={loaded.id} monitor={loaded} />}
        </ResourceView>
      ) : (
        <MonitorForm monitor={null} />
      )}
    </>
  );
}
