import { gzipSync } from 'node:zlib';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { type Answer, CrawlSite } from '../support/crawl-site';
import { startTestApp, type TestApp } from '../support/test-app';

type Json = Record<string, any>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const xml = { 'content-type': 'application/xml' };

/** A site with one page of every kind a crawl must tell apart. */
function buildSite(site: CrawlSite): void {
  const o = site.origin;
  site
    .set('/robots.txt', {
      body: `User-agent: *\nDisallow: /private/\nCrawl-delay: 0.2\nSitemap: ${o}/sitemap_index.xml\n`,
    })
    .set('/sitemap_index.xml', {
      headers: xml,
      body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sitemap><loc>${o}/sitemap-pages.xml.gz</loc></sitemap></sitemapindex>`,
    })
    .set('/sitemap-pages.xml.gz', {
      headers: { 'content-type': 'application/gzip' },
      body: gzipSync(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>${o}/from-sitemap</loc></url><url><loc>${o}/docs/</loc></url>
          <url><loc>${o}/report.pdf</loc></url></urlset>`,
      ),
    })
    .page('/', {
      title: 'Home',
      links: [
        '/about',
        '/about?utm_source=news&gclid=abc#team',
        '/products?id=1&utm_medium=mail',
        '/private/secret',
        '/missing',
        '/loop-a',
        '/report.pdf',
        '/copy',
        '/docs',
        '/level1',
        '/noindex-page',
        '/busy',
        '/skip-me/page',
        'mailto:team@example.com',
        'http://another-origin.invalid/page',
      ],
    })
    .page('/about', { title: 'About us', links: ['/'] })
    .page('/products?id=1', { title: 'Product 1' })
    .page('/copy', { title: 'About (copy)', head: `<link rel="canonical" href="${o}/about">` })
    .page('/from-sitemap', { title: 'Listed in the sitemap' })
    .page('/docs/', { title: 'Docs' })
    .set('/docs', { status: 301, headers: { location: '/docs/' } })
    .set('/loop-a', { status: 302, headers: { location: '/loop-b' } })
    .set('/loop-b', { status: 302, headers: { location: '/loop-a' } })
    .set('/report.pdf', { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4 not really' })
    .page('/level1', { links: ['/level2'] })
    .page('/level2', { links: ['/level3'] })
    .page('/level3', { title: 'Too deep' })
    .page('/noindex-page', { head: '<meta name="robots" content="noindex">' })
    .page('/private/secret', { title: 'Secret' })
    .page('/skip-me/page')
    .set('/busy', (_request, hits): Answer =>
      hits === 1
        ? { status: 429, headers: { 'retry-after': '1' } }
        : { headers: { 'content-type': 'text/html' }, body: '<title>Busy at first</title>' },
    );
}

describe('crawl', () => {
  let api: TestApp;
  let key: IssuedKey;
  let site: CrawlSite;

  beforeAll(async () => {
    api = await startTestApp({ CRAWL_BACKOFF_BASE_MS: '100' });
    const person = await createAccount(new ApiClient(api.baseUrl));
    key = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(api.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    site = await new CrawlSite().start();
    buildSite(site);
  });
  afterAll(async () => {
    await api.close();
    await site.stop();
  });

  async function ended(id: string, client = key.client): Promise<Json> {
    for (let waited = 0; waited < 120_000; waited += 250) {
      const crawl = (await client.get(`/crawl/${id}?per_page=500`)).body;
      if (!['queued', 'running'].includes(crawl.status)) return crawl;
      await sleep(250);
    }
    throw new Error(`crawl ${id} did not end`);
  }

  describe('a site with every kind of page', () => {
    let crawl: Json;
    let started: Json;

    beforeAll(async () => {
      const response = await key.client.post('/crawl', {
        url: `${site.origin}/`,
        max_depth: 2,
        exclude: ['/skip-me/**'],
      });
      expect(response.status).toBe(202);
      expect(response.headers.get('location')).toBe(`/api/v1/crawl/${response.body.id}`);
      started = response.body;
      crawl = await ended(started.id as string);
    }, 150_000);

    it('is queued with its defaults, then completes, stopped by max_depth', () => {
      expect(started).toMatchObject({ status: 'queued', max_pages: 200, max_depth: 2, exclude: ['/skip-me/**'] });
      expect(crawl).toMatchObject({ status: 'completed', stop_reason: 'max_depth', failure: null });
      expect(crawl.completed_at).not.toBeNull();
    });

    it('lists each page once, normalised, with how it was found', () => {
      const pages = Object.fromEntries(
        (crawl.pages as Json[]).map((page) => [new URL(page.url).pathname + new URL(page.url).search, page]),
      );
      expect(Object.keys(pages).sort()).toEqual(
        [
          '/',
          '/about',
          '/products?id=1',
          '/from-sitemap',
          '/docs/',
          '/level1',
          '/level2',
          '/noindex-page',
          '/busy',
        ].sort(),
      );
      expect(crawl.pages_found).toBe(9);
      expect(pages['/']).toMatchObject({
        depth: 0,
        found_via: 'link',
        title: 'Home',
        status_code: 200,
        noindex: false,
      });
      expect(pages['/about']).toMatchObject({ depth: 1, found_via: 'link', title: 'About us' });
      expect(pages['/from-sitemap']).toMatchObject({ depth: 1, found_via: 'sitemap' });
      expect(pages['/level2']).toMatchObject({ depth: 2 });
      expect(pages['/noindex-page']).toMatchObject({ noindex: true });
      // Retried after the 429's Retry-After.
      expect(pages['/busy']).toMatchObject({ status_code: 200, title: 'Busy at first' });
      for (const page of crawl.pages as Json[]) expect(page.already_monitored).toBe(false);
    });

    it('counts every URL it did not list by reason', () => {
      expect(crawl.skipped).toEqual({
        robots: 1, // /private/secret
        out_of_scope: 1, // another origin
        excluded: 1, // /skip-me/page
        not_html: 1, // the PDF
        duplicate: 2, // /copy (canonical /about) and /docs (redirects to /docs/)
        error: 2, // /missing (404) and /loop-a (redirect loop)
      });
    });

    it('was polite: robots.txt first, its disallowed folder never fetched, one at a time with the Crawl-delay kept', () => {
      expect(site.paths()[0]).toBe('/robots.txt');
      expect(site.paths()).not.toContain('/private/secret');
      expect(site.paths()).not.toContain('/level3');
      expect(site.paths()).not.toContain('/skip-me/page');
      // The site sets a Crawl-delay: one request at a time (2 is the limit for sites that set none).
      expect(site.maxInFlight).toBe(1);
      // Each URL fetched once, but for /busy (its first answer was a 429) and redirect hops (the loop's, and
      // /docs/ as /docs's hop).
      const hops = ['/busy', '/loop-a', '/loop-b', '/docs/'];
      const fetched = site.paths().filter((path) => !hops.includes(path));
      expect(fetched.length).toBe(new Set(fetched).size);
      expect(site.requests.every((request) => request.userAgent.startsWith('VigilBot/'))).toBe(true);
      const starts = site.requests.slice(1).map((request) => request.startedAt);
      const gaps = starts.slice(1).map((start, index) => start - starts[index]);
      // 200 ms apart as the site saw them (a timer may fire a millisecond early); the 429 asked for a full second.
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(190);
      const busy = site.requests.filter((request) => request.path === '/busy').map((request) => request.startedAt);
      expect(busy).toHaveLength(2);
      expect(busy[1] - busy[0]).toBeGreaterThanOrEqual(990);
    });

    it('appears in the list of crawls, newest first, without its pages', async () => {
      const list = await key.client.get('/crawl?per_page=5');
      expect(list.status).toBe(200);
      expect(list.body.data[0]).toMatchObject({ id: crawl.id, pages_found: 9 });
      expect(list.body.data[0].pages).toBeUndefined();
    });

    it('pages through its pages with a Link header', async () => {
      const first = await key.client.get(`/crawl/${crawl.id}?per_page=4`);
      expect(first.body.pages).toHaveLength(4);
      expect(first.body.pagination).toEqual({ page: 1, per_page: 4, total: 9, total_pages: 3 });
      expect(first.headers.get('link')).toContain('rel="next"');
      const third = await key.client.get(`/crawl/${crawl.id}?per_page=4&page=3`);
      expect(third.body.pages).toHaveLength(1);
      expect(await key.client.get(`/crawl/${crawl.id}?per_page=501`)).toMatchObject({ status: 400 });
    });

    it('creates monitors only from pages it found: one foreign URL and nothing is created', async () => {
      const about = `${site.origin}/about`;
      const foreign = `${site.origin}/never-found`;
      const refused = await key.client.post(`/crawl/${crawl.id}/create-monitors`, { urls: [about, foreign] });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([{ field: 'urls[1]', message: `${foreign} is not a page this crawl found` }]);
      expect((await key.client.get('/monitors')).body.pagination.total).toBe(0);
    });

    it('creates monitors from picked pages, named after their titles; a repeat creates nothing new', async () => {
      const picked = [`${site.origin}/about`, `${site.origin}/from-sitemap`];
      const first = await key.client.post(`/crawl/${crawl.id}/create-monitors`, {
        urls: picked,
        monitor: { interval_seconds: 600 },
      });
      expect(first.status).toBe(201);
      expect(first.body.skipped).toEqual([]);
      expect(first.body.created.map((monitor: Json) => [monitor.name, monitor.url, monitor.interval_seconds])).toEqual([
        ['About us', picked[0], 600],
        ['Listed in the sitemap', picked[1], 600],
      ]);
      const again = await key.client.post(`/crawl/${crawl.id}/create-monitors`, { urls: picked });
      expect(again.status).toBe(201);
      expect(again.body).toEqual({
        created: [],
        skipped: picked.map((url) => ({ url, reason: 'already_monitored' })),
      });
      const listed = (await key.client.get(`/crawl/${crawl.id}?per_page=500`)).body.pages as Json[];
      const monitored = listed.filter((page) => page.already_monitored).map((page) => page.url);
      expect(monitored.sort()).toEqual([...picked].sort());
      expect((await key.client.get('/monitors')).body.pagination.total).toBe(2);
    });
  });

  it('does not crawl a site whose robots.txt answers 500, and says why', async () => {
    const down = await new CrawlSite().start();
    try {
      down.set('/robots.txt', { status: 500, body: 'oops' }).page('/', { links: ['/a'] });
      const started = await key.client.post('/crawl', { url: `${down.origin}/` });
      const crawl = await ended(started.body.id as string);
      expect(crawl).toMatchObject({ status: 'failed', pages_found: 0, failure: { reason: 'robots_unavailable' } });
      expect(crawl.failure.message).toContain('500');
      expect(down.paths().every((path) => path === '/robots.txt')).toBe(true);
    } finally {
      await down.stop();
    }
  });

  it('stops at max_pages and says so', async () => {
    const big = await new CrawlSite().start();
    try {
      const links = Array.from({ length: 30 }, (_, index) => `/p${index}`);
      big.set('/robots.txt', { status: 404 }).page('/', { links });
      for (const link of links) big.page(link);
      const started = await key.client.post('/crawl', { url: big.origin, max_pages: 10 });
      const crawl = await ended(started.body.id as string);
      expect(crawl).toMatchObject({ status: 'completed', stop_reason: 'max_pages', pages_found: 10 });
    } finally {
      await big.stop();
    }
  });

  describe('URLs found twice do not end a crawl early (a chain / → /d1 → /d2 → /d3 → /d4, max_depth 3)', () => {
    const chain = ['/', '/d1', '/d2', '/d3', '/d4'];
    async function crawlChain(build: (site: CrawlSite) => void, extra: Json = {}): Promise<Json> {
      const chained = await new CrawlSite().start();
      try {
        chain.slice(0, -1).forEach((path, index) => chained.page(path, { links: [chain[index + 1]] }));
        chained.page('/d4');
        build(chained);
        const started = await key.client.post('/crawl', {
          url: `${chained.origin}/`,
          max_depth: 3,
          max_pages: 100,
          ...extra,
        });
        return await ended(started.body.id as string);
      } finally {
        await chained.stop();
      }
    }
    const pagePaths = (crawl: Json) => crawl.pages.map((page: Json) => new URL(page.url).pathname).sort();
    const sitemapOf = (site: CrawlSite, paths: string[]) =>
      site.set('/robots.txt', { body: `User-agent: *\nSitemap: ${site.origin}/sitemap.xml\n` }).set('/sitemap.xml', {
        headers: xml,
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths
          .map((path) => `<url><loc>${site.origin}${path}</loc></url>`)
          .join('')}</urlset>`,
      });

    it('without a sitemap: 4 pages, stopped by max_depth', async () => {
      const crawl = await crawlChain((site) => site.set('/robots.txt', { status: 404 }));
      expect(crawl).toMatchObject({ status: 'completed', stop_reason: 'max_depth', pages_found: 4 });
      expect(pagePaths(crawl)).toEqual(['/', '/d1', '/d2', '/d3']);
    });

    it('with a sitemap that lists the start URL: the same 4 pages and max_depth', async () => {
      const crawl = await crawlChain((site) => sitemapOf(site, ['/']));
      expect(crawl).toMatchObject({ status: 'completed', stop_reason: 'max_depth', pages_found: 4 });
      expect(pagePaths(crawl)).toEqual(['/', '/d1', '/d2', '/d3']);
    });

    it('with a sitemap that lists a linked page: reached at depth 1, so the chain ends within max_depth', async () => {
      // /d1 and /d2 are fetched at once; a result that came in while another was written was lost track of.
      const crawl = await crawlChain((site) => sitemapOf(site, ['/d2']));
      expect(crawl).toMatchObject({ status: 'completed', stop_reason: null, pages_found: 5 });
      expect(pagePaths(crawl)).toEqual(['/', '/d1', '/d2', '/d3', '/d4']);
    });

    it('with a start URL given without its slash and a sitemap that lists it with one', async () => {
      const chained = await new CrawlSite().start();
      try {
        chain.slice(0, -1).forEach((path, index) => chained.page(path, { links: [chain[index + 1]] }));
        chained.page('/d4');
        sitemapOf(chained, ['/', '/d1']);
        const started = await key.client.post('/crawl', { url: chained.origin, max_depth: 3, max_pages: 100 });
        const crawl = await ended(started.body.id as string);
        expect(crawl).toMatchObject({ status: 'completed', stop_reason: 'max_depth', pages_found: 4 });
        expect(pagePaths(crawl)).toEqual(['/', '/d1', '/d2', '/d3']);
      } finally {
        await chained.stop();
      }
    });

    it('with a redirect to a page already known and a canonical alias: each page once, max_depth', async () => {
      const crawl = await crawlChain((site) => {
        sitemapOf(site, ['/', '/old-d1', '/d1?ref=sitemap']);
        site.set('/old-d1', { status: 301, headers: { location: '/d1' } });
        site.page('/d1?ref=sitemap', { head: `<link rel="canonical" href="${site.origin}/d1">`, links: ['/d2'] });
      });
      expect(crawl).toMatchObject({ status: 'completed', stop_reason: 'max_depth', pages_found: 4 });
      expect(crawl.skipped.duplicate).toBe(2);
      expect(pagePaths(crawl)).toEqual(['/', '/d1', '/d2', '/d3']);
    });
  });

  it("refuses monitors beyond the plan's limit as a whole: 409 plan_limit_reached, nothing created", async () => {
    const wide = await new CrawlSite().start();
    try {
      const links = Array.from({ length: 55 }, (_, index) => `/w${index}`);
      wide.set('/robots.txt', { status: 404 }).page('/', { links });
      for (const link of links) wide.page(link);
      const started = await key.client.post('/crawl', { url: `${wide.origin}/`, max_depth: 1 });
      const crawl = await ended(started.body.id as string);
      expect(crawl.pages_found).toBe(56);
      const before = (await key.client.get('/monitors')).body.pagination.total;
      const urls = (crawl.pages as Json[]).map((page) => page.url);
      const refused = await key.client.post(`/crawl/${crawl.id}/create-monitors`, { urls });
      expect(refused).toMatchObject({
        status: 409,
        body: { code: 'plan_limit_reached', limit: 'monitors', plan: 'free', allowed: 50 },
      });
      expect((await key.client.get('/monitors')).body.pagination.total).toBe(before);
    } finally {
      await wide.stop();
    }
  });

  it('answers a retried request_key with the same crawl, and a reused one with 422', async () => {
    const body = { url: `${site.origin}/about`, max_depth: 0, request_key: 'crawl-retry-1' };
    const first = await key.client.post('/crawl', body);
    const again = await key.client.post('/crawl', body);
    expect([first.status, again.status]).toEqual([202, 200]);
    expect(again.body.id).toBe(first.body.id);
    const reused = await key.client.post('/crawl', { ...body, max_depth: 1 });
    expect(reused).toMatchObject({ status: 422, body: { code: 'request_key_reused' } });
    await ended(first.body.id as string);
  });

  it('cancels a running crawl, keeps what it found, and refuses to cancel a finished one', async () => {
    const slow = await new CrawlSite().start();
    try {
      const links = Array.from({ length: 20 }, (_, index) => `/s${index}`);
      slow.set('/robots.txt', { status: 404 }).page('/', { links });
      for (const link of links)
        slow.set(link, { delayMs: 300, headers: { 'content-type': 'text/html' }, body: '<title>slow</title>' });
      const started = await key.client.post('/crawl', { url: slow.origin });
      for (
        let waited = 0;
        (await key.client.get(`/crawl/${started.body.id}`)).body.status === 'queued';
        waited += 100
      ) {
        if (waited > 60_000) throw new Error('the crawl never started');
        await sleep(100);
      }
      const cancelled = await key.client.post(`/crawl/${started.body.id}/cancel`);
      expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
      await sleep(2500);
      const requestsAfter = slow.requests.length;
      await sleep(1000);
      // Stopped fetching.
      expect(slow.requests.length).toBe(requestsAfter);
      expect((await key.client.get(`/crawl/${started.body.id}`)).body.status).toBe('cancelled');
      expect((await key.client.post(`/crawl/${started.body.id}/cancel`)).status).toBe(200);
    } finally {
      await slow.stop();
    }
    const done = (await key.client.get('/crawl?status=completed')).body.data[0];
    expect(await key.client.post(`/crawl/${done.id}/cancel`)).toMatchObject({
      status: 409,
      body: { code: 'crawl_finished' },
    });
  });

  it.each([
    [{ url: 'ftp://example.com/' }, 'url'],
    [{ url: 'http://user:pass@example.com/' }, 'url'],
    [{ url: 'https://example.com/', max_pages: 0 }, 'max_pages'],
    [{ url: 'https://example.com/', max_pages: 5001 }, 'max_pages'],
    [{ url: 'https://example.com/', max_depth: 21 }, 'max_depth'],
    [{ url: 'https://example.com/', include: ['/blog/[a-'] }, 'include'],
    [{ url: 'https://example.com/', exclude: ['no-slash/**'] }, 'exclude'],
    [{ url: 'https://example.com/', include: 'not-a-list' }, 'include'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const before = (await key.client.get('/crawl')).body.pagination.total;
    const response = await key.client.post('/crawl', body);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: Json) => error.field)).toContain(field);
    expect((await key.client.get('/crawl')).body.pagination.total).toBe(before);
  });

  it('refuses a private start URL unless private targets are allowed', async () => {
    const strict = await startTestApp({ ROLE: 'api', ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const person = await createAccount(new ApiClient(strict.baseUrl));
      const strictKey = await issueKey(person, ['monitors:write']);
      const response = await strictKey.client.post('/crawl', { url: 'http://127.0.0.1:9/' });
      expect(response).toMatchObject({ status: 400, body: { code: 'target_not_public' } });
    } finally {
      await strict.close();
    }
  });
});
