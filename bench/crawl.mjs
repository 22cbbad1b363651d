#!/usr/bin/env node
// Crawl benchmark: a generated local site crawled through the API by a worker process of the built service.
//
//   npm run bench:crawl            (node bench/crawl.mjs; builds first only when dist/ lacks the service)
//
// Phases, in one run:
//   1. Throughput. A site of BENCH_PAGES pages on 127.0.0.1 (robots.txt naming a sitemap index of two sitemaps, one
//      gzipped; every page links to 8 others; one page in 50 has a copy at /copy/N whose canonical names it) is
//      crawled by a worker started with the per-host limits raised (CRAWL_HOST_CONCURRENCY=BENCH_HOST_CONCURRENCY,
//      configuration only). Reported: pages per second (URLs settled per second of crawl), the worker's peak RSS, and
//      database rows per page. Then the whole result is read through the API, 500 pages at a time.
//   2. Politeness. A site of 200 pages answering in BENCH_SLOW_MS (50 ms) is crawled by a worker with the default
//      politeness (2 in flight per host): the time for 200 pages.
// The API runs in its own process (ROLE=api), each worker in its own (ROLE=worker). Markdown to stdout, progress to
// stderr; everything made (processes, database, Redis keys) is removed at the end, also on failure.
//
// Settings (environment):
//   BENCH_PAGES=5000             pages of the generated site (max_pages is set to fit them and their copies)
//   BENCH_HOST_CONCURRENCY=16    CRAWL_HOST_CONCURRENCY of the throughput worker
//   BENCH_SLOW_PAGES=200, BENCH_SLOW_MS=50
//   BENCH_TIMEOUT=600            seconds each phase may take
//   BENCH_PG_URL, BENCH_REDIS_URL, BENCH_PORT, BENCH_BUILD=1, BENCH_STRICT=1 (exit 2 when a target is missed)

import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { ensureBuilt, fmt, HOST, intSetting, log, mb, percentile, serviceSettings, sleep } from './lib/common.mjs';
import { closeServer, listenLocal } from './lib/http.mjs';
import { processTable } from './lib/procfs.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const settings = {
  ...serviceSettings(),
  pages: intSetting('BENCH_PAGES', 5000, 10, 4900 * 100),
  hostConcurrency: intSetting('BENCH_HOST_CONCURRENCY', 16, 1, 256),
  slowPages: intSetting('BENCH_SLOW_PAGES', 200, 10, 5000),
  slowMs: intSetting('BENCH_SLOW_MS', 50, 0, 10_000),
  timeoutS: intSetting('BENCH_TIMEOUT', 600, 10, 7200),
};
const run = new BenchRun(settings);
const servers = [];

