import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type FetchOutcome,
  headerRobotsDirectives,
  normalizeUrl,
  parsePageMarkup,
  pathFilter,
  type PoliteFetcher,
  readRobots,
  readSitemaps,
  type RobotsRules,
} from '../../libs/crawl';
import { decodeBody } from '../../libs/page-check';
import { inWorkspace } from '../common/tenancy/workspace-scope';
import type { CrawlFailure, CrawlStopReason } from './entities/crawl.entity';
import type { CrawlUrlState, FoundVia, SkipReason } from './entities/crawl-url.entity';

const PAGE_MAX_BYTES = 5 * 1024 * 1024;
const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5';
const MAX_REDIRECTS = 5;
/** Results are written in batches: at this many, or this often, whichever comes first. */
const FLUSH_AT = 200;
const FLUSH_EVERY_MS = 250;
/** How often a running crawl looks whether it was cancelled. */
const CANCEL_CHECK_MS = 1000;
/** Pending URLs read from the frontier at once. */
const FRONTIER_BATCH = 500;
/** Times the start URL may move the crawl to another origin (http → https → www...). */
const ORIGIN_MOVES = 3;

export type CrawlEnd =
  | { status: 'completed'; stopReason: CrawlStopReason | null }
  | { status: 'failed'; failure: CrawlFailure }
  | { status: 'cancelled' };

export interface CrawlSettings {
  id: string;
  url: string;
  origin: string;
  maxPages: number;
  maxDepth: number;
  include: string[];
  exclude: string[];
  sitemapsRead: boolean;
}

interface FrontierEntry {
  id: string;
  url: string;
  depth: number;
  found_via: FoundVia;
}

interface NewUrl extends FrontierEntry {
  state: Exclude<CrawlUrlState, 'page'>;
  skip_reason: SkipReason | null;
  /** Order of discovery within one write; the table's `seq` keeps it. */
  n: number;
}

interface UrlResult {
  id: string;
  state: 'page' | 'skipped';
  skip_reason: SkipReason | null;
  final_url: string | null;
  status_code: number | null;
  title: string | null;
  canonical: string | null;
  noindex: boolean;
}

/**
 * One run of one crawl, from wherever its recorded frontier stands: robots.txt first, the start URL, the sitemaps
 * once, then the frontier shallowest first. Results and the URLs they lead to are written together in one
 * transaction per batch, each URL once (unique per crawl) and only while still pending, so a run that dies loses at
 * most its unwritten batch, which the next run fetches again.
 */
