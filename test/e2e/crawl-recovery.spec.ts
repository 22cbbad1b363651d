import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { CrawlSite } from '../support/crawl-site';
import { startTestApp, type TestApp } from '../support/test-app';
import { startWorkerProcess } from '../support/worker-process';

type Json = Record<string, any>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker that dies mid-crawl leaves the crawl to another worker, which finishes it with the same result. */
describe('a crawl survives its worker being killed', () => {
  let api: TestApp;
  let key: IssuedKey;
  let site: CrawlSite;

  beforeAll(async () => {
    // An API without workers: crawls are queued, and only the worker processes of the test run them.
    api = await startTestApp({ ROLE: 'api' });
    const person = await createAccount(new ApiClient(api.baseUrl));
    key = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(api.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    // 40 pages linked from the start page and from each other, a duplicate and a few skips; each answers slowly, so
    // the crawl takes a few seconds at 2 requests in flight.
    site = await new CrawlSite().start();
    const links = Array.from({ length: 40 }, (_, index) => `/page-${index}`);
    site.set('/robots.txt', { body: 'User-agent: *\nDisallow: /private/\n' });
    site.page('/', { title: 'Home', links: [...links, '/private/x', '/gone', '/copy'] });
    for (const [index, link] of links.entries()) {
      site.set(link, {
        delayMs: 120,
        headers: { 'content-type': 'text/html' },
        body: `<title>Page ${index}</title><a href="/page-${(index + 7) % 40}">next</a><a href="/">home</a>`,
      });
    }
    site.page('/copy', { head: `<link rel="canonical" href="${site.origin}/page-3">` });
  });
  afterAll(async () => {
    await api.close();
    await site.stop();
  });

  async function status(id: string): Promise<Json> {
    return (await key.client.get(`/crawl/${id}?per_page=500`)).body;
  }

  async function ended(id: string): Promise<Json> {
    for (let waited = 0; waited < 120_000; waited += 250) {
      const crawl = await status(id);
      if (!['queued', 'running'].includes(crawl.status)) return crawl;
      await sleep(250);
    }
    throw new Error(`crawl ${id} did not end`);
  }

  /** What a crawl found, independent of timing: its pages and counts. */
  const result = (crawl: Json) => ({
    status: crawl.status,
    stop_reason: crawl.stop_reason,
    pages_found: crawl.pages_found,
    skipped: crawl.skipped,
    pages: (crawl.pages as Json[]).map((page) => [page.url, page.title, page.depth, page.found_via]).sort(),
  });

  it('finishes after the restart with the result an uninterrupted crawl has, no page twice, none lost', async () => {
    // Short enough that the killed worker's job is taken over soon, long enough for a slow day's event loop.
    const lock = { JOB_LOCK_MS: '5000' };
    const doomed = startWorkerProcess(lock);
    let interrupted: Json;
    try {
      const started = await key.client.post('/crawl', { url: `${site.origin}/` });
      expect(started.status).toBe(202);
      for (let waited = 0; ; waited += 100) {
        const crawl = await status(started.body.id as string);
        if (crawl.pages_found >= 5) break;
        if (waited > 90_000) throw new Error(`the worker process never got going:\n${doomed.output()}`);
        await sleep(100);
      }
      doomed.kill();
      const midway = await status(started.body.id as string);
      expect(midway.status).toBe('running');
      expect(midway.pages_found).toBeLessThan(41);

      const worker = await startTestApp({ ROLE: 'worker', ...lock });
      try {
        interrupted = await ended(started.body.id as string);
        // The same crawl once more, start to end on one worker: the reference.
        const again = await key.client.post('/crawl', { url: `${site.origin}/` });
        const reference = await ended(again.body.id as string);
        expect(result(interrupted)).toEqual(result(reference));
      } finally {
        await worker.close();
      }
    } finally {
      doomed.kill();
    }
    expect(result(interrupted)).toMatchObject({
      status: 'completed',
      stop_reason: null,
      pages_found: 41,
      skipped: { robots: 1, error: 1, duplicate: 1, out_of_scope: 0, excluded: 0, not_html: 0 },
    });
    // A worker process compiles the service on start: slow on a busy machine.
  }, 240_000);
});
