import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { Badge } from '../components/Badge';
import { type Column, DataTable } from '../components/DataTable';
import { SelectField, TextAreaField, TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { Pagination } from '../components/Pagination';
import { PagedList, ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { useSubmit } from '../components/useSubmit';
import { formatDateTime, formatInterval, plural } from '../format';
import { usePolling, useResource } from '../hooks/useResource';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type {
  Crawl,
  CrawlFailure,
  CrawlPage as CrawlPageItem,
  CrawlSkipped,
  CrawlStatus,
  CrawlSummary,
  CreatedMonitorsFromCrawl,
  CurrentUser,
} from '../types';

/** A crawl in progress is read again this often: pages appear as they are found. */
const POLL_MS = 1_500;
const CRAWLS_PER_PAGE = 20;
/** How many of a crawl's pages one page of the table shows; the API allows up to 500. */
const PAGE_SIZES = [20, 50, 100, 200, 500] as const;
const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 500;
/** The API's defaults for a crawl (openapi.yaml `StartCrawlRequest`). */
const DEFAULT_MAX_PAGES = 200;
const DEFAULT_MAX_DEPTH = 5;

const STATUS: Record<CrawlStatus, { label: string; tone: string }> = {
  queued: { label: 'Queued', tone: 'info' },
  running: { label: 'Crawling', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
};

/** Why URLs found were not listed as pages, in words, in the API's order. */
const SKIPPED: { reason: keyof CrawlSkipped; label: string }[] = [
  { reason: 'robots', label: 'Disallowed by robots.txt' },
  { reason: 'out_of_scope', label: 'On another origin' },
  { reason: 'excluded', label: 'Left out by the include or exclude globs' },
  { reason: 'not_html', label: 'Not HTML (a PDF, an image…)' },
  { reason: 'duplicate', label: 'Duplicates of another page (canonical link or redirect)' },
  { reason: 'error', label: 'Errors (HTTP 4xx or 5xx, timeouts, too many redirects)' },
];

const FAILURE: Record<CrawlFailure['reason'], string> = {
  robots_unavailable:
    'robots.txt could not be read (it answered with a server error, or not at all), so nothing may be crawled.',
  robots_disallowed: 'robots.txt does not allow VigilBot to fetch the start URL.',
  start_url_failed: 'The start URL could not be fetched as an HTML page, and nothing else was found.',
  interrupted: 'The crawl could not go on (the service kept failing to record it). Start a new one.',
};

const inProgress = (crawl: Pick<CrawlSummary, 'status'>) => crawl.status === 'queued' || crawl.status === 'running';
const canWriteIn = (me: CurrentUser) => me.workspace.role === 'admin' || me.workspace.role === 'member';

export function CrawlStatusBadge({ status }: { status: CrawlStatus }) {
  const { label, tone } = STATUS[status];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Crawl: </span>
      {label}
    </Badge>
  );
}

/** How a crawl ended, in a sentence; null while it runs. */
function outcome(crawl: CrawlSummary): string | null {
  switch (crawl.status) {
    case 'queued':
    case 'running':
      return null;
    case 'completed':
      if (crawl.stop_reason === 'max_pages') {
        return `It stopped at its limit of ${plural(crawl.max_pages, 'page')}, with URLs left to visit.`;
      }
      if (crawl.stop_reason === 'max_depth') {
        return `It stopped at its depth limit: pages more than ${plural(crawl.max_depth, 'link')} from the start URL were found and not fetched.`;
      }
      return 'It found every page it could reach from the start URL and the sitemaps.';
    case 'failed':
      return crawl.failure ? FAILURE[crawl.failure.reason] : 'Nothing could be crawled.';
    case 'cancelled':
      return 'It was cancelled; the pages found before that can still be monitored.';
  }
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The path of a page's URL (what "select by path" matches). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** `/crawls`: the workspace's crawls, newest first, and a form to start one. */
export function CrawlsPage({ me }: { me: CurrentUser }) {
  const { search } = useLocation();
  const page = pageParam(search);
  const crawls = useResource(withQuery('/crawl', { page }), (signal) =>
    ok(api.GET('/crawl', { params: { query: { page, per_page: CRAWLS_PER_PAGE } }, signal })),
  );
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
      {canWriteIn(me) ? (
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

function StartCrawlForm({ onStarted }: { onStarted: (crawl: CrawlSummary) => void }) {
  const [url, setUrl] = useState('');
  const [maxPages, setMaxPages] = useState(String(DEFAULT_MAX_PAGES));
  const [maxDepth, setMaxDepth] = useState(String(DEFAULT_MAX_DEPTH));
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  // An empty number field means the API's default; anything else goes as typed, for the API to judge.
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problem = url.trim() ? null : 'Enter the address to start from, such as https://example.com/.';
      setLocal(problem);
      return problem === null;
    },
    send: async () => {
      const crawl = await ok(
        api.POST('/crawl', {
          body: {
            url: url.trim(),
            max_pages: number(maxPages) ?? DEFAULT_MAX_PAGES,
            max_depth: number(maxDepth) ?? DEFAULT_MAX_DEPTH,
            ...(lines(include).length ? { include: lines(include) } : {}),
            ...(lines(exclude).length ? { exclude: lines(exclude) } : {}),
          },
        }),
      );
      onStarted(crawl);
    },
  });
  const invalid = error instanceof ProblemError && error.code === 'validation_failed';

  return (
    <section aria-labelledby="start-crawl-heading" className="card">
      <h2 id="start-crawl-heading">Start a crawl</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        {invalid ? (
          <ProblemAlert error={error} title="The crawl was not started: correct the fields marked below" />
        ) : (
          <ProblemAlert error={error} />
        )}
        <TextField
          id="crawl-url"
          type="url"
          label="Start URL"
          required
          maxLength={2048}
          inputMode="url"
          spellCheck={false}
          placeholder="https://example.com/"
          hint="A public http(s) address; the crawl stays on its origin."
          value={url}
          onChange={setUrl}
          error={local ?? fieldError(error, 'url')}
        />
        <div className="crawl-form-grid">
          <TextField
            id="crawl-max-pages"
            type="number"
            label="Max pages"
            optional
            min={1}
            max={5000}
            inputMode="numeric"
            hint={`1 to 5000: the crawl stops after listing this many pages. Empty: ${DEFAULT_MAX_PAGES}.`}
            value={maxPages}
            onChange={setMaxPages}
            error={fieldError(error, 'max_pages')}
          />
          <TextField
            id="crawl-max-depth"
            type="number"
            label="Max depth"
            optional
            min={0}
            max={20}
            inputMode="numeric"
            hint={`0 to 20: how many links to follow from the start URL. Empty: ${DEFAULT_MAX_DEPTH}.`}
            value={maxDepth}
            onChange={setMaxDepth}
            error={fieldError(error, 'max_depth')}
          />
          <TextAreaField
            id="crawl-include"
            label="Include"
            optional
            rows={3}
            spellCheck={false}
            placeholder="/blog/**"
            hint="Path globs, one per line: when given, only matching paths are crawled."
            value={include}
            onChange={setInclude}
            error={fieldError(error, 'include')}
          />
          <TextAreaField
            id="crawl-exclude"
            label="Exclude"
            optional
            rows={3}
            spellCheck={false}
            placeholder="/admin/**"
            hint="Path globs, one per line: matching paths are not crawled."
            value={exclude}
            onChange={setExclude}
            error={fieldError(error, 'exclude')}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Starting…' : 'Start crawl'}
        </button>
      </form>
    </section>
  );
}

/** `/crawls/:id`: a crawl's progress and outcome, and its pages to pick from and monitor. */
export function CrawlPage({ id, me }: { id: string; me: CurrentUser }) {
  const { search } = useLocation();
  const page = pageParam(search);
  const perPage = PAGE_SIZES.find((size) => String(size) === search.get('per_page')) ?? DEFAULT_PAGE_SIZE;
  const crawl = useResource(withQuery(`/crawl/${id}`, { page, per_page: perPage }), (signal) =>
    ok(api.GET('/crawl/{id}', { params: { path: { id }, query: { page, per_page: perPage } }, signal })),
  );
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
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to="/crawls">Crawl</Link>
          </li>
          {loaded ? (
            <li>
              <span aria-current="page">{loaded.url}</span>
            </li>
          ) : null}
        </ol>
      </nav>
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

function CrawlProgress({
  crawl,
  me,
  onCancelled,
}: {
  crawl: Crawl;
  me: CurrentUser;
  onCancelled: (summary: CrawlSummary) => void;
}) {
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const running = inProgress(crawl);
  const ended = outcome(crawl);
  const skippedTotal = SKIPPED.reduce((sum, { reason }) => sum + crawl.skipped[reason], 0);

  async function cancel() {
    setCancelling(true);
    setError(null);
    try {
      onCancelled(await ok(api.POST('/crawl/{id}/cancel', { params: { path: { id: crawl.id } } })));
    } catch (caught) {
      setError(caught);
    } finally {
      setCancelling(false);
    }
  }

  return (
    <>
      <div className="page-header">
        <div className="crawl-title">
          <p className="eyebrow">Crawl</p>
          <h1 className="url">{crawl.origin}</h1>
          <p className="check-badges">
            <CrawlStatusBadge status={crawl.status} />
            <span className="url muted">from {crawl.url}</span>
          </p>
        </div>
        {running && canWriteIn(me) ? (
          <button
            type="button"
            className="button button-danger-outline"
            disabled={cancelling}
            onClick={() => void cancel()}
          >
            {cancelling ? 'Cancelling…' : 'Cancel crawl'}
          </button>
        ) : null}
      </div>
      <ProblemAlert error={error} title="The crawl was not cancelled" />
      <dl className="meta-grid crawl-meta">
        <div>
          <dt>Requested</dt>
          <dd>{formatDateTime(crawl.created_at)}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{crawl.started_at ? formatDateTime(crawl.started_at) : 'Not yet'}</dd>
        </div>
        <div>
          <dt>Ended</dt>
          <dd>{crawl.completed_at ? formatDateTime(crawl.completed_at) : running ? 'In progress' : '—'}</dd>
        </div>
        <div>
          <dt>Limits</dt>
          <dd>
            {plural(crawl.max_pages, 'page')}, {plural(crawl.max_depth, 'link')} deep
          </dd>
        </div>
        <div>
          <dt>Include</dt>
          <dd className="url">{crawl.include.length ? crawl.include.join(', ') : 'every path'}</dd>
        </div>
        <div>
          <dt>Exclude</dt>
          <dd className="url">{crawl.exclude.length ? crawl.exclude.join(', ') : 'nothing'}</dd>
        </div>
      </dl>

      <p className="progress" role="status" aria-live="polite">
        {running
          ? `The crawl is ${crawl.status === 'queued' ? 'queued' : 'running'}: ${plural(crawl.pages_found, 'page')} found so far. This page updates every ${POLL_MS / 1000} seconds.`
          : ''}
      </p>

      {crawl.status === 'failed' ? (
        <div className="alert alert-danger" role="alert">
          <p className="alert-title">The crawl failed</p>
          <p>{ended}</p>
          {crawl.failure?.message ? <p>What the site did: {crawl.failure.message}</p> : null}
        </div>
      ) : ended ? (
        <p className={`alert ${crawl.status === 'cancelled' ? 'alert-warning' : 'alert-success'}`}>
          <strong>{crawl.status === 'cancelled' ? 'Cancelled.' : 'Completed.'}</strong> {ended}
        </p>
      ) : null}

      <div className="crawl-counts">
        <dl className="stats">
          <div className="stat">
            <dt>Pages found</dt>
            <dd>{crawl.pages_found}</dd>
          </div>
          <div className={`stat${skippedTotal ? ' stat-warning' : ''}`}>
            <dt>Not listed</dt>
            <dd>{skippedTotal}</dd>
          </div>
        </dl>
        <section aria-labelledby="skipped-heading" className="crawl-skipped">
          <h2 id="skipped-heading" className="h-small">
            URLs found but not listed, by reason
          </h2>
          <dl className="skipped-list">
            {SKIPPED.map(({ reason, label }) => (
              <div key={reason} className={crawl.skipped[reason] ? undefined : 'muted'}>
                <dt>{label}</dt>
                <dd>{crawl.skipped[reason]}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </>
  );
}

/**
 * The crawl's pages with a checkbox each. The selection is kept by URL across pages of the table; "select all" takes
 * the pages shown, "select by path" every page of the crawl under a path. Pages already monitored cannot be picked.
 */
function PagePicker({
  crawl,
  me,
  onPage,
  onPageSize,
  onCreated,
}: {
  crawl: Crawl;
  me: CurrentUser;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
  onCreated: () => void;
}) {
  const canWrite = canWriteIn(me);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [prefix, setPrefix] = useState('');
  const [prefixProblem, setPrefixProblem] = useState<string | null>(null);
  const [selectedNote, setSelectedNote] = useState<string | null>(null);
  const [result, setResult] = useState<CreatedMonitorsFromCrawl | null>(null);
  const shown = crawl.pages;
  const selectable = shown.filter((page) => !page.already_monitored);
  const shownSelected = selectable.filter((page) => selected.has(page.url)).length;
  const allShown = selectable.length > 0 && shownSelected === selectable.length;

  const change = (urls: string[], pick: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const url of urls) {
        if (pick) next.add(url);
        else next.delete(url);
      }
      return next;
    });

  const byPath = useSubmit({
    check: () => {
      const wanted = prefix.trim();
      setPrefixProblem(wanted ? null : 'Enter the start of a path, such as /blog/.');
      setSelectedNote(null);
      return wanted !== '';
    },
    send: async () => {
      const wanted = normalisePrefix(prefix);
      const pages = crawl.pagination.total_pages > 1 ? await everyPage(crawl.id) : shown;
      const matching = pages.filter((page) => pathOf(page.url).startsWith(wanted));
      const picked = matching.filter((page) => !page.already_monitored);
      change(
        picked.map((page) => page.url),
        true,
      );
      const monitored = matching.length - picked.length;
      setSelectedNote(
        matching.length === 0
          ? `No page of this crawl has a path starting with ${wanted}.`
          : `Selected ${plural(picked.length, 'page')} whose path starts with ${wanted}${
              monitored ? ` (${plural(monitored, 'page')} already monitored left out)` : ''
            }.`,
      );
    },
  });

  const columns: Column<CrawlPageItem>[] = [
    ...(canWrite
      ? [
          {
            header: (
              <label className="table-check">
                <input
                  type="checkbox"
                  checked={allShown}
                  disabled={selectable.length === 0}
                  ref={(element) => {
                    if (element) element.indeterminate = shownSelected > 0 && !allShown;
                  }}
                  onChange={(event) =>
                    change(
                      selectable.map((page) => page.url),
                      event.target.checked,
                    )
                  }
                />
                <span className="visually-hidden">Select all {plural(selectable.length, 'page')} shown</span>
              </label>
            ),
            className: 'select-cell',
            cell: (page: CrawlPageItem) =>
              page.already_monitored ? (
                <span className="muted" aria-hidden="true">
                  —
                </span>
              ) : (
                <label className="table-check">
                  <input
                    type="checkbox"
                    checked={selected.has(page.url)}
                    onChange={(event) => change([page.url], event.target.checked)}
                  />
                  <span className="visually-hidden">
                    Select {page.title ?? 'untitled page'} ({pathOf(page.url)})
                  </span>
                </label>
              ),
          },
        ]
      : []),
    {
      header: 'Page',
      rowHeader: true,
      cell: (page) => (
        <>
          {page.title ?? <span className="muted">(no title)</span>}
          <span className="block small muted url">{page.url}</span>
          {page.final_url !== page.url ? (
            <span className="block small muted url">redirects to {page.final_url}</span>
          ) : null}
        </>
      ),
    },
    { header: 'Depth', cell: (page) => page.depth },
    { header: 'Found via', cell: (page) => (page.found_via === 'sitemap' ? 'Sitemap' : 'Link') },
    {
      header: 'Indexing',
      cell: (page) =>
        page.noindex ? (
          <Badge tone="warning" title="The page asks search engines not to index it">
            noindex
          </Badge>
        ) : (
          <span className="muted">indexable</span>
        ),
    },
    {
      header: 'Monitored',
      cell: (page) =>
        page.already_monitored ? <Badge tone="success">Already monitored</Badge> : <span className="muted">No</span>,
    },
  ];

  return (
    <section aria-labelledby="pages-heading" className="card crawl-pages">
      <h2 id="pages-heading">Pages ({crawl.pagination.total})</h2>
      {canWrite ? (
        <p className="small muted">
          Pick the pages to monitor: tick them, “select all” for the pages shown, or select every page under a path.
          Pages already monitored in {me.workspace.name} cannot be picked again.
        </p>
      ) : (
        <p className="alert alert-info">
          You are a viewer of {me.workspace.name}: you can read the pages this crawl found, but only a member or admin
          can create monitors from them (or cancel a crawl).
        </p>
      )}
      <div className="toolbar crawl-toolbar">
        {canWrite ? (
          <form className="form-row" onSubmit={byPath.onSubmit} noValidate>
            <TextField
              id="select-path"
              label="Select by path"
              spellCheck={false}
              placeholder="/blog/"
              hint="Every page of the crawl whose path starts with this."
              value={prefix}
              onChange={setPrefix}
              error={prefixProblem}
            />
            <button type="submit" className="button button-secondary" disabled={byPath.busy}>
              {byPath.busy ? 'Selecting…' : 'Select matching pages'}
            </button>
          </form>
        ) : null}
        <SelectField
          id="pages-per-page"
          label="Rows per page"
          className="field-inline"
          value={String(crawl.pagination.per_page)}
          onChange={(value) => onPageSize(Number(value))}
          options={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
        />
      </div>
      <ProblemAlert error={byPath.error} title="The pages could not be selected" />
      {selectedNote ? (
        <p className="alert alert-info" role="status">
          {selectedNote}
        </p>
      ) : null}

      {shown.length === 0 ? (
        <p className="muted">{inProgress(crawl) ? 'No pages found yet.' : 'This crawl found no pages.'}</p>
      ) : (
        <DataTable
          label="Pages found"
          caption={`Pages the crawl found, in the order found${canWrite ? ', with a checkbox to select each' : ''}`}
          className="crawl-pages-table"
          rows={shown}
          rowKey={(page) => page.id}
          rowProps={(page) => ({
            'data-page-url': page.url,
            ...(selected.has(page.url) ? { className: 'row-selected' } : {}),
          })}
          columns={columns}
        />
      )}
      <Pagination pagination={crawl.pagination} onPage={onPage} label="Pages of the crawl’s pages" />

      {canWrite ? (
        <CreateMonitorsForm
          crawlId={crawl.id}
          selected={selected}
          onClear={() => {
            setSelected(new Set());
            setSelectedNote(null);
          }}
          result={result}
          onCreated={(created) => {
            setResult(created);
            setSelected(new Set());
            setSelectedNote(null);
            onCreated();
          }}
        />
      ) : null}
    </section>
  );
}

function normalisePrefix(text: string): string {
  const wanted = text.trim();
  // A whole URL pasted in: its path.
  if (/^https?:\/\//i.test(wanted)) return pathOf(wanted);
  return wanted.startsWith('/') ? wanted : `/${wanted}`;
}

/** Every page of a crawl, read 500 at a time. */
async function everyPage(id: string): Promise<CrawlPageItem[]> {
  const pages: CrawlPageItem[] = [];
  for (let page = 1; ; page += 1) {
    const chunk = await ok(
      api.GET('/crawl/{id}', { params: { path: { id }, query: { page, per_page: MAX_PAGE_SIZE } } }),
    );
    pages.push(...chunk.pages);
    if (page >= chunk.pagination.total_pages) return pages;
  }
}

function CreateMonitorsForm({
  crawlId,
  selected,
  onClear,
  result,
  onCreated,
}: {
  crawlId: string;
  selected: ReadonlySet<string>;
  onClear: () => void;
  result: CreatedMonitorsFromCrawl | null;
  onCreated: (created: CreatedMonitorsFromCrawl) => void;
}) {
  const [interval, setIntervalText] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problem = selected.size ? null : 'Select at least one page first.';
      setLocal(problem);
      return problem === null;
    },
    send: async () => {
      const created = await ok(
        api.POST('/crawl/{id}/create-monitors', {
          params: { path: { id: crawlId } },
          body: {
            urls: [...selected],
            ...(interval.trim() ? { monitor: { interval_seconds: Number(interval) } } : {}),
          },
        }),
      );
      onCreated(created);
    },
  });
  const invalid = error instanceof ProblemError && error.code === 'validation_failed';

  return (
    <div className="crawl-create">
      <h3 id="create-monitors-heading">Create monitors</h3>
      <CreatedResult result={result} />
      <form className="form" aria-labelledby="create-monitors-heading" onSubmit={onSubmit} noValidate>
        {invalid ? (
          <ProblemAlert error={error} title="No monitors were created: correct what is marked" />
        ) : (
          <ProblemAlert error={error} title="No monitors were created" />
        )}
        <p className="selection-count" aria-live="polite">
          <strong>{plural(selected.size, 'page')} selected</strong>
          {selected.size ? ' (on any page of the table)' : ''}
          {local ? (
            <span className="block field-error" id="create-monitors-selection-error">
              {local}
            </span>
          ) : null}
        </p>
        <TextField
          id="monitor-interval"
          type="number"
          label="Check every (seconds)"
          optional
          min={30}
          max={86400}
          inputMode="numeric"
          hint={`30 to 86400. Empty: every ${formatInterval(300)}, the monitors’ default. Each monitor is named after its page’s title.`}
          value={interval}
          onChange={setIntervalText}
          error={fieldError(error, 'monitor.interval_seconds', 'monitor')}
        />
        <div className="button-row">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create monitors'}
          </button>
          {selected.size ? (
            <button type="button" className="button button-secondary" onClick={onClear}>
              Clear selection
            </button>
          ) : null}
        </div>
      </form>
    </div>
  );
}

function CreatedResult({ result }: { result: CreatedMonitorsFromCrawl | null }) {
  // The region is always there, so what appears in it is announced.
  return (
    <div role="status" className="crawl-result">
      {result ? (
        <div className={`alert ${result.created.length ? 'alert-success' : 'alert-warning'}`}>
          <p className="alert-title">
            {result.created.length ? `Created ${plural(result.created.length, 'monitor')}` : 'No monitors were created'}
            {result.skipped.length ? `; skipped ${plural(result.skipped.length, 'page')} already monitored` : ''}.
          </p>
          {result.created.length ? (
            <ul className="created-list">
              {result.created.map((monitor) => (
                <li key={monitor.id}>
                  <Link to={`/monitors/${monitor.id}`}>{monitor.name}</Link>{' '}
                  <span className="small url">
                    {monitor.url}, every {formatInterval(monitor.interval_seconds)}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          {result.skipped.length ? (
            <>
              <p>Already monitored, so skipped:</p>
              <ul className="skipped-urls">
                {result.skipped.map((skip) => (
                  <li key={skip.url} className="url">
                    {skip.url}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
