import { Redis } from 'ioredis';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { waitForCollection } from '../support/release-checks';
import { FILE_REDIS_PREFIX, startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Nothing is lost: work the queue dropped is resumed, and work that cannot succeed ends as a recorded failure. */
describe('release-check collection survives lost jobs and failing browsers', () => {
  let api: TestApp;
  let site: TestSite;
  let person: Account;
  let ci: IssuedKey;

  beforeAll(async () => {
    site = await new TestSite().start();
    site.set('/prod/pricing', page());
    site.set('/preview/pricing', page());
    // An API without workers: checks are accepted and queued, nobody collects yet.
    api = await startTestApp({ ROLE: 'api' });
    person = await createAccount(new ApiClient(api.baseUrl));
    ci = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(api.baseUrl));
    await admin.put(`/admin/api-keys/${ci.id}/rate-limit`, { requests_per_minute: 100_000 });
  });
  afterAll(async () => {
    await api.close();
    await site.stop();
  });

  async function submit(name: string) {
    const created = await ci.client.post('/release-checks', {
      name,
      production_url: `${site.origin}/prod`,
      preview_url: `${site.origin}/preview`,
      request_key: `${name}-${Date.now()}`,
      pages: [{ production_path: '/pricing', preview_path: '/pricing' }],
      viewports: ['desktop'],
    });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }

  const finished = (id: string) => waitForCollection(ci.client, id);

  it('re-queues work the queue lost (Redis restarted empty) when a worker starts, and completes the check', async () => {
    const id = await submit('lost-jobs');
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      const queued = await redis.keys(`${FILE_REDIS_PREFIX}:release-check-*`);
      expect(queued.length).toBeGreaterThan(0);
      await redis.unlink(...queued);
    } finally {
      await redis.quit();
    }
    await sleep(500);
    expect((await ci.client.get(`/release-checks/${id}`)).body.collection_status).toBe('queued');

    const worker = await startTestApp({ ROLE: 'worker' });
    try {
      const check = await finished(id);
      expect(check).toMatchObject({
        collection_status: 'completed',
        gate: 'pending',
        summary: { captured: 1, missing: 0 },
      });
    } finally {
      await worker.close();
    }
  });

  it('records a capture that fails on every attempt as missing evidence, so the check ends failed, not hung', async () => {
    const id = await submit('no-browser');
    const worker = await startTestApp({ ROLE: 'worker', CHROMIUM_PATH: '/nonexistent/chromium' });
    try {
      const check = await finished(id);
      expect(check).toMatchObject({
        collection_status: 'incomplete',
        gate: 'failed',
        review: { status: 'cannot_approve' },
      });
      // One missing side settles the outcome at once; the other side's failure is recorded when its retries end.
      let artifact = check.artifacts[0];
      for (let waited = 0; waited < 30_000; waited += 250) {
        if (artifact.production.state !== 'pending' && artifact.preview.state !== 'pending') break;
        await sleep(250);
        artifact = (await ci.client.get(`/release-checks/${id}`)).body.artifacts[0];
      }
      for (const side of [artifact.production, artifact.preview]) {
        expect(side).toMatchObject({ state: 'missing', screenshot_url: null, missing: { reason: 'capture_failed' } });
        expect(side.missing.message).toContain('failed on every attempt');
      }
    } finally {
      await worker.close();
    }
  });
});
