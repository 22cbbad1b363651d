import { Client } from 'pg';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

const DAY_MS = 86_400_000;
const utcDay = (daysAgo: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS);

/**
 * Status pages: managed through the API by a workspace, read by anyone at their public address, as JSON and as a page
 * for people, cached across two API instances and changed at once by the workspace.
 */
describe('status pages', () => {
  let api: TestApp;
  let other: TestApp;
  let db: Client;
  let owner: Account;
  let key: IssuedKey;
  let stranger: IssuedKey;
  const monitors: { id: string; name: string; url: string }[] = [];
  const slug = `shop-${Date.now().toString(36)}`;
  let pageId: string;

  const publicJson = (app: TestApp = api, headers: Record<string, string> = {}) =>
    new ApiClient(app.baseUrl).get(`/status-pages/public/${slug}`, { headers });
  const publicHtml = (path = '') => fetch(`${api.baseUrl}/status/${slug}${path}`);

  beforeAll(async () => {
    api = await startTestApp({ ROLE: 'api', REGIONS: 'local,eu' });
    other = await startTestApp({ ROLE: 'api', REGIONS: 'local,eu' });
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    owner = await createAccount(new ApiClient(api.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write']);
    stranger = await issueKey(await createAccount(new ApiClient(api.baseUrl)), ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(api.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    for (const name of ['Checkout backend secret-name', 'Checkout edge secret-name', 'Blog secret-name']) {
      const url = `https://internal-${monitors.length}.example.com/health`;
      const created = await key.client.post('/monitors', { name, url, regions: ['local', 'eu'] });
      expect(created.status).toBe(201);
      monitors.push({ id: created.body.id, name, url });
    }
    // History as the recorder writes it: per monitor, region and hour. Yesterday checkout lost 10 of 200 checks.
    const rollup = (monitorId: string, region: string, hour: Date, checks: number, passed: number) =>
      db.query(
        `insert into monitor_check_rollups (monitor_id, region, hour, checks, passed, response_ms_sum)
         values ($1, $2, $3, $4, $5, $6)`,
        [monitorId, region, hour, checks, passed, checks * 120],
      );
    for (const [index, monitor] of monitors.slice(0, 2).entries()) {
      await rollup(monitor.id, 'local', new Date(utcDay(1).getTime() + 3_600_000), 50, 50);
      await rollup(monitor.id, 'eu', new Date(utcDay(1).getTime() + 7_200_000), 50, index === 0 ? 40 : 50);
      await rollup(monitor.id, 'local', new Date(utcDay(5).getTime()), 10, 10);
    }
    await rollup(monitors[2].id, 'local', new Date(utcDay(2).getTime()), 10, 0);
  });

  afterAll(async () => {
    await db?.end();
    await other?.close();
    await api?.close();
  });

  it('creates a page, unpublished: its public address is a 404 until it is published', async () => {
    const created = await key.client.post('/status-pages', {
      slug,
      title: 'Shop status',
      description: 'How the shop is doing.',
      components: [
        { name: 'Checkout', monitor_ids: [monitors[0].id, monitors[1].id] },
        { name: 'Blog', monitor_ids: [monitors[2].id] },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/v1/status-pages/${created.body.id}`);
    expect(created.body).toMatchObject({ slug, published: false, public_url: `/status/${slug}` });
    expect(created.body.components.map((component: { name: string }) => component.name)).toEqual(['Checkout', 'Blog']);
    pageId = created.body.id;

    expect((await publicJson()).status).toBe(404);
    expect((await publicHtml()).status).toBe(404);
    expect((await new ApiClient(api.baseUrl).get('/status-pages/public/no-such-page')).status).toBe(404);
  });

  it('refuses a taken slug, a bad slug and monitors that are not the workspace’s, changing nothing', async () => {
    const taken = await stranger.client.post('/status-pages', { slug, title: 'Mine' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('slug_taken');
    for (const bad of ['ab', 'Has-Upper', '-leading', 'trailing-', 'with space', 'a'.repeat(61)]) {
      const response = await key.client.post('/status-pages', { slug: bad, title: 'Bad' });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].field).toBe('slug');
    }
    const foreign = await stranger.client.post('/status-pages', {
      slug: `${slug}-x`,
      title: 'Theirs',
      components: [{ name: 'Stolen', monitor_ids: [monitors[0].id] }],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      { field: 'components[0].monitor_ids[0]', message: 'no such monitor in this workspace' },
    ]);
    expect((await stranger.client.get(`/status-pages/${pageId}`)).status).toBe(404);
    expect((await stranger.client.patch(`/status-pages/${pageId}`, { published: true })).status).toBe(404);
    expect((await stranger.client.get('/status-pages')).body.data).toEqual([]);
    expect((await publicJson()).status).toBe(404);
  });

  it('publishes: 90 days of daily uptime per component from the rollups, the status now, and the method', async () => {
    expect((await key.client.patch(`/status-pages/${pageId}`, { published: true })).status).toBe(200);
    const response = await publicJson();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const page = response.body;
    expect(page).toMatchObject({ title: 'Shop status', description: 'How the shop is doing.', status: 'operational' });
    const [checkout, blog] = page.components;
    expect(checkout.name).toBe('Checkout');
    expect(checkout.days).toHaveLength(90);
    expect(checkout.days.at(-1).date).toBe(new Date().toISOString().slice(0, 10));
    const day = (daysAgo: number) => utcDay(daysAgo).toISOString().slice(0, 10);
    const yesterday = checkout.days.find((entry: { date: string }) => entry.date === day(1));
    // Both monitors, both regions: 190 of 200 checks passed.
    expect(yesterday).toEqual({ date: day(1), uptime: 95, status: 'partial_outage' });
    expect(checkout.days.find((entry: { date: string }) => entry.date === day(5))).toEqual({
      date: day(5),
      uptime: 100,
      status: 'operational',
    });
    expect(checkout.days.find((entry: { date: string }) => entry.date === day(3)).status).toBe('no_data');
    expect(checkout.uptime_90d).toBe(Math.round((210 / 220) * 100_000) / 1000);
    expect(blog.uptime_90d).toBe(0);
    expect(page.method).toMatch(/every region/);
    expect(page.method).toMatch(/paused/);
  });

  it('never shows what the workspace did not publish: no monitor names, URLs, ids, regions or keys', async () => {
    await key.client.post(`/status-pages/${pageId}/incidents`, {
      title: 'Slow checkout',
      impact: 'minor',
      message: 'Looking into it.',
    });
    const bodies = [
      JSON.stringify((await publicJson()).body),
      await (await publicHtml()).text(),
      await (await publicHtml('/feed.atom')).text(),
    ];
    const secrets = [
      ...monitors.flatMap((monitor) => [monitor.id, monitor.name, monitor.url, new URL(monitor.url).hostname]),
      'secret-name',
      pageId,
      owner.workspaceId,
      key.id,
      key.secret.slice(0, 12),
      '"local"',
      '"eu"',
    ];
    for (const body of bodies) {
      expect(secrets.filter((secret) => body.includes(secret))).toEqual([]);
    }
  });

  it('shows an incident with its updates in order, raises the status by its impact, and ends it when resolved', async () => {
    const opened = await key.client.post(`/status-pages/${pageId}/incidents`, {
      title: 'Payments failing',
      impact: 'major',
      status: 'investigating',
      message: 'Card payments fail for some customers.',
    });
    expect(opened.status).toBe(201);
    const incidentId = opened.body.id;
    const identified = await key.client.patch(`/status-pages/${pageId}/incidents/${incidentId}`, {
      status: 'identified',
      message: 'A certificate expired at the payment provider.',
    });
    expect(identified.status).toBe(200);
    expect(identified.body.updates.map((update: { status: string }) => update.status)).toEqual([
      'investigating',
      'identified',
    ]);

    let page = (await publicJson()).body;
    expect(page.status).toBe('partial_outage');
    expect(page.incidents[0]).toMatchObject({ title: 'Payments failing', status: 'identified', resolved_at: null });
    expect(page.incidents[0].updates.map((update: { message: string }) => update.message)).toEqual([
      'Card payments fail for some customers.',
      'A certificate expired at the payment provider.',
    ]);
    const html = await (await publicHtml()).text();
    expect(html.indexOf('Card payments fail')).toBeLessThan(html.indexOf('A certificate expired'));
    const feed = await publicHtml('/feed.atom');
    expect(feed.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
    expect(await feed.text()).toContain('<title>Payments failing (Identified)</title>');

    const resolved = await key.client.patch(`/status-pages/${pageId}/incidents/${incidentId}`, {
      status: 'resolved',
      message: 'Renewed; payments work again.',
    });
    expect(resolved.body.resolved_at).not.toBeNull();
    const again = await key.client.patch(`/status-pages/${pageId}/incidents/${incidentId}`, {
      status: 'monitoring',
      message: 'Too late.',
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('incident_resolved');
    page = (await publicJson()).body;
    // The minor incident opened in the test before is still open.
    expect(page.status).toBe('degraded');
    const listed = await key.client.get(`/status-pages/${pageId}/incidents`);
    expect(listed.body.data.map((incident: { title: string }) => incident.title)).toEqual([
      'Payments failing',
      'Slow checkout',
    ]);
  });

  it('keeps an open incident on the page however old it is, and keeps the feed well-formed XML', async () => {
    const old = await key.client.post(`/status-pages/${pageId}/incidents`, {
      title: 'Degraded search \u0001',
      impact: 'critical',
      message: 'Still looking\u0007 into it.',
    });
    await db.query(`update status_page_incidents set created_at = now() - interval '120 days' where id = $1`, [
      old.body.id,
    ]);
    // 50 resolved incidents since, more than the page lists.
    for (let index = 0; index < 51; index++) {
      const resolved = await key.client.post(`/status-pages/${pageId}/incidents`, {
        title: `Blip ${index}`,
        impact: 'minor',
        status: 'resolved',
        message: 'Over.',
      });
      expect(resolved.status).toBe(201);
    }
    const page = (await publicJson()).body;
    expect(page.status).toBe('major_outage');
    expect(page.incidents.filter((incident: { resolved_at: string | null }) => incident.resolved_at)).toHaveLength(50);
    expect(page.incidents.some((incident: { title: string }) => incident.title.startsWith('Degraded search'))).toBe(
      true,
    );
    const feed = await (await publicHtml('/feed.atom')).text();
    expect(feed).toContain('<title>Degraded search  (Investigating)</title>');
    expect([...feed].filter((character) => character.charCodeAt(0) < 9)).toEqual([]);
    await key.client.patch(`/status-pages/${pageId}/incidents/${old.body.id}`, {
      status: 'resolved',
      message: 'Fixed.',
    });
  });

  it('answers 304 to a visitor holding the current ETag, on either instance', async () => {
    const first = await publicJson();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await publicJson(api, { 'If-None-Match': etag })).status).toBe(304);
    expect((await publicJson(other, { 'If-None-Match': etag })).status).toBe(304);
    const html = await publicHtml();
    const htmlTag = html.headers.get('etag')!;
    expect((await fetch(`${api.baseUrl}/status/${slug}`, { headers: { 'If-None-Match': htmlTag } })).status).toBe(304);
  });

  it('computes the page at most once for a burst of visitors over two instances, and again after any change', async () => {
    await key.client.patch(`/status-pages/${pageId}`, { title: 'Shop status (burst)' });
    // Each instance counts the pages it computed from the database in its metrics.
    const computedBy = async (app: TestApp) => {
      const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
      return Number(/^vigil_status_page_computations_total (\d+)$/m.exec(metrics)?.[1] ?? Number.NaN);
    };
    const computations = async () => (await computedBy(api)) + (await computedBy(other));
    const before = await computations();
    const reads = await Promise.all(Array.from({ length: 60 }, (_, index) => publicJson(index % 2 ? api : other)));
    expect(reads.every((read) => read.status === 200 && read.body.title === 'Shop status (burst)')).toBe(true);
    expect((await computations()) - before).toBe(1);
  });

  it('shows a change by the workspace on the very next read, on every instance, and 404 once unpublished', async () => {
    await key.client.patch(`/status-pages/${pageId}`, {
      components: [{ name: 'Everything', monitor_ids: monitors.map((monitor) => monitor.id) }],
    });
    for (const app of [api, other]) {
      expect((await publicJson(app)).body.components.map((component: { name: string }) => component.name)).toEqual([
        'Everything',
      ]);
    }
    expect((await key.client.patch(`/status-pages/${pageId}`, { published: false })).status).toBe(200);
    expect((await publicJson(api)).status).toBe(404);
    expect((await publicJson(other)).status).toBe(404);
    const page = await publicHtml();
    expect(page.status).toBe(404);
    // A person gets a page that says so, with the same headers as every status page.
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(await page.text()).toContain('Status page not found');
    expect((await publicHtml('/feed.atom')).status).toBe(404);
  });

  it('lets only one of two updates at once resolve an incident', async () => {
    const opened = await key.client.post(`/status-pages/${pageId}/incidents`, {
      title: 'Race',
      impact: 'minor',
      message: 'Two people answer at once.',
    });
    const path = `/status-pages/${pageId}/incidents/${opened.body.id}`;
    const answers = await Promise.all(
      ['First', 'Second'].map((who) => key.client.patch(path, { status: 'resolved', message: `${who} resolved it.` })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const incident = (await key.client.get(`/status-pages/${pageId}/incidents`)).body.data.find(
      (candidate: { id: string }) => candidate.id === opened.body.id,
    );
    expect(incident.updates.map((update: { status: string }) => update.status)).toEqual(['investigating', 'resolved']);
  });

  it('serves the page for people with the interface’s security headers', async () => {
    await key.client.patch(`/status-pages/${pageId}`, { published: true });
    const response = await publicHtml();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('Everything');
    const stylesheet = await fetch(`${api.baseUrl}/status/-/status.css`);
    expect(stylesheet.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('deletes a page: its public address is a 404 and its slug is free again', async () => {
    expect((await key.client.delete(`/status-pages/${pageId}`)).status).toBe(204);
    expect((await publicJson()).status).toBe(404);
    expect((await key.client.get(`/status-pages/${pageId}`)).status).toBe(404);
    const reused = await stranger.client.post('/status-pages', { slug, title: 'Now mine' });
    expect(reused.status).toBe(201);
  });
});
