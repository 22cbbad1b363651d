import { parse } from 'csv-parse/sync';
import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestSite } from '../support/test-site';

const html = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Shop</title></head><body>${body}</body></html>`;

/** Monitors over HTTP against pages served on 127.0.0.1, checked by a real worker through Redis and PostgreSQL. */
describe('monitors', () => {
  let api: TestApp;
  let worker: TestApp;
  let site: TestSite;
  let owner: Account;
  let key: IssuedKey;
  let summaries: Server;
  let summaryCalls = 0;

  beforeAll(async () => {
    site = await new TestSite().start();
    // An OpenAI-compatible stand-in: it answers only for pages whose diff mentions "LLM".
    summaries = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        summaryCalls += 1;
        if (!body.includes('LLM')) return response.writeHead(500).end();
        response
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ choices: [{ message: { content: 'The headline now mentions the LLM launch.' } }] }));
      });
    });
    await new Promise<void>((resolve) => summaries.listen(0, '127.0.0.1', resolve));
    const summaryUrl = `http://127.0.0.1:${(summaries.address() as AddressInfo).port}/v1`;
    // No scheduler here: only the checks a test asks for run (the scheduler has tests of its own below).
    api = await startTestApp({ ROLE: 'api', REGIONS: 'local,eu' });
    worker = await startTestApp({ ROLE: 'worker', REGIONS: 'local,eu', SUMMARY_API_URL: summaryUrl });
    owner = await createAccount(new ApiClient(api.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'changes:read', 'changes:write']);
    const admin = await signInAsAdmin(new ApiClient(api.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
    await site.stop();
    await new Promise((resolve) => summaries.close(resolve));
  });

  async function createMonitor(body: Record<string, unknown>) {
    const created = await key.client.post('/monitors', { name: 'Shop', url: `${site.origin}/shop`, ...body });
    expect(created.status).toBe(201);
    return created.body as { id: string } & Record<string, any>;
  }

  const checkNow = async (id: string) => {
    const run = await key.client.post(`/monitors/${id}/check`);
    expect(run.status).toBe(200);
    return run.body;
  };

  it('creates, reads, lists, updates, pauses and deletes a monitor, with defaults a user would expect', async () => {
    const monitor = await createMonitor({ name: 'Docs', url: `${site.origin}/docs` });
    expect(monitor).toMatchObject({
      name: 'Docs',
      mode: 'http',
      interval_seconds: 300,
      timeout_seconds: 30,
      expected_status: { min: 200, max: 399 },
      regions: ['local'],
      status: 'pending',
      paused: false,
      badge_enabled: false,
      last_checked_at: null,
    });
    expect(Date.parse(monitor.next_check_at)).toBeLessThanOrEqual(Date.now() + 60_000);

    expect((await key.client.get(`/monitors/${monitor.id}`)).body).toEqual(monitor);
    const paused = await key.client.patch(`/monitors/${monitor.id}`, {
      paused: true,
      keyword: 'Docs',
      interval_seconds: 60,
    });
    expect(paused.body).toMatchObject({
      status: 'paused',
      paused: true,
      keyword: 'Docs',
      interval_seconds: 60,
      next_check_at: null,
    });
    expect(
      (await key.client.get('/monitors', { query: { status: 'paused' } })).body.data.map((m: any) => m.id),
    ).toEqual([monitor.id]);
    const resumed = await key.client.patch(`/monitors/${monitor.id}`, { paused: false, keyword: null });
    expect(resumed.body).toMatchObject({ status: 'pending', paused: false, keyword: null });

    const regions = await key.client.put(`/monitors/${monitor.id}/regions`, { regions: ['eu', 'local'] });
    expect(regions.body.regions).toEqual(['eu', 'local']);

    expect((await key.client.delete(`/monitors/${monitor.id}`)).status).toBe(204);
    expect((await key.client.get(`/monitors/${monitor.id}`)).status).toBe(404);
  });

  it.each([
    ['an invalid URL', { url: 'not a url' }, 'url'],
    ['a non-http URL', { url: 'ftp://example.com/' }, 'url'],
    ['an interval under 30 s', { interval_seconds: 29 }, 'interval_seconds'],
    ['an unknown region', { regions: ['mars'] }, 'regions'],
    ['a bad selector', { selector: 'div >' }, 'selector'],
    [
      'a bad tracked-value selector',
      { tracked_values: [{ name: 'p', selector: '[[', kind: 'price' }] },
      'tracked_values.0.selector',
    ],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['a null where a value is required', { interval_seconds: null }, 'interval_seconds'],
    ['an inverted status range', { expected_status: { min: 400, max: 200 } }, 'expected_status'],
  ])('refuses %s with a 400 naming the field, and stores nothing', async (_case, body, field) => {
    const before = (await key.client.get('/monitors')).body.pagination.total;
    const response = await key.client.post('/monitors', { name: 'Bad', url: `${site.origin}/x`, ...body });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors.map((error: any) => error.field).join(' ')).toContain(field.split('.')[0]);
    expect((await key.client.get('/monitors')).body.pagination.total).toBe(before);
  });

  it("answers 404 for another user's monitor and its changes, never its data", async () => {
    const monitor = await createMonitor({});
    const stranger = await createAccount(new ApiClient(api.baseUrl));
    const strangerKey = await issueKey(stranger, ['monitors:read', 'monitors:write', 'changes:read']);
    for (const path of [
      `/monitors/${monitor.id}`,
      `/monitors/${monitor.id}/uptime`,
      `/monitors/${monitor.id}/timeline`,
    ]) {
      expect((await strangerKey.client.get(path)).status).toBe(404);
    }
    expect((await strangerKey.client.post(`/monitors/${monitor.id}/check`)).status).toBe(404);
    expect((await strangerKey.client.delete(`/monitors/${monitor.id}`)).status).toBe(404);
  });

  it('pages monitors up to 500 at a time and refuses 501', async () => {
    expect((await key.client.get('/monitors', { query: { per_page: 500 } })).status).toBe(200);
    const refused = await key.client.get('/monitors', { query: { per_page: 501 } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('per_page');
    expect((await key.client.get('/changes', { query: { per_page: 101 } })).status).toBe(400);
  });

  it('checks now in every region; a page that goes down and comes back moves status and uptime', async () => {
    site.set('/status', html('<h1>All good</h1>'));
    const monitor = await createMonitor({ url: `${site.origin}/status`, regions: ['local', 'eu'], keyword: 'good' });

    const first = await checkNow(monitor.id);
    expect(first.monitor.status).toBe('up');
    expect(first.results.map((result: any) => result.region)).toEqual(['eu', 'local']);
    expect(first.results[0]).toMatchObject({ ok: true, status_code: 200, failure: null, trigger: 'manual' });

    site.set('/status', { status: 503, html: html('<h1>Maintenance</h1>') });
    const down = await checkNow(monitor.id);
    expect(down.monitor.status).toBe('down');
    expect(down.results[0]).toMatchObject({ ok: false, status_code: 503, failure: 'status' });
    expect(
      (await key.client.get('/monitors', { query: { status: 'down' } })).body.data.map((m: any) => m.id),
    ).toContain(monitor.id);

    site.set('/status', html('<h1>All good again</h1>'));
    expect((await checkNow(monitor.id)).monitor.status).toBe('up');

    const uptime = await key.client.get(`/monitors/${monitor.id}/uptime`);
    expect(uptime.status).toBe(200);
    expect(uptime.body).toMatchObject({ region: null, checks: { '24h': 6, '7d': 6, '30d': 6 }, history: '24h' });
    expect(uptime.body.uptime['24h']).toBeCloseTo(66.667, 2);
    expect(uptime.body.response_times).toHaveLength(1);
    const eu = await key.client.get(`/monitors/${monitor.id}/uptime`, { query: { region: 'eu', history: '30d' } });
    expect(eu.body).toMatchObject({ region: 'eu', checks: { '24h': 3 }, history: '30d' });
    expect((await key.client.get(`/monitors/${monitor.id}/uptime`, { query: { region: 'us' } })).status).toBe(400);

    const me = await owner.session.get('/users/me');
    expect(me.body.usage.checks_this_month).toBeGreaterThanOrEqual(6);
    expect(me.body.usage.monitors).toBeGreaterThanOrEqual(1);
  });

  it('reads 24-hour, 7-day and 30-day uptime and response-time history from a month of hourly rollups', async () => {
    const monitor = await createMonitor({ url: `${site.origin}/history` });
    const database = new Client({ connectionString: process.env.DATABASE_URL });
    await database.connect();
    try {
      // Ten checks an hour at 2, 30, 200 and 800 hours ago; the last is outside every window.
      await database.query(
        `insert into monitor_check_rollups (monitor_id, region, hour, checks, passed, response_ms_sum)
         select $1, 'local', date_trunc('hour', now()) - make_interval(hours => ago), 10, passed, ms * 10
         from (values (2, 9, 100), (30, 5, 300), (200, 10, 50), (800, 0, 900)) as seeded(ago, passed, ms)`,
        [monitor.id],
      );
    } finally {
      await database.end();
    }
    const day = await key.client.get(`/monitors/${monitor.id}/uptime`);
    expect(day.body).toMatchObject({
      uptime: { '24h': 90, '7d': 70, '30d': 80 },
      checks: { '24h': 10, '7d': 20, '30d': 30 },
    });
    expect(day.body.response_times.map((point: any) => point.ms)).toEqual([100]);
    const week = await key.client.get(`/monitors/${monitor.id}/uptime`, { query: { history: '7d' } });
    expect(week.body.response_times.map((point: any) => point.ms)).toEqual([300, 100]);
    const month = await key.client.get(`/monitors/${monitor.id}/uptime`, { query: { history: '30d' } });
    expect(month.body.response_times.map((point: any) => point.ms)).toEqual([50, 300, 100]);
    expect(month.body.response_times[0].t).toMatch(/T00:00:00\.000Z$/); // one point per day
    const hours = week.body.response_times.map((point: any) => Date.parse(point.t));
    expect(hours[1] - hours[0]).toBe(28 * 3600_000);
  });

  it('records one change with a unified diff and a heuristic summary when the text changes, none when it does not', async () => {
    site.set('/pricing', html('<main><h1>Pricing</h1><p>Pro plan $29/month</p><p>Beta features</p></main>'));
    const monitor = await createMonitor({ url: `${site.origin}/pricing`, selector: 'main' });
    await checkNow(monitor.id); // the baseline
    await checkNow(monitor.id); // identical content
    expect((await key.client.get('/changes', { query: { monitor_id: monitor.id } })).body.data).toEqual([]);

    site.set('/pricing', html('<main><h1>Pricing</h1><p>Pro plan $39/month</p><p>Beta features</p></main>'));
    await checkNow(monitor.id);
    await checkNow(monitor.id);
    const changes = await key.client.get('/changes', { query: { monitor_id: monitor.id } });
    expect(changes.body.data).toHaveLength(1);
    const [change] = changes.body.data;
    expect(change).toMatchObject({ kind: 'content', monitor_name: 'Shop', feedback: null, archived: false });
    expect(change.summary.source).toBe('heuristic');
    expect(change.summary.text).toContain('$29');
    expect(change.summary.text).toContain('$39');

    const detail = await key.client.get(`/changes/${change.id}`);
    expect(detail.body.diff.removed).toEqual(['Pro plan $29/month']);
    expect(detail.body.diff.added).toEqual(['Pro plan $39/month']);
    expect(detail.body.diff.unified).toContain('-Pro plan $29/month');
    expect(detail.body.diff.unified).toContain('+Pro plan $39/month');

    const timeline = await key.client.get(`/monitors/${monitor.id}/timeline`);
    expect(timeline.body.data.map((entry: any) => entry.id)).toEqual([change.id]);

    const marked = await key.client.patch(`/changes/${change.id}`, { feedback: 'noise', archived: true });
    expect(marked.body).toMatchObject({ feedback: 'noise', archived: true });
    expect((await key.client.get('/changes', { query: { monitor_id: monitor.id } })).body.data).toEqual([]);
    expect(
      (await key.client.get('/changes', { query: { monitor_id: monitor.id, archived: 'true' } })).body.data,
    ).toHaveLength(1);
    expect((await key.client.patch(`/changes/${change.id}`, { feedback: 'great' })).status).toBe(400);
  });

  it('asks the configured summary endpoint, and says so, only when there is a change to summarize', async () => {
    site.set('/news', html('<h1>News</h1><p>Nothing yet</p>'));
    const monitor = await createMonitor({ url: `${site.origin}/news` });
    await checkNow(monitor.id);
    const callsBefore = summaryCalls;
    await checkNow(monitor.id);
    expect(summaryCalls).toBe(callsBefore);

    site.set('/news', html('<h1>News</h1><p>LLM launch today</p>'));
    await checkNow(monitor.id);
    const [change] = (await key.client.get('/changes', { query: { monitor_id: monitor.id } })).body.data;
    expect(change.summary).toEqual({ text: 'The headline now mentions the LLM launch.', source: 'llm' });
  });

  it('tracks prices on every check and records a value change when one moves', async () => {
    site.set('/product', html('<p class="price">$1,299.00</p><p class="eu">1.299,00 €</p><p class="uk">£12</p>'));
    const monitor = await createMonitor({
      url: `${site.origin}/product`,
      tracked_values: [
        { name: 'usd', selector: '.price', kind: 'price' },
        { name: 'eur', selector: '.eu', kind: 'price' },
        { name: 'gbp', selector: '.uk', kind: 'price' },
      ],
    });
    await checkNow(monitor.id);
    const readings = await key.client.get(`/monitors/${monitor.id}/tracked-values`);
    const byName = Object.fromEntries(readings.body.data.map((reading: any) => [reading.name, reading]));
    expect(byName.usd).toMatchObject({ raw: '$1,299.00', amount: 1299, currency: 'USD' });
    expect(byName.eur).toMatchObject({ raw: '1.299,00 €', amount: 1299, currency: 'EUR' });
    expect(byName.gbp).toMatchObject({ raw: '£12', amount: 12, currency: 'GBP' });

    site.set('/product', html('<p class="price">$1,199.00</p><p class="eu">1.299,00 €</p><p class="uk">£12</p>'));
    await checkNow(monitor.id);
    const changes = (await key.client.get('/changes', { query: { monitor_id: monitor.id, kind: 'value' } })).body.data;
    expect(changes).toHaveLength(1);
    expect(changes[0].value).toMatchObject({
      name: 'usd',
      before: '$1,299.00',
      after: '$1,199.00',
      before_amount: 1299,
      after_amount: 1199,
    });
    expect(changes[0].summary.text).toContain('$1,199.00');
    expect(
      (await key.client.get(`/monitors/${monitor.id}/tracked-values`, { query: { name: 'usd' } })).body.pagination
        .total,
    ).toBe(2);

    const csv = await key.client.get('/export/tracked-values', { query: { format: 'csv', monitor_id: monitor.id } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="tracked-values-/);
    const rows = parse<Record<string, string>>(csv.body as string, { columns: true });
    expect(rows).toHaveLength(6);
    expect(
      rows
        .filter((row) => row.name === 'usd')
        .map((row) => row.amount)
        .sort(),
    ).toEqual(['1199', '1299']);

    const changesCsv = await key.client.get('/export/changes', { query: { format: 'csv', monitor_id: monitor.id } });
    const changeRows = parse<Record<string, string>>(changesCsv.body as string, { columns: true });
    // The whole page's text is watched too, so the same edit is also a content change.
    expect(changeRows.map((row) => row.kind).sort()).toEqual(['content', 'value']);
    expect(changeRows.find((row) => row.kind === 'value')).toMatchObject({
      id: changes[0].id,
      value_name: 'usd',
      value_after: '$1,199.00',
      archived: 'false',
      feedback: '',
    });
    const json = await key.client.get('/export/changes', { query: { monitor_id: monitor.id } });
    expect(json.body.data).toContainEqual(
      expect.objectContaining({ id: changes[0].id, summary: changes[0].summary.text }),
    );
    expect((await key.client.get('/export/changes', { query: { format: 'xml' } })).status).toBe(400);
  });

  it('renders browser monitors in Chromium, keeps before and after screenshots of a change, deletes them with the monitor', async () => {
    site.set('/app', html('<h1 id="title">Dashboard</h1><script>document.body.append("Rendered by script")</script>'));
    const monitor = await createMonitor({ url: `${site.origin}/app`, mode: 'browser', keyword: 'Rendered by script' });
    const first = await checkNow(monitor.id);
    expect(first.results[0]).toMatchObject({ ok: true, status_code: 200 });

    site.set(
      '/app',
      html('<h1 id="title">Dashboard v2</h1><script>document.body.append("Rendered by script")</script>'),
    );
    await checkNow(monitor.id);
    const [change] = (await key.client.get(`/monitors/${monitor.id}/timeline`)).body.data;
    expect(change.summary.text).toContain('Dashboard v2');
    for (const url of [change.before_screenshot_url, change.after_screenshot_url]) {
      expect(url).toMatch(/^\/api\/v1\/changes\/.+\.png$/);
      const image = await fetch(`${api.baseUrl}${url}`, { headers: { 'X-API-Key': key.secret } });
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await image.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }

    // Deleting the monitor deletes its screenshots too: no row names them any more.
    const folder = join(resolve(api.config.artifactDir), 'monitors', monitor.id);
    expect((await readdir(folder)).filter((file) => file.endsWith('.png')).length).toBeGreaterThanOrEqual(2);
    expect((await key.client.delete(`/monitors/${monitor.id}`)).status).toBe(204);
    await expect(readdir(folder)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('serves a public shields-style SVG badge that follows the status, until it is disabled', async () => {
    site.set('/badge', html('<h1>Up</h1>'));
    const monitor = await createMonitor({ name: 'Status page', url: `${site.origin}/badge` });
    const badge = await key.client.post(`/monitors/${monitor.id}/badge`);
    expect(badge.status).toBe(200);
    expect(badge.body.url).toMatch(/^\/api\/v1\/badges\/[A-Za-z0-9_-]+\.svg$/);
    expect((await key.client.post(`/monitors/${monitor.id}/badge`)).body.url).toBe(badge.body.url);

    const anonymous = new ApiClient(api.baseUrl, {}, '');
    const pending = await anonymous.get(badge.body.url);
    expect(pending.status).toBe(200);
    expect(pending.headers.get('content-type')).toContain('image/svg+xml');
    expect(pending.headers.get('cache-control')).toBe('public, max-age=60');
    expect(pending.body).toContain('<svg');
    expect(pending.body).toContain('Status page');
    expect(pending.body).toContain('pending');

    await checkNow(monitor.id);
    const up = (await anonymous.get(badge.body.url)).body as string;
    expect(up).toContain('aria-label="Status page: up"');
    site.set('/badge', { status: 500, html: 'boom' });
    await checkNow(monitor.id);
    const down = (await anonymous.get(badge.body.url, { query: { style: 'flat-square' } })).body as string;
    expect(down).toContain('aria-label="Status page: down"');
    const statusColour = (svg: string) => [...svg.matchAll(/fill="(#[0-9a-f]{3,6})"/g)].map((match) => match[1])[1];
    expect(statusColour(down)).not.toBe(statusColour(up));

    expect((await key.client.delete(`/monitors/${monitor.id}/badge`)).status).toBe(204);
    expect((await anonymous.get(badge.body.url)).status).toBe(404);
    expect((await anonymous.get('/api/v1/badges/short.svg')).status).toBe(400);
  });
});
