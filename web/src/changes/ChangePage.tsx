import { ProblemError } from '../api';
import { ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { canWrite } from '../permissions';
import type { CurrentUser } from '../types';
import { ChangeView } from './ChangeView';
import { Breadcrumb } from '../components/Breadcrumb';

/** `/changes/:id`: one change, its diff and summary, and the person's verdict on it. */
export function ChangePage({ id, me }: { id: string; me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const change = useApi('/changes/{id}', { params: { path: { id } } });
  usePageTitle(change.data ? `${change.data.monitor_name} · Change` : 'Change');

  return (
    <>
      <Breadcrumb
        trail={[{ to: '/changes', label: 'Changes' }]}
        current={change.data ? formatDateTime(change.data.detected_at) : null}
      />
      {!change.data && change.error ? <h1>Change</h1> : null}
      <ResourceView
        resource={change}
        loadingText="Loading change…"
        errorTitle={
          change.error instanceof ProblemError && change.error.status === 404 ? 'Change not found' : undefined
        }
      >
        {(loaded) => <ChangeView change={loaded} mayWrite={mayWrite} onChanged={(next) => change.mutate(() => next)} />}
      </ResourceView>
    </>
  );
}
