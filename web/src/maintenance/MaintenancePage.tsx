import { useEffect, useRef, useState } from 'react';
import { api, ok } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DriftWarning } from '../components/DriftWarning';
import { PagedList, ResourceView } from '../components/ResourceView';
import { formatDateTime } from '../format';
import { useAllMonitors } from '../hooks/useAllMonitors';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import { canWrite } from '../permissions';
import { navigate, pageParam, useLocation, withQuery } from '../router';
import type { CurrentUser, MaintenanceWindow } from '../types';
import { CreateWindowForm } from './CreateWindowForm';
import { browserTimeZone } from './maintenance-times';
import { WindowItem } from './WindowItem';

const PER_PAGE = 20;
/** Windows start and end by the clock: while any is still to come or under way, the list is read again this often. */
const POLL_MS = 30_000;

/** What deleting a window does, by its status. */
const DELETE_EFFECT: Record<MaintenanceWindow['status'], string> = {
  active: 'It ends at once: alerts and checks go back to normal. ',
  scheduled: 'What it has to come never starts. ',
  completed: '',
};

/** What a new window's creation tells: under way until when, or when it first starts. */
function createdNote(created: MaintenanceWindow): string {
  if (created.current) return `Started “${created.name}”: under way until ${formatDateTime(created.current.ends_at)}.`;
  if (created.next) return `Scheduled “${created.name}” for ${formatDateTime(created.next.starts_at)}.`;
  return `Created “${created.name}”; it has no occurrence to come.`;
}

/** `/maintenance`: the workspace's maintenance windows, a form to start or schedule one; end one now, delete one. */
export function MaintenancePage({ me }: { me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const { search } = useLocation();
  const page = pageParam(search);
  const windows = useApi('/maintenance-windows', { params: { query: { page, per_page: PER_PAGE } } });
  // Everyone reads the monitors' names in the list; those who may write also choose among them.
  const monitors = useAllMonitors();
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<MaintenanceWindow | null>(null);
  usePolling(windows.data?.data.some((item) => item.status !== 'completed') ?? false, POLL_MS, windows.reload);
  const listHeading = useRef<HTMLHeadingElement>(null);
  // The deleted window's button had the focus: once the dialog has closed, carry on from the list's heading.
  const [deletions, setDeletions] = useState(0);
  useEffect(() => {
    if (deletions) listHeading.current?.focus();
  }, [deletions]);

  const replace = (updated: MaintenanceWindow) =>
    windows.mutate((list) => ({ ...list, data: list.data.map((item) => (item.id === updated.id ? updated : item)) }));

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Maintenance</h1>
          <p className="lead">
            Planned work on what your monitors watch: during a maintenance window alerts are muted or checks paused,
            status pages say so on the components it covers, and uptime counts its checks apart.
          </p>
        </div>
      </div>
      <div className="settings-layout">
        <section aria-labelledby="create-maintenance-heading" className="card">
          <h2 id="create-maintenance-heading">New maintenance window</h2>
          {mayWrite ? (
            <ResourceView
              resource={monitors}
              loadingText="Loading monitors…"
              errorTitle="The monitors could not be loaded"
            >
              {(choices) => (
                <CreateWindowForm
                  monitors={choices}
                  onCreated={(created) => {
                    setMessage(createdNote(created));
                    windows.reload();
                  }}
                />
              )}
            </ResourceView>
          ) : (
            <p className="alert alert-info">
              You are a viewer of {me.workspace.name}: you can read its maintenance windows, but only a member or admin
              can start, schedule, end or delete one.
            </p>
          )}
        </section>

        <section aria-labelledby="maintenance-heading" className="card">
          <h2 id="maintenance-heading" ref={listHeading} tabIndex={-1}>
            Maintenance windows of {me.workspace.name}
          </h2>
          <p className="small muted">Times are in your time zone, {browserTimeZone()}.</p>
          <div role="status">{message ? <p className="alert alert-success">{message}</p> : null}</div>
          <PagedList
            resource={windows}
            loadingText="Loading maintenance windows…"
            pagesLabel="Maintenance window pages"
            onPage={(next) => navigate(withQuery('/maintenance', { page: next }))}
            empty={<p className="muted">No maintenance windows yet.</p>}
          >
            {(rows) => (
              <ul className="maintenance-list">
                {rows.map((maintenance) => (
                  <WindowItem
                    key={maintenance.id}
                    maintenance={maintenance}
                    monitors={monitors.data}
                    mayWrite={mayWrite}
                    onEnded={(ended) => {
                      replace(ended);
                      setMessage(`Ended “${ended.name}” now.`);
                    }}
                    onDelete={() => setDeleting(maintenance)}
                  />
                ))}
              </ul>
            )}
          </PagedList>
        </section>
      </div>

      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete maintenance window"
          busyLabel="Deleting…"
          onConfirm={async () => {
            await ok(api.DELETE('/maintenance-windows/{id}', { params: { path: { id: deleting.id } } }));
            setDeleting(null);
            setMessage(`Deleted “${deleting.name}”.`);
            windows.mutate((list) => ({ ...list, data: list.data.filter((item) => item.id !== deleting.id) }));
            windows.reload();
            setDeletions((count) => count + 1);
          }}
          onClose={() => setDeleting(null)}
        >
          <DriftWarning resource={{ noun: 'maintenance window', declarationKey: deleting.declaration_key }} deleting />
          <p>
            {DELETE_EFFECT[deleting.status]}
            This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