/** A generated site: `pages` pages, a sitemap index, copies with canonical links; answers after `delayMs`. */
async function startSite(pages, delayMs, withCopies) {
  const copyEvery = 50;
  const server = createServer((request, response) => {
    const answer = () => {
      const path = request.url ?? '/';
      if (path === '/robots.txt')
        return send(response, 'text/plain', `User-agent: *\nSitemap: ${origin}/sitemaps.xml\n`);
      if (path === '/sitemaps.xml') {
        const entries = ['/sitemap-1.xml', '/sitemap-2.xml.gz'].map(
          (loc) => `<sitemap><loc>${origin}${loc}</loc></sitemap>`,
        );
        return send(response, 'application/xml', `<sitemapindex xmlns="${NS}">${entries.join('')}</sitemapindex>`);
      }
      if (path === '/sitemap-1.xml' || path === '/sitemap-2.xml.gz') {
        const half = Math.ceil(pages / 2);
        const [from, to] = path === '/sitemap-1.xml' ? [0, half] : [half, pages];
        const urls = Array.from(
          { length: to - from },
          (_, index) => `<url><loc>${origin}/p/${from + index}</loc></url>`,
        );
        const xml = `<urlset xmlns="${NS}">${urls.join('')}</urlset>`;
        return path.endsWith('.gz')
          ? send(response, 'application/gzip', gzipSync(xml))
          : send(response, 'application/xml', xml);
      }
      const match = /^\/(p|copy)\/(\d+)$/.exec(path);
      const n = match ? Number(match[2]) : path === '/' ? 0 : -1;
      if (n < 0 || n >= pages) return send(response, 'text/plain', 'not found', 404);
      if (match?.[1] === 'copy') {
        return send(response, 'text/html', page(`Copy of ${n}`, `<link rel="canonical" href="${origin}/p/${n}">`, []));
      }
      const links = [1, 2, 3, 7, 11, 97, 499, 1009].map((step) => `/p/${(n + step) % pages}`);
      if (withCopies && n % copyEvery === 0) links.push(`/copy/${n}`);
      return send(response, 'text/html', page(`Page ${n}`, '', links));
    };
    if (delayMs) setTimeout(answer, delayMs);
    else answer();
  });
  const origin = await listenLocal(server);
  servers.push(server);
  return { origin, pages, copies: withCopies ? Math.ceil(pages / copyEvery) : 0 };
}

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const send = (response, type, body, status = 200) => response.writeHead(status, { 'content-type': type }).end(body);
const page = (title, head, links) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><main>` +
  `<h1>${title}</h1><p>Generated for the crawl benchmark.</p>${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}` +
  `</main></body></html>`;

/** Crawls `origin` and waits for the end; samples the worker's RSS meanwhile. */
async function crawl(api, secret, worker, origin, maxPages) {
  const idleRss = processTable().get(worker.pid)?.rss ?? 0;
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, processTable().get(worker.pid)?.rss ?? 0);
  }, 250);
  try {
    const body = { url: `${origin}/`, max_pages: maxPages, max_depth: 20 };
    const started = await api.expect(202, 'POST', '/api/v1/crawl', { apiKey: secret, body });
    const deadline = Date.now() + settings.timeoutS * 1000;
    for (;;) {
      const { json } = await api.expect(200, 'GET', `/api/v1/crawl/${started.json.id}?per_page=1`, { apiKey: secret });
      if (!['queued', 'running'].includes(json.status)) return { crawl: json, peakRss, idleRss };
      if (Date.now() > deadline) throw new Error(`the crawl did not end within ${settings.timeoutS} s`);
      await sleep(200);
    }
  } finally {
    clearInterval(sampler);
  }
}

const seconds = (crawlJson) => (Date.parse(crawlJson.completed_at) - Date.parse(crawlJson.started_at)) / 1000;
const settled = (crawlJson) =>
  crawlJson.pages_found + Object.values(crawlJson.skipped).reduce((sum, count) => sum + count, 0);

async function main() {
  ensureBuilt(settings.build);
  const port = settings.port || (await freePort());
  const api = new ApiClient(`http://${HOST}:${port}`);
  const apiProcess = run.start({ ROLE: 'api', PORT: String(port), ALLOW_PRIVATE_TARGETS: 'true' });
  await api.waitUntilReady(apiProcess);
  const { secret } = await api.adminKey(run, ['monitors:read', 'monitors:write']);

  // 1. Throughput, limits raised by configuration.
  // BENCH_PAGES URLs in all: pages, one copy per 50 pages, and the start URL (`/`, a URL of its own).
  const site = await startSite(settings.pages - Math.ceil(settings.pages / 51) - 1, 0, true);
  const fastWorker = run.start({
    ROLE: 'worker',
    LOG_LEVEL: 'info', // for its start-up line
    ALLOW_PRIVATE_TARGETS: 'true',
    CRAWL_HOST_CONCURRENCY: String(settings.hostConcurrency),
  });
  await fastWorker.waitForLine(/vigil worker started/);
  log(
    `crawling ${settings.pages} pages (+${site.copies} copies) with CRAWL_HOST_CONCURRENCY=${settings.hostConcurrency}`,
  );
  const fast = await crawl(api, secret, fastWorker, site.origin, Math.min(5000, site.pages + site.copies + 1));
  await fastWorker.stop();
  const database = await run.database();
  let rows;
  try {
    const { rows: counted } = await database.query(
      `select (select count(*)::int from crawl_urls where crawl_id = $1) as urls,
              (select count(*)::int from crawls where id = $1) + (select count(*)::int from events) as others`,
      [fast.crawl.id],
    );
    rows = counted[0].urls + counted[0].others;
  } finally {
    await database.end();
  }
  const readTimes = [];
  const pagesOf500 = Math.ceil(fast.crawl.pages_found / 500);
  for (let pageNumber = 1; pageNumber <= pagesOf500; pageNumber += 1) {
    const startedAt = performance.now();
    const { json } = await api.expect(200, 'GET', `/api/v1/crawl/${fast.crawl.id}?per_page=500&page=${pageNumber}`, {
      apiKey: secret,
    });
    readTimes.push(performance.now() - startedAt);
    if (json.pages.length === 0) throw new Error(`page ${pageNumber} of the result was empty`);
  }
  readTimes.sort((a, b) => a - b);

  // 2. Default politeness: 2 in flight per host, pages answering in BENCH_SLOW_MS.
  const slowSite = await startSite(settings.slowPages, settings.slowMs, false);
  const politeWorker = run.start({ ROLE: 'worker', LOG_LEVEL: 'info', ALLOW_PRIVATE_TARGETS: 'true' });
  await politeWorker.waitForLine(/vigil worker started/);
  log(`crawling ${settings.slowPages} pages answering in ${settings.slowMs} ms with the default politeness`);
  const polite = await crawl(api, secret, politeWorker, slowSite.origin, settings.slowPages);
  await politeWorker.stop();

  const fastSeconds = seconds(fast.crawl);
  const pagesPerSecond = settled(fast.crawl) / fastSeconds;
  const rowsPerPage = rows / fast.crawl.pages_found;
  const worstRead = readTimes.at(-1);
  const targets = [
    ['pages per second', `${fmt(pagesPerSecond, 0)}`, '≥ 200', pagesPerSecond >= 200],
    ['worker peak RSS', mb(fast.peakRss), '< 400 MB', fast.peakRss < 400 * 1024 ** 2],
    ['result read, slowest page of 500', `${fmt(worstRead, 1)} ms`, '< 100 ms', worstRead < 100],
  ];
  console.log(`\n## Crawl (Node ${process.versions.node}, ${new Date().toISOString().slice(0, 10)})\n`);
  console.log(
    `Site of ${site.pages} pages, ${site.copies} canonical copies and the start URL, CRAWL_HOST_CONCURRENCY=${settings.hostConcurrency}: ` +
      `${fast.crawl.status} (stop_reason ${fast.crawl.stop_reason}), ${fast.crawl.pages_found} pages, skipped ${JSON.stringify(fast.crawl.skipped)}, ` +
      `${settled(fast.crawl)} URLs settled in ${fmt(fastSeconds, 1)} s.\n`,
  );
  console.log('| measure | result | target | met |');
  console.log('| --- | ---: | ---: | :---: |');
  for (const [name, value, target, met] of targets)
    console.log(`| ${name} | ${value} | ${target} | ${met ? 'yes' : 'no'} |`);
  console.log(`| worker RSS before the crawl | ${mb(fast.idleRss)} | | |`);
  console.log(`| database rows per page | ${fmt(rowsPerPage, 2)} | | |`);
  console.log(`| result read, p50 of ${readTimes.length} pages of 500 | ${fmt(percentile(readTimes, 50), 1)} ms | | |`);
  console.log(
    `| default politeness: ${polite.crawl.pages_found} pages answering in ${settings.slowMs} ms, 2 in flight | ` +
      `${fmt(seconds(polite.crawl), 1)} s | | |`,
  );
  console.log('\nRepeat with: `npm run build && npm run bench:crawl`');
  return settings.strict && targets.some(([, , , met]) => !met) ? 2 : 0;
}

await runBench(
  main,
  async () => {
    await Promise.all(servers.map(closeServer));
    await run.cleanup();
  },
  { budgetMs: (settings.timeoutS * 2 + 180) * 1000, onFailure: () => run.printOutput() },
);
