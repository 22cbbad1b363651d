import { useState } from 'react';
import { Badge } from '../components/Badge';
import { type Column, DataTable } from '../components/DataTable';
import { SelectField, TextField } from '../components/Field';
import { Pagination } from '../components/Pagination';
import { ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import { plural } from '../format';
import { canWrite } from '../permissions';
import type { Crawl, CrawlPage as CrawlPageItem, CreatedMonitorsFromCrawl, CurrentUser } from '../types';
import { everyPage, normalisePrefix, pathOf } from './crawl-pages';
import { inProgress } from './crawl-status';
import { CreateMonitorsForm } from './CreateMonitorsForm';

/** How many of a crawl's pages one page of the table shows; the API allows up to 500. */
export const PAGE_SIZES = [20, 50, 100, 200, 500] as const;
export const DEFAULT_PAGE_SIZE = 100;

/**
 * The crawl's pages with a checkbox each. The selection is kept by URL across pages of the table; "select all" takes
 * the pages shown, "select by path" every page of the crawl under a path. Pages already monitored cannot be picked.
 */
export function PagePicker({
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
  const mayWrite = canWrite(me);
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
    ...(mayWrite
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
      {mayWrite ? (
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
        {mayWrite ? (
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
          caption={`Pages the crawl found, in the order found${mayWrite ? ', with a checkbox to select each' : ''}`}
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

      {mayWrite ? (
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
