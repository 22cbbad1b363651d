import { api, ok } from '../api';
import type { CrawlPage as CrawlPageItem } from '../types';

const MAX_PAGE_SIZE = 500;

/** The path of a page's URL (what "select by path" matches). */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** What "select by path" matches against: a path starting with `/`, taken from a whole URL when one is pasted. */
export function normalisePrefix(text: string): string {
  const wanted = text.trim();
  // A whole URL pasted in: its path.
  if (/^https?:\/\//i.test(wanted)) return pathOf(wanted);
  return wanted.startsWith('/') ? wanted : `/${wanted}`;
}

/** Every page of a crawl, read 500 at a time. */
export async function everyPage(id: string): Promise<CrawlPageItem[]> {
  const pages: CrawlPageItem[] = [];
  for (let page = 1; ; page += 1) {
    const chunk = await ok(
      api.GET('/crawl/{id}', { params: { path: { id }, query: { page, per_page: MAX_PAGE_SIZE } } }),
    );
    pages.push(...chunk.pages);
    if (page >= chunk.pagination.total_pages) return pages;
  }
}
