import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { FILE_REDIS_PREFIX, startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';
import { startWorkerProcess } from '../support/worker-process';

type Json = Record<string, any>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A scan never stays queued or running for good: lost work is resumed, work that cannot succeed ends failed. */
describe('accessibility scans survive lost jobs and failing browsers', () => {
  let api: TestApp;
  let site: TestSite;
  let key: IssuedKey;
  let monitorId: string;

  beforeAll(async () => {
    site = await new TestSite().start();
    site.set('/home', page());
    // An API without workers: scans are accepted and queued, nobody runs them yet.
    api = await startTestApp({ ROLE: 'api' });
    const person = await createAccount(new ApiClient(api.baseUrl));
    key = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(api.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    monitorId = (await key.client.post('/monitors', { name: 'Home', url: `${site.origin}/home` })).body.id;
  });
  afterAll(async () => {
    await api.close();
    await site.stop();
  });

  async function start(onMonitor = monitorId): Promise<string> {
    const started = await key.client.post(`/monitors/${onMonitor}/a11y-scan`, { viewports: ['desktop'] });
    expect(started.status).toBe(202);
    return started.body.id as string;
  }

  async function ended(id: string): Promise<Json> {
    for (let waited = 0; waited < 60_000; waited += 250) {
      const scan = (await key.client.get(`/a11y-scans/${id}`)).body;
      if (scan.status === 'completed' || scan.status === 'failed') return scan;
      await sleep(250);
    }
    throw new Error(`scan ${id} did not end`);
  }

  it('re-queues a scan whose job the queue lost (Redis restarted empty) when a worker starts, and completes it', async () => {
    const id = await start();
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      const queued = await redis.keys(`${FILE_REDIS_PREFIX}:a11y-scans:*`);
      expect(queued.length).toBeGreaterThan(0);
      await redis.unlink(...queued);
    } finally {
      await redis.quit();
    }
    const worker = await startTestApp({ ROLE: 'worker' });
    try {
      expect(await ended(id)).toMatchObject({ status: 'completed', summary: { violations: 0 } });
    } finally {
      await worker.close();
    }
  });

  it('ends a scan whose browser never starts as failed, describing the page only, never completed', async () => {
    const id = await start();
    const worker = await startTestApp({ ROLE: 'worker', CHROMIUM_PATH: '/nonexistent/chromium' });
    try {
      const scan = await ended(id);
      expect(scan).toMatchObject({ status: 'failed', summary: null, failure: { reason: 'capture_failed' } });
      expect(scan.failure.message).not.toMatch(/chromium|nonexistent|ENOENT/i);
    } finally {
      await worker.close();
    }
  });

  it('a worker killed mid-scan leaves the scan to another worker, which finishes it: never stuck in running', async () => {
    // The page answers only after a while, so the first worker is mid-capture when it is killed.
    let slow = true;
    const slowSite = await new SlowSite(() => slow).start();
    const monitor = await key.client.post('/monitors', { name: 'Slow', url: `${slowSite.origin}/page` });
    // Short enough that the killed worker's job is taken over soon, long enough for a slow day's event loop.
    const lock = { JOB_LOCK_MS: '5000' };
    const doomed = startWorkerProcess(lock);
    try {
      const id = await start(monitor.body.id as string);
      for (let waited = 0; ; waited += 250) {
        if ((await key.client.get(`/a11y-scans/${id}`)).body.status === 'running') break;
        if (waited > 90_000) throw new Error(`the worker process never started the scan:\n${doomed.output()}`);
        await sleep(250);
      }
      doomed.kill();
      slow = false;
      const worker = await startTestApp({ ROLE: 'worker', ...lock });
      try {
        expect(await ended(id)).toMatchObject({ status: 'completed', failure: null, summary: { violations: 0 } });
      } finally {
        await worker.close();
      }
    } finally {
      doomed.kill();
      await slowSite.stop();
    }
    // A worker process compiles the service on start: slow on a busy machine.
  }, 150_000);
});

/** A site whose answers wait while `isSlow()` says so. */
class SlowSite {
  private server?: Server;
  origin = '';

  constructor(private readonly isSlow: () => boolean) {}

  async start(): Promise<this> {
    this.server = createServer((_request, response) => {
      const answer = () => response.writeHead(200, { 'Content-Type': 'text/html' }).end(page());
      const poll = () => (this.isSlow() ? setTimeout(poll, 100) : answer());
      poll();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
