import { DataTable } from '../components/DataTable';
import { ManagedBadge } from '../components/ManagedBadge';
import { PagedList, ResourceView } from '../components/ResourceView';
import { formatDateTime } from '../format';
import { useAllMonitors } from '../hooks/useAllMonitors';
import { useApi } from '../hooks/useApi';
import { canWrite } from '../permissions';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { CurrentUser } from '../types';
import { PublishedBadge } from './StatusPageBits';
import { StatusPageForm } from './StatusPageForm';

const PER_PAGE = 20;

/** `/status-pages`: the workspace's public status pages, and a form to create one. */
export function StatusPagesPage({ me }: { me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const { search } = useLocation();
  const page = pageParam(search);
  const pages = useApi('/status-pages', { params: { query: { page, per_page: PER_PAGE } } });
  const monitors = useAllMonitors(mayWrite);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Status pages</h1>
          <p className="lead">
            Public pages that tell your visitors whether your services work: components built from your monitors, with
            90 days of uptime, and the incidents you post. A page stays private until you publish it.
          </p>
        </div>
      </div>
      <div className="settings-layout status-pages-layout">
        {mayWrite ? (
          <section aria-labelledby="create-status-page-heading" className="card">
            <h2 id="create-status-page-heading">Create a status page</h2>
            <ResourceView
              resource={monitors}
              loadingText="Loading monitors…"
              errorTitle="The monitors could not be loaded"
            >
              {(choices) => (
                <StatusPageForm
                  page={null}
                  monitors={choices}
                  onSaved={(created) => navigate(`/status-pages/${created.id}`)}
                />
              )}
            </ResourceView>
          </section>
        ) : (
          <section aria-labelledby="create-status-page-heading" className="card">
            <h2 id="create-status-page-heading">Create a status page</h2>
            <p className="alert alert-info">
              You are a viewer of {me.workspace.name}: you can read the status pages and their incidents, but only a
              member or admin can create, change, publish or delete one, or post an incident.
            </p>
          </section>
        )}

        <section aria-labelledby="status-pages-heading" className="card">
          <h2 id="status-pages-heading">Status pages of {me.workspace.name}</h2>
          <PagedList
            resource={pages}
            loadingText="Loading status pages…"
            pagesLabel="Status page list pages"
            onPage={(next) => navigate(withQuery('/status-pages', { page: next }))}
            empty={<p className="muted">No status pages yet.</p>}
          >
            {(rows) => (
              <DataTable
                label="Status pages"
                caption="Status pages, oldest first, with whether each is published, its components and public address"
                rows={rows}
                rowKey={(row) => row.id}
                rowProps={(row) => ({ 'data-status-page-id': row.id })}
                columns={[
                  {
                    header: 'Page',
                    rowHeader: true,
                    cell: (row) => (
                      <>
                        <Link to={`/status-pages/${row.id}`}>{row.title}</Link>
                        <span className="block small muted url">{row.public_url}</span>
                        <ManagedBadge declarationKey={row.declaration_key} />
                      </>
                    ),
                  },
                  { header: 'Published', cell: (row) => <PublishedBadge published={row.published} /> },
                  { header: 'Components', cell: (row) => row.components.length },
                  { header: 'Changed', cell: (row) => formatDateTime(row.updated_at) },
                ]}
              />
            )}
          </PagedList>
        </section>
      </div>
    </>
  );
}
