import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import robotsParser from 'robots-parser';
import { ErrorLevel, XMLToSitemapIndexStream, XMLToSitemapItemStream } from 'sitemap';
import { type PoliteFetcher, ROBOTS_AGENT } from './polite-fetcher';

/** RFC 9309 asks crawlers to read at least 500 KiB of robots.txt; more is not read. */
const ROBOTS_MAX_BYTES = 500 * 1024;
/** sitemaps.org: at most 50 MB uncompressed and 50,000 URLs per file. */
const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
const SITEMAP_MAX_URLS = 50_000;
/** Sitemap files read per crawl (indexes included). */
const SITEMAP_MAX_FILES = 100;
/** Invalid entries are dropped without a word; a site's sitemap errors are not ours to log. */
const QUIET = { level: ErrorLevel.SILENT, logger: false } as const;

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** Spacing between requests the site asks for, in ms. */
  delayMs: number;
  /** Sitemaps named by `Sitemap:` lines. */
  sitemaps: string[];
}

export type RobotsOutcome = { kind: 'rules'; rules: RobotsRules } | { kind: 'unavailable'; message: string };

/**
 * Reads an origin's robots.txt as RFC 9309 says: redirects followed (at most 5), 4xx means no rules, 5xx (after the
 * fetcher's back-off) or no answer at all means the site may not be crawled. Rules are for the `VigilBot` token,
 * else `*`, with robots-parser.
 */
export async function readRobots(origin: string, fetcher: PoliteFetcher, delayCapMs: number): Promise<RobotsOutcome> {
  const url = new URL('/robots.txt', origin).href;
  const outcome = await fetcher.fetch(url, {
    delayMs: 0,
    maxBytes: ROBOTS_MAX_BYTES,
    accept: 'text/plain,*/*;q=0.5',
    maxRedirects: 5,
  });
  if (outcome.kind === 'failed') return { kind: 'unavailable', message: `${url}: ${outcome.message}` };
  if (outcome.status >= 500 || outcome.status === 429) {
    return { kind: 'unavailable', message: `${url} answered HTTP ${outcome.status}` };
  }
  const text = outcome.status >= 200 && outcome.status < 300 ? (outcome.body ?? Buffer.alloc(0)).toString('utf8') : '';
  const robots = robotsParser(url, text);
  const delaySeconds = Number(robots.getCrawlDelay(ROBOTS_AGENT) ?? 0);
  return {
    kind: 'rules',
    rules: {
      // robots-parser answers undefined for URLs on another origin; those are never asked here.
      isAllowed: (target) => robots.isAllowed(target, ROBOTS_AGENT) !== false,
      delayMs: Number.isFinite(delaySeconds) ? Math.min(delayCapMs, Math.max(0, delaySeconds * 1000)) : 0,
      sitemaps: robots.getSitemaps(),
    },
  };
}

/**
 * Every page URL listed by the given sitemaps, following sitemap indexes, gzip included (as a Content-Encoding or as a
 * `.gz` file). Missing or malformed sitemaps are skipped: a site owes no sitemap. Parsed with sitemap.js.
 */
export async function readSitemaps(sitemaps: string[], fetcher: PoliteFetcher, delayMs: number): Promise<string[]> {
  const queue = [...new Set(sitemaps)];
  const seen = new Set(queue);
  const pages: string[] = [];
  for (let read = 0; queue.length > 0 && read < SITEMAP_MAX_FILES; read += 1) {
    const sitemap = queue.shift() as string;
    const xml = await fetchSitemap(sitemap, fetcher, delayMs);
    if (xml === null) continue;
    if (/<sitemapindex[\s>]/i.test(xml.slice(0, 2048))) {
      for (const child of await locations(xml, new XMLToSitemapIndexStream(QUIET))) {
        if (!seen.has(child)) {
          seen.add(child);
          queue.push(child);
        }
      }
    } else {
      pages.push(...(await locations(xml, new XMLToSitemapItemStream(QUIET))));
    }
  }
  return pages;
}

async function fetchSitemap(url: string, fetcher: PoliteFetcher, delayMs: number): Promise<string | null> {
  const outcome = await fetcher.fetch(url, {
    delayMs,
    maxBytes: SITEMAP_MAX_BYTES,
    accept: 'application/xml,text/xml;q=0.9,*/*;q=0.5',
    maxRedirects: 5,
  });
  if (outcome.kind === 'failed' || outcome.status < 200 || outcome.status >= 300 || !outcome.body) return null;
  let bytes = outcome.body;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: SITEMAP_MAX_BYTES });
    } catch {
      return null;
    }
  }
  return bytes.toString('utf8');
}

/** The `<loc>` of every entry the parser (sitemap.js's urlset or index stream) yields, up to the protocol's limit. */
async function locations(xml: string, parser: XMLToSitemapItemStream | XMLToSitemapIndexStream): Promise<string[]> {
  const urls: string[] = [];
  try {
    for await (const item of Readable.from([xml]).pipe(parser) as AsyncIterable<{ url: string }>) {
      if (item.url) urls.push(item.url);
      if (urls.length >= SITEMAP_MAX_URLS) break;
    }
  } catch {
    // A malformed sitemap yields what was read before the error.
  }
  return urls;
}
