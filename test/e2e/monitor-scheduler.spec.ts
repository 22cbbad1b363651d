import { Redis } from 'ioredis';
import { Client } from 'pg';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { FILE_REDIS_PREFIX, startTestApp, type TestApp } from '../support/test-app';
import { TestSite } from '../support/test-site';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The work, or an error naming the step that did not end in time (a hang says where it is, not just "timeout"). */
async function step<T>(label: string, work: Promise<T>, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: not done after ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The scheduler enqueues each due slot exactly once, however many schedulers run, and never in a burst. */
describe('monitor scheduling', () => {
  let api: TestApp;
  let site: TestSite;
  let key: IssuedKey;
  let database: Client;
  let redis: Redis;
  const waiting = () => redis.lrange(`${FILE_REDIS_PREFIX}:monitor-checks-local:wait`, 0, -1);
  /** The slot a waiting job checks (Bull keeps a job's data in the job's hash). */
  const scheduledFor = async (jobId: string): Promise<number> => {
    const data = await redis.hget(`${FILE_REDIS_PREFIX}:monitor-checks-local:${jobId}`, 'data');
    return Date.parse(JSON.parse(data ?? '{}').scheduledFor);
  };

  beforeAll(async () => {
    site = await new TestSite().start();
    site.set('/up', '<!doctype html><title>Up</title><p>Up</p>');
    api = await startTestApp({ ROLE: 'api' });
    const owner = await createAccount(new ApiClient(api.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(api.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    database = new Client({ connectionString: process.env.DATABASE_URL });
    await database.connect();
    redis = new Redis(process.env.REDIS_URL!);
  });
  afterAll(async () => {
    await api.close();
    await site.stop();
    await database.end();
    await redis.quit();
  });

  async function createMonitors(count: number): Promise<string[]> {
    const created = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        key.client.post('/monitors', { name: `m${index}`, url: `${site.origin}/up`, interval_seconds: 3600 }),
      ),
    );
    return created.map((response) => response.body.id as string);
  }

  it('two schedulers side by side enqueue every due monitor once, and a worker records one result each', async () => {
    const ids = await createMonitors(40);
    await database.query(`update monitors set next_check_at = now() - interval '1 second' where id = any($1)`, [ids]);
    const schedulers = await Promise.all([
      startTestApp({ ROLE: 'scheduler', SCHEDULER_TICK_MS: '100' }),
      startTestApp({ ROLE: 'scheduler', SCHEDULER_TICK_MS: '100' }),
    ]);
    try {
      for (let waited = 0; (await waiting()).length < 40 && waited < 10_000; waited += 100) await sleep(100);
      await sleep(1000); // ten more ticks of each: nothing more may come
      const jobs = await waiting();
      expect(jobs).toHaveLength(40);
      expect(new Set(jobs).size).toBe(40);
      const { rows } = await database.query<{ next: Date }>(
        `select next_check_at as next from monitors where id = any($1)`,
        [ids],
      );
      for (const row of rows) expect(row.next.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    } finally {
      await Promise.all(schedulers.map((scheduler) => scheduler.close()));
    }

    const worker = await startTestApp({ ROLE: 'worker' });
    try {
      let recorded = 0;
      for (let waited = 0; recorded < 40 && waited < 20_000; waited += 200) {
        await sleep(200);
        const { rows } = await database.query<{ count: string }>(
          `select count(*) from monitor_checks where monitor_id = any($1)`,
          [ids],
        );
        recorded = Number(rows[0].count);
      }
      await sleep(500);
      const { rows } = await database.query<{ checks: string; monitors: string; failed: string }>(
        `select count(*) as checks, count(distinct monitor_id) as monitors, count(*) filter (where not ok) as failed
         from monitor_checks where monitor_id = any($1)`,
        [ids],
      );
      expect(rows[0]).toEqual({ checks: '40', monitors: '40', failed: '0' });
      const listed = await key.client.get('/monitors', { query: { status: 'up', per_page: 100 } });
      expect(listed.body.pagination.total).toBe(40);
    } finally {
      await worker.close();
    }
  });

  it('spreads monitors overdue by more than an interval over their next interval instead of checking them in a burst', async () => {
    const ids = await step('creating 20 monitors', createMonitors(20));
    await database.query(`update monitors set next_check_at = now() - interval '2 hours' where id = any($1)`, [ids]);
    const before = new Set(await waiting());
    const overdueUntil = Date.now();
    const scheduler = await step('starting a scheduler', startTestApp({ ROLE: 'scheduler', SCHEDULER_TICK_MS: '100' }));
    try {
      await sleep(1000);
    } finally {
      await step('closing the scheduler', scheduler.close());
    }
    // No overdue slot is checked. A slot spread into the test's own second falls due in it and is checked then, as
    // any slot is (about one run in two hundred): its time is the new one, not the overdue one.
    const enqueued = (await waiting()).filter((jobId) => !before.has(jobId));
    const slots = await Promise.all(enqueued.map(scheduledFor));
    expect(slots.filter((slot) => !(slot >= overdueUntil - 5_000))).toEqual([]);
    const { rows } = await database.query<{ next: Date }>(
      `select next_check_at as next from monitors where id = any($1)`,
      [ids],
    );
    const offsets = rows.map((row) => row.next.getTime() - Date.now());
    for (const offset of offsets) {
      expect(offset).toBeGreaterThan(-5_000);
      expect(offset).toBeLessThanOrEqual(3600_000);
    }
    // Spread, not bunched: the 20 slots cover a good part of the hour.
    expect(Math.max(...offsets) - Math.min(...offsets)).toBeGreaterThan(600_000);
  });
});
