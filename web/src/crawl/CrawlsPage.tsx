import { DataTable } from '../components/DataTable';
import { PagedList } from '../components/ResourceView';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import { canWrite } from '../permissions';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { CurrentUser } from '../types';
import { CrawlStatusBadge, inProgress, POLL_MS } from './crawl-status';
import { StartCrawlForm } from './StartCrawlForm';

const CRAWLS_PER_PAGE = 20;

/** `/crawls`: the workspace's crawls, newest first, and a form to start one. */
export function CrawlsPage({ me }: { me: CurrentUser }) {
  const { search } = useLocation();
  const page = pageParam(search);
  const crawls = useApi('/crawl', { params: { query: { page, per_page: CRAWLS_PER_PAGE } } });
  // Crawls in progress end by themselves: refresh the list while any is.
  usePolling(crawls.data?.data.some(inProgress) ?? false, POLL_MS, crawls.reload);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Crawl</h1>
          <p className="lead">
            Discover the pages of a website, then pick the ones to monitor. Vigil crawls as VigilBot: it obeys
            robots.txt, stays on the start URL’s origin and reads the sitemaps.
          </p>
        </div>
      </div>
      {canWrite(me) ? (
        <StartCrawlForm onStarted={(crawl) => navigate(`/crawls/${crawl.id}`)} />
      ) : (
        <p className="alert alert-info">
          You are a viewer of {me.workspace.name}: you can read crawls and the pages they found, but only a member or
          admin can start one or create monitors from it.
        </p>
      )}
      <section aria-labelledby="crawls-heading">
        <h2 id="crawls-heading">Crawls</h2>
        <PagedList
          resource={crawls}
          loadingText="Loading crawls…"
          pagesLabel="Crawl list pages"
          onPage={(next) => navigate(withQuery('/crawls', { page: next }))}
          empty={<p className="muted">No crawls yet.</p>}
        >
          {(rows) => (
            <DataTable
              label="Crawls"
              caption="Crawls, newest first, with status, pages found, start and end"
              rows={rows}
              rowKey={(crawl) => crawl.id}
              rowProps={(crawl) => ({ 'data-crawl-id': crawl.id })}
              columns={[
                {
                  header: 'Crawl',
                  rowHeader: true,
                  cell: (crawl) => (
                    <>
                      <Link to={`/crawls/${crawl.id}`} className="url">
                        {crawl.url}
                      </Link>
                      <span className="block small muted">Requested {formatDateTime(crawl.created_at)}</span>
                    </>
                  ),
                },
                { header: 'Status', cell: (crawl) => <CrawlStatusBadge status={crawl.status} /> },
                { header: 'Pages found', cell: (crawl) => crawl.pages_found },
                {
                  header: 'Started',
                  cell: (crawl) => (crawl.started_at ? formatDateTime(crawl.started_at) : 'Not yet'),
                },
                {
                  header: 'Ended',
                  cell: (crawl) =>
                    crawl.completed_at ? formatDateTime(crawl.completed_at) : inProgress(crawl) ? 'In progress' : '—',
                },
              ]}
            />
          )}
        </PagedList>
      </section>
    </>
  );
}
