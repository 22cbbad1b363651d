import { ProblemError } from '../api';
import { ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { canWrite } from '../permissions';
import { Link } from '../router';
import type { CurrentUser } from '../types';
import { ChangeView } from './ChangeView';

/** `/changes/:id`: one change, its diff and summary, and the person's verdict on it. */
export function ChangePage({ id, me }: { id: string; me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const change = useApi('/changes/{id}', { params: { path: { id } } });
  usePageTitle(change.data ? `${change.data.monitor_name} · Change` : 'Change');

  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to="/changes">Changes</Link>
          </li>
          {change.data ? (
            <li>
              <span aria-current="page">{formatDateTime(change.data.detected_at)}</span>
            </li>
          ) : null}
        </ol>
      </nav>
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
