import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { monitorCheckQueue, QUEUES } from '../../src/queues/jobs';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';
import { Receiver, until } from './alerts-receiver';
import { CHANGE_DETECTED_DATA } from '../support/events';

const TOKEN = `metrics-${randomBytes(16).toString('hex')}`;

/** The value of one sample in Prometheus text, e.g. `sample(text, 'vigil_x_total', { outcome: 'ok' })`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ? match[2].split(',') : [];
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function scrape(url: string, authorization?: string): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(url, { headers: authorization ? { Authorization: authorization } : {} });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

function expectRefused(answer: { status: number; type: string; text: string }): void {
  expect(answer.status).toBe(401);
  expect(answer.type).toContain('application/problem+json');
  expect(JSON.parse(answer.text)).toMatchObject({ status: 401, code: 'unauthenticated' });
  expect(answer.text).not.toContain('vigil_');
}

describe('metrics behind METRICS_TOKEN: queue depth, deliveries, schedule lag, crawl pages, scan durations', () => {
  let service: TestApp;
  let site: TestSite;
  let receiver: Receiver;
  let owner: Account;
  let key: IssuedKey;
  let database: Client;
  const metrics = () => scrape(`${service.baseUrl}/metrics`, `Bearer ${TOKEN}`);

  beforeAll(async () => {
    site = await new TestSite().start();
    receiver = await new Receiver().start();
    // A failed delivery is retried only after ten minutes: it stays `retrying` while the test looks.
    service = await startTestApp({ METRICS_TOKEN: TOKEN, DELIVERY_RETRY_DELAYS_MS: '600000' });
    owner = await createAccount(new ApiClient(service.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
    const admin = await signInAsAdmin(new ApiClient(service.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    database = new Client({ connectionString: service.config.databaseUrl });
    await database.connect();
  });
  afterAll(async () => {
    receiver.release('/held');
    await service.close();
    await database.end();
    await site.stop();
    await receiver.stop();
  });

  it('refuses a scrape without the token, with another token or another scheme, as a 401 problem', async () => {
    const url = `${service.baseUrl}/metrics`;
    const refusals = [
      await scrape(url),
      await scrape(url, `Bearer ${TOKEN.slice(0, -1)}x`),
      await scrape(url, `Bearer ${TOKEN}-and-more`),
      await scrape(url, `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}`),
      await scrape(url, TOKEN),
    ];
    for (const refused of refusals) expectRefused(refused);
    const response = await fetch(url);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers the token with every metric, and the depth of every queue', async () => {
    const { status, type, text } = await metrics();
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    for (const name of [
      'vigil_http_requests_total',
      'vigil_http_request_duration_seconds',
      'vigil_queue_jobs',
      'vigil_alert_deliveries',
      'vigil_alert_deliveries_total',
      'vigil_schedule_lag_seconds',
      'vigil_crawl_pages_fetched_total',
      'vigil_a11y_scan_duration_seconds',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    const queues = [...Object.values(QUEUES), ...service.config.regions.map(monitorCheckQueue)];
    for (const queue of queues) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(sample(text, 'vigil_queue_jobs', { queue, state })).toBeGreaterThanOrEqual(0);
      }
    }
    // The scheme is case-insensitive (RFC 9110).
    expect((await scrape(`${service.baseUrl}/metrics`, `bearer ${TOKEN}`)).status).toBe(200);
  });

  it('reports open deliveries from the table, and attempts by outcome', async () => {
    receiver.answerWith('/held', () => 'hold');
    receiver.answerWith('/failing', () => 500);
    for (const path of ['/ok', '/failing', '/held']) {
      const created = await key.client.post('/alert-destinations', {
        name: path,
        type: 'webhook',
        config: { url: `${receiver.origin}${path}` },
        events: ['change.detected'],
      });
      expect(created.status).toBe(201);
    }
    await database.query(
      `insert into events (id, workspace_id, type, data, destination_ids, created_at)
       select id, $2, 'change.detected', $3, '{}', now() from unnest($1::uuid[]) id`,
      [[randomUUID(), randomUUID()], owner.workspaceId, CHANGE_DETECTED_DATA],
    );

    await until('both attempts at each receiver', () =>
      receiver.delivered('/ok').length === 2 && receiver.at('/failing').length === 2 && receiver.openAt('/held') === 2
        ? true
        : undefined,
    );
    const text = await until('the attempts recorded', async () => {
      const current = (await metrics()).text;
      return sample(current, 'vigil_alert_deliveries_total', { outcome: 'retrying' }) === 2 ? current : undefined;
    });
    expect(sample(text, 'vigil_alert_deliveries_total', { outcome: 'succeeded' })).toBe(2);
    expect(sample(text, 'vigil_alert_deliveries_total', { outcome: 'failed' })).toBe(0);
    // Held open by the receiver: claimed, still pending. Failed once: retrying, in ten minutes.
    expect(sample(text, 'vigil_alert_deliveries', { status: 'pending' })).toBe(2);
    expect(sample(text, 'vigil_alert_deliveries', { status: 'retrying' })).toBe(2);
  });

  it('reports how late the scheduler enqueued a due check', async () => {
    site.set('/up', page());
    const lag = (text: string) => ({
      count: sample(text, 'vigil_schedule_lag_seconds_count') ?? 0,
      sum: sample(text, 'vigil_schedule_lag_seconds_sum') ?? 0,
      within2_5s: sample(text, 'vigil_schedule_lag_seconds_bucket', { le: '2.5' }) ?? 0,
      within30s: sample(text, 'vigil_schedule_lag_seconds_bucket', { le: '30' }) ?? 0,
    });
    const created = await key.client.post('/monitors', {
      name: 'late',
      url: `${site.origin}/up`,
      interval_seconds: 3600,
      paused: true,
    });
    expect(created.status).toBe(201);
    // Created paused, so the scheduler (a tick every 250 ms) cannot claim it before the figures to compare with are
    // read; then resumed and due three seconds ago in one statement, as if the scheduler had been busy.
    const before = lag((await metrics()).text);
    await database.query(
      `update monitors set paused = false, next_check_at = now() - interval '3 seconds' where id = $1`,
      [created.body.id],
    );
    const after = await until('the check enqueued', async () => {
      const current = lag((await metrics()).text);
      return current.count > before.count ? current : undefined;
    });
    expect(after.count - before.count).toBe(1);
    expect(after.sum - before.sum).toBeGreaterThanOrEqual(3);
    expect(after.sum - before.sum).toBeLessThan(30);
    expect(after.within2_5s - before.within2_5s).toBe(0);
    expect(after.within30s - before.within30s).toBe(1);
  });

  it('counts the pages a crawl fetched', async () => {
    site.set('/', page({ body: '<a href="/a">A</a> <a href="/b">B</a>' }));
    site.set('/a', page());
    site.set('/b', page());
    const started = await key.client.post('/crawl', { url: `${site.origin}/` });
    expect(started.status).toBe(202);
    await until('the crawl ended', async () => {
      const crawl = (await key.client.get(`/crawl/${started.body.id}`)).body;
      return ['queued', 'running'].includes(crawl.status) ? undefined : crawl;
    });
    const text = (await metrics()).text;
    expect(sample(text, 'vigil_crawl_pages_fetched_total', { outcome: 'response' })).toBe(3);
    expect(sample(text, 'vigil_crawl_pages_fetched_total', { outcome: 'failed' })).toBe(0);
  });

  it('times accessibility scans', async () => {
    site.set('/scan', page());
    const monitor = await key.client.post('/monitors', { name: 'scan', url: `${site.origin}/scan` });
    const started = await key.client.post(`/monitors/${monitor.body.id}/a11y-scan`, { viewports: ['desktop'] });
    expect(started.status).toBe(202);
    const scan = await until(
      'the scan ended',
      async () => {
        const current = (await key.client.get(`/a11y-scans/${started.body.id}`)).body;
        return ['queued', 'running'].includes(current.status) ? undefined : current;
      },
      60_000,
    );
    expect(scan.status).toBe('completed');
    const text = (await metrics()).text;
    expect(sample(text, 'vigil_a11y_scan_duration_seconds_count', { status: 'completed' })).toBe(1);
    expect(sample(text, 'vigil_a11y_scan_duration_seconds_sum', { status: 'completed' })).toBeGreaterThan(0);
    expect(sample(text, 'vigil_a11y_scan_duration_seconds_count', { status: 'failed' })).toBe(0);
  });
});

describe('metrics of a worker process, on METRICS_PORT', () => {
  it('serves the worker’s own metrics there, behind the same token', async () => {
    const port = await freePort();
    const worker = await startTestApp({ ROLE: 'worker', METRICS_PORT: String(port), METRICS_TOKEN: TOKEN });
    try {
      const url = `http://127.0.0.1:${port}/metrics`;
      expectRefused(await scrape(url));
      expectRefused(await scrape(url, 'Bearer wrong'));
      const { status, type, text } = await scrape(url, `Bearer ${TOKEN}`);
      expect(status).toBe(200);
      expect(type).toContain('text/plain');
      expect(text).toContain('# TYPE vigil_alert_deliveries_total counter');
      expect(sample(text, 'vigil_queue_jobs', { queue: QUEUES.crawls, state: 'waiting' })).toBeGreaterThanOrEqual(0);
      expect((await scrape(`http://127.0.0.1:${port}/elsewhere`, `Bearer ${TOKEN}`)).status).toBe(404);
    } finally {
      await worker.close();
    }
  });
});
