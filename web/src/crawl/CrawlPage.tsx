import { ProblemError } from '../api';
import { ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import { navigate, pageParam, useLocation, withQuery } from '../router';
import type { CurrentUser } from '../types';
import { inProgress, POLL_MS } from './crawl-status';
import { CrawlProgress } from './CrawlProgress';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, PagePicker } from './PagePicker';
import { Breadcrumb } from '../components/Breadcrumb';

/** `/crawls/:id`: a crawl's progress and outcome, and its pages to pick from and monitor. */
export function CrawlPage({ id, me }: { id: string; me: CurrentUser }) {
  const { search } = useLocation();
  const page = pageParam(search);
  const perPage = PAGE_SIZES.find((size) => String(size) === search.get('per_page')) ?? DEFAULT_PAGE_SIZE;
  const crawl = useApi('/crawl/{id}', { params: { path: { id }, query: { page, per_page: perPage } } });
  const loaded = crawl.data;
  usePageTitle(loaded ? `Crawl of ${loaded.origin}` : 'Crawl');
  usePolling(loaded !== null && inProgress(loaded), POLL_MS, crawl.reload);

  const go = (next: { page?: number; per_page?: number }) =>
    navigate(
      withQuery(`/crawls/${id}`, {
        page: next.page ?? page,
        per_page: (next.per_page ?? perPage) === DEFAULT_PAGE_SIZE ? undefined : (next.per_page ?? perPage),
      }),
    );

  return (
    <>
      <Breadcrumb trail={[{ to: '/crawls', label: 'Crawl' }]} current={loaded ? loaded.url : null} />
      {!loaded && crawl.error ? <h1>Crawl</h1> : null}
      <ResourceView
        resource={crawl}
        loadingText="Loading the crawl…"
        errorTitle={crawl.error instanceof ProblemError && crawl.error.status === 404 ? 'Crawl not found' : undefined}
      >
        {(current) => (
          <>
            <CrawlProgress
              crawl={current}
              me={me}
              onCancelled={(summary) => {
                crawl.mutate((shown) => ({ ...shown, ...summary }));
                crawl.reload();
              }}
            />
            <PagePicker
              crawl={current}
              me={me}
              onPage={(next) => go({ page: next })}
              onPageSize={(size) => go({ page: 1, per_page: size })}
              onCreated={crawl.reload}
            />
          </>
        )}
      </ResourceView>
    </>
  );
}