export class CrawlSession {
  private robots!: RobotsRules;
  private readonly inScope: (url: string) => boolean;
  /** Every URL the crawl has recorded (any state): found again, it is ignored. */
  private readonly known = new Set<string>();
  /** Same-origin URLs found too deep to fetch; the crawl stopped at max_depth if one was never found shallower. */
  private readonly tooDeep = new Set<string>();
  /** URLs being fetched, or fetched with the result not written yet: not to be taken from the frontier again. */
  private readonly claimed = new Set<string>();
  private newUrls: NewUrl[] = [];
  private results: UrlResult[] = [];
  private discovered = 0;
  private pages = 0;
  private cancelled = false;
  /** What went wrong with the start URL, for a crawl that found nothing. */
  private startProblem: string | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly crawl: CrawlSettings,
    private readonly fetcher: PoliteFetcher,
    private readonly options: {
      concurrency: number;
      delayCapMs: number;
      isCancelled: () => Promise<boolean>;
      /** Told of every page fetch (not robots.txt or sitemaps), for the metrics. */
      onPageFetched?: (outcome: FetchOutcome) => void;
    },
  ) {
    this.inScope = pathFilter(crawl.include, crawl.exclude);
  }

  async run(): Promise<CrawlEnd> {
    const robots = await readRobots(this.crawl.origin, this.fetcher, this.options.delayCapMs);
    if (robots.kind === 'unavailable') return robotsUnavailable(robots.message);
    this.robots = robots.rules;
    await this.loadKnown();

    const start = await this.pendingStart();
    if (start) {
      if (!this.robots.isAllowed(start.url)) return robotsDisallowed(start.url);
      const moved = await this.visitStart(start);
      if (moved) return moved;
      await this.flush();
    }
    if (!this.crawl.sitemapsRead) await this.readSitemaps();
    await this.crawlFrontier();
    await this.flush();
    return this.end();
  }

  private async loadKnown(): Promise<void> {
    const rows = await this.em.execute<{ url: string; state: CrawlUrlState }[]>(
      `select u.url, u.state from crawl_urls u join crawls c on c.id = u.crawl_id
        where ${inWorkspace(this.em, 'c.workspace_id')} and u.crawl_id = ?`,
      [this.crawl.id],
    );
    for (const row of rows) {
      this.known.add(row.url);
      if (row.state === 'page') this.pages += 1;
    }
    if (rows.length === 0) {
      // The start URL is fetched whatever include and exclude say: it is where the links come from.
      this.known.add(this.crawl.url);
      this.newUrls.push(this.newUrl(this.crawl.url, 0, 'link', 'pending', null));
      await this.flush();
    }
  }

  private async pendingStart(): Promise<FrontierEntry | null> {
    const [start] = await this.em.execute<FrontierEntry[]>(
      `select u.id, u.url, u.depth, u.found_via from crawl_urls u join crawls c on c.id = u.crawl_id
        where ${inWorkspace(this.em, 'c.workspace_id')} and u.crawl_id = ? and u.depth = 0 and u.state = 'pending'`,
      [this.crawl.id],
    );
    return start ?? null;
  }

  /**
   * The start URL may redirect to another origin (http to https, the bare domain to www): the crawl moves there,
   * reading that origin's robots.txt before fetching anything on it. Returns the crawl's end when that fails.
   */
  private async visitStart(start: FrontierEntry): Promise<CrawlEnd | null> {
    let url = start.url;
    for (let moves = 0; ; moves += 1) {
      const outcome = await this.fetchPage(url, true);
      const next = outcome.kind === 'response' && outcome.declinedRedirect;
      const elsewhere = next ? new URL(next).origin : this.crawl.origin;
      if (!next || elsewhere === this.crawl.origin || moves >= ORIGIN_MOVES) {
        this.settle(start, outcome);
        return null;
      }
      const robots = await readRobots(elsewhere, this.fetcher, this.options.delayCapMs);
      if (robots.kind === 'unavailable') return robotsUnavailable(robots.message);
      if (!robots.rules.isAllowed(next)) return robotsDisallowed(next);
      this.robots = robots.rules;
      this.crawl.origin = elsewhere;
      await this.em.execute(`update crawls set origin = ? where id = ? and ${inWorkspace(this.em, 'workspace_id')}`, [
        elsewhere,
        this.crawl.id,
      ]);
      url = next;
    }
  }

  private async readSitemaps(): Promise<void> {
    const sitemaps = [...this.robots.sitemaps, new URL('/sitemap.xml', this.crawl.origin).href];
    for (const listed of await readSitemaps(sitemaps, this.fetcher, this.robots.delayMs)) {
      const url = normalizeUrl(listed);
      if (url) this.discover(url, 1, 'sitemap');
    }
    await this.flush(true);
  }

  /** Fetches pending URLs, shallowest first, as many at once as the host allows, until none is left or a limit. */
  private async crawlFrontier(): Promise<void> {
    const tasks = new Set<Promise<void>>();
    let batch: FrontierEntry[] = [];
    let exhausted = false;
    let lastFlush = Date.now();
    let lastCancelCheck = Date.now();
    for (;;) {
      while (!exhausted && !this.cancelled && tasks.size < this.options.concurrency) {
        if (this.pages + tasks.size >= this.crawl.maxPages) break;
        if (batch.length === 0) {
          await this.flush();
          lastFlush = Date.now();
          batch = await this.pendingBatch();
          // With tasks running, or results that came in during the flush (a task that ended meanwhile: its URL is
          // still claimed, so not in the batch), more URLs may come: look again once they are written.
          if (batch.length === 0) {
            exhausted = tasks.size === 0 && !this.hasUnwritten();
            break;
          }
        }
        const entry = batch.shift() as FrontierEntry;
        const task: Promise<void> = this.visit(entry).finally(() => tasks.delete(task));
        tasks.add(task);
      }
      if (tasks.size === 0) {
        if (exhausted || this.cancelled || this.pages >= this.crawl.maxPages) return;
        continue;
      }
      await Promise.race(tasks);
      if (this.results.length >= FLUSH_AT || Date.now() - lastFlush >= FLUSH_EVERY_MS) {
        await this.flush();
        lastFlush = Date.now();
      }
      if (Date.now() - lastCancelCheck >= CANCEL_CHECK_MS) {
        this.cancelled = await this.options.isCancelled();
        lastCancelCheck = Date.now();
      }
    }
  }

  private hasUnwritten(): boolean {
    return this.results.length > 0 || this.newUrls.length > 0;
  }

  private async pendingBatch(): Promise<FrontierEntry[]> {
    const rows = await this.em.execute<FrontierEntry[]>(
      `select u.id, u.url, u.depth, u.found_via from crawl_urls u join crawls c on c.id = u.crawl_id
        where ${inWorkspace(this.em, 'c.workspace_id')} and u.crawl_id = ? and u.state = 'pending'
        order by u.depth, u.seq limit ${FRONTIER_BATCH}`,
      [this.crawl.id],
    );
    return rows.filter((row) => !this.claimed.has(row.id));
  }

  /** Fetches and settles one URL; it stays claimed until its result is written (see flush). */
  private async visit(entry: FrontierEntry): Promise<void> {
    this.claimed.add(entry.id);
    this.settle(entry, await this.fetchPage(entry.url, false));
  }

  private async fetchPage(url: string, isStart: boolean): Promise<FetchOutcome> {
    const outcome = await this.fetcher.fetch(url, {
      delayMs: this.robots.delayMs,
      maxBytes: PAGE_MAX_BYTES,
      accept: HTML_ACCEPT,
      maxRedirects: MAX_REDIRECTS,
      // A hop is followed only where the crawl may go; the start URL's hops ignore include/exclude, as it does.
      followRedirect: (next) => this.skipReason(next.href, isStart) === null,
      wantBody: isHtml,
    });
    this.options.onPageFetched?.(outcome);
    return outcome;
  }

  /** Why a URL on the way may not be fetched, or null when it may. */
  private skipReason(url: string, isStart = false): SkipReason | null {
    if (new URL(url).origin !== this.crawl.origin) return 'out_of_scope';
    if (!isStart && !this.inScope(url)) return 'excluded';
    if (!this.robots.isAllowed(url)) return 'robots';
    return null;
  }

  /** Turns a fetch into the URL's result and the URLs its page leads to. */
  private settle(entry: FrontierEntry, outcome: FetchOutcome): void {
    const skip = (reason: SkipReason, details: Partial<UrlResult> = {}, problem?: string): void => {
      if (entry.depth === 0 && problem) this.startProblem = problem;
      this.results.push({ ...emptyResult(entry.id), state: 'skipped', skip_reason: reason, ...details });
    };
    if (outcome.kind === 'failed') return skip('error', { final_url: outcome.url }, outcome.message);
    const status = { status_code: outcome.status };
    if (outcome.declinedRedirect) {
      const next = normalizeUrl(outcome.declinedRedirect) ?? outcome.declinedRedirect;
      const reason = this.skipReason(next, entry.depth === 0) ?? 'error';
      return skip(reason, { ...status, final_url: next }, `${outcome.url} redirects to ${next}, outside the crawl`);
    }
    if (outcome.status < 200 || outcome.status >= 300) {
      return skip('error', status, `${outcome.url} answered HTTP ${outcome.status}`);
    }
    const finalUrl = normalizeUrl(outcome.url) ?? outcome.url;
    if (!isHtml(outcome.contentType) || !outcome.body) {
      return skip('not_html', { ...status, final_url: finalUrl }, `${outcome.url} is not an HTML page`);
    }
    if (finalUrl !== entry.url) {
      // It redirected to a URL found on its own (a trailing-slash variant, say): one page, listed once.
      if (this.known.has(finalUrl)) return skip('duplicate', { ...status, final_url: finalUrl });
      this.known.add(finalUrl);
      this.newUrls.push(this.newUrl(finalUrl, entry.depth, entry.found_via, 'alias', null));
    }

    const markup = parsePageMarkup(decodeBody(outcome.body, outcome.contentType, true));
    const header = outcome.headers.get('x-robots-tag');
    const directives = [...markup.robots, ...headerRobotsDirectives(header ? header.split(/\n/) : [])];
    const canonical = markup.canonical ? normalizeUrl(markup.canonical, finalUrl) : null;
    this.pages += 1;
    this.results.push({
      ...emptyResult(entry.id),
      state: 'page',
      final_url: finalUrl,
      status_code: outcome.status,
      title: markup.title,
      canonical,
      noindex: directives.includes('noindex') || directives.includes('none'),
    });
    if (!directives.includes('nofollow') && !directives.includes('none')) {
      const base = (markup.baseHref && normalizeUrl(markup.baseHref, finalUrl)) || finalUrl;
      for (const href of markup.links) {
        const url = normalizeUrl(href, base);
        if (url) this.discover(url, entry.depth + 1, 'link');
      }
    }
    // The page says it is a copy of another: fetch that one too; the duplicate is settled when the crawl ends.
    if (canonical && canonical !== finalUrl && canonical !== entry.url) this.discover(canonical, entry.depth, 'link');
  }

  /** Records a URL the first time it is found: pending when the crawl may fetch it, else skipped with the reason. */
  private discover(url: string, depth: number, via: FoundVia): void {
    if (this.known.has(url)) return;
    const reason = this.skipReason(url);
    if (reason === null && depth > this.crawl.maxDepth) {
      this.tooDeep.add(url);
      return;
    }
    this.known.add(url);
    this.newUrls.push(this.newUrl(url, depth, via, reason ? 'skipped' : 'pending', reason));
  }

  private newUrl(url: string, depth: number, via: FoundVia, state: NewUrl['state'], reason: SkipReason | null): NewUrl {
    this.discovered += 1;
    return { id: randomUUID(), url, depth, found_via: via, state, skip_reason: reason, n: this.discovered };
  }

  /**
   * Writes the batch: new URLs (a URL already recorded is left as it is) and results (only onto URLs still
   * pending, so a result is never written twice) in one transaction.
   */
  private async flush(sitemapsRead = false): Promise<void> {
    if (this.newUrls.length === 0 && this.results.length === 0 && !sitemapsRead) return;
    const urls = this.newUrls;
    const results = this.results;
    this.newUrls = [];
    this.results = [];
    await this.em.transactional(async (tx) => {
      if (urls.length > 0) {
        await tx.execute(
          `insert into crawl_urls (id, crawl_id, url, depth, found_via, state, skip_reason)
           select v.id, c.id, v.url, v.depth, v.found_via, v.state, v.skip_reason
             from jsonb_to_recordset(?::jsonb) as v(id uuid, url text, depth int, found_via text, state text,
                                                   skip_reason text, n int)
             join crawls c on c.id = ? and ${inWorkspace(tx, 'c.workspace_id')}
            order by v.n
           on conflict (crawl_id, url) do nothing`,
          [JSON.stringify(urls), this.crawl.id],
          'run',
        );
      }
      if (results.length > 0) {
        await tx.execute(
          `update crawl_urls c set state = v.state, skip_reason = v.skip_reason, final_url = v.final_url,
                  status_code = v.status_code, title = v.title, canonical = v.canonical, noindex = v.noindex
             from jsonb_to_recordset(?::jsonb) as v(id uuid, state text, skip_reason text, final_url text,
                                                   status_code int, title text, canonical text, noindex boolean)
             join crawls w on ${inWorkspace(tx, 'w.workspace_id')}
            where w.id = c.crawl_id and c.id = v.id and c.crawl_id = ? and c.state = 'pending'`,
          [JSON.stringify(results), this.crawl.id],
          'run',
        );
      }
      const tooDeep = [...this.tooDeep].some((url) => !this.known.has(url));
      if (sitemapsRead || tooDeep) {
        await tx.execute(
          `update crawls set depth_limited = depth_limited or ?,
                  sitemaps_read_at = case when ? then now() else sitemaps_read_at end
            where id = ? and ${inWorkspace(tx, 'workspace_id')}`,
          [tooDeep, sitemapsRead, this.crawl.id],
          'run',
        );
      }
    });
    for (const result of results) this.claimed.delete(result.id);
  }

  private async end(): Promise<CrawlEnd> {
    if (this.cancelled) return { status: 'cancelled' };
    if (this.pages === 0 && this.startProblem) {
      return { status: 'failed', failure: { reason: 'start_url_failed', message: this.startProblem } };
    }
    const [{ pending, depth_limited }] = await this.em.execute<{ pending: number; depth_limited: boolean }[]>(
      `select (select count(*)::int from crawl_urls where crawl_id = c.id and state = 'pending') as pending,
              c.depth_limited
         from crawls c where c.id = ? and ${inWorkspace(this.em, 'c.workspace_id')}`,
      [this.crawl.id],
    );
    const stopReason = pending > 0 ? 'max_pages' : depth_limited ? 'max_depth' : null;
    return { status: 'completed', stopReason };
  }
}

function emptyResult(id: string): UrlResult {
  return {
    id,
    state: 'skipped',
    skip_reason: null,
    final_url: null,
    status_code: null,
    title: null,
    canonical: null,
    noindex: false,
  };
}

function isHtml(contentType: string | null): boolean {
  const mime = (contentType ?? '').split(';')[0].trim().toLowerCase();
  // Servers that send no type mostly send HTML.
  return mime === '' || mime === 'text/html' || mime === 'application/xhtml+xml';
}

function robotsUnavailable(message: string): CrawlEnd {
  return {
    status: 'failed',
    failure: {
      reason: 'robots_unavailable',
      message: `robots.txt could not be read, so nothing was crawled: ${message}`,
    },
  };
}

function robotsDisallowed(url: string): CrawlEnd {
  return {
    status: 'failed',
    failure: { reason: 'robots_disallowed', message: `robots.txt does not allow VigilBot to fetch ${url}` },
  };
}
