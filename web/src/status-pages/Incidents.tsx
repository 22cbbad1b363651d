import { useState } from 'react';
import { PagedList } from '../components/ResourceView';
import { useApi } from '../hooks/useApi';
import type { StatusPage } from '../types';
import { IncidentItem } from './IncidentItem';
import { OpenIncidentForm } from './OpenIncidentForm';

const INCIDENTS_PER_PAGE = 10;

/** A page's incidents, newest first, each with its updates in order; a form to open one. */
export function Incidents({ page, mayWrite }: { page: StatusPage; mayWrite: boolean }) {
  const [listPage, setListPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const incidents = useApi('/status-pages/{id}/incidents', {
    params: { path: { id: page.id }, query: { page: listPage, per_page: INCIDENTS_PER_PAGE } },
  });

  return (
    <section aria-labelledby="incidents-heading" className="card incidents">
      <h2 id="incidents-heading">Incidents</h2>
      <p className="small muted">
        {page.published
          ? 'Open incidents, and those of the last 90 days, show on the public page, newest first.'
          : 'Once the page is published, open incidents and those of the last 90 days show on it.'}
      </p>
      {mayWrite ? (
        <OpenIncidentForm
          page={page}
          onOpened={(incident) => {
            setMessage(
              `Opened “${incident.title}”${page.published ? ': it shows on the public page now.' : '. It shows once the page is published.'}`,
            );
            setListPage(1);
            incidents.reload();
          }}
        />
      ) : null}
      <div role="status">{message ? <p className="alert alert-success">{message}</p> : null}</div>
      <PagedList
        resource={incidents}
        loadingText="Loading incidents…"
        pagesLabel="Incident pages"
        onPage={setListPage}
        empty={<p className="muted">No incidents posted.</p>}
      >
        {(list) => (
          <ul className="incident-list">
            {list.map((incident) => (
              <IncidentItem
                key={incident.id}
                pageId={page.id}
                incident={incident}
                mayWrite={mayWrite}
                onUpdated={(updated) =>
                  incidents.mutate((current) => ({
                    ...current,
                    data: current.data.map((item) => (item.id === updated.id ? updated : item)),
                  }))
                }
              />
            ))}
          </ul>
        )}
      </PagedList>
    </section>
  );
}
