import { Client } from 'pg';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestSite } from '../support/test-site';
import { Receiver, sleep, until } from './alerts-receiver';

type Json = Record<string, any>;

/**
 * Maintenance windows (issue #29): a window muting alerts holds a down alert that would otherwise be sent (and never
 * sends it later), the status page shows the maintenance on the component it covers, uptime counts its checks apart,
 * "end now" ends it, and a window pausing checks (with no monitor named: all of them) skips scheduled checks. A window
 * lasts `duration_minutes` or until `ends_at`. Real scheduler, worker, PostgreSQL, Redis.
 */
describe('maintenance windows', () => {
  let service: TestApp;
  let receiver: Receiver;
  let site: TestSite;
  let key: IssuedKey;
  let hookId = '';

  beforeAll(async () => {
    receiver = await new Receiver().start();
    site = await new TestSite().start();
    site.pages.set('/', { html: '<!doctype html><title>Shop</title><p>Open</p>' });
    service = await startTestApp({ SCHEDULER_TICK_MS: '200', ALLOW_PRIVATE_TARGETS: 'true' });
    const owner = await createAccount(new ApiClient(service.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
    await (
      await signInAsAdmin(new ApiClient(service.baseUrl))
    ).put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    const hook = await key.client.post('/alert-destinations', {
      name: 'On call',
      type: 'webhook',
      config: { url: `${receiver.origin}/hook` },
      events: ['maintenance.started', 'maintenance.ended'],
    });
    expect(hook.status).toBe(201);
    hookId = hook.body.id;
  });
  afterAll(async () => {
    await service?.close();
    await receiver?.stop();
    await site?.stop();
  });

  const events = () =>
    receiver.requests.filter((request) => request.path === '/hook').map((request) => JSON.parse(request.body) as Json);
  const alertsOf = (monitorId: string) => events().filter((event) => event.data.monitor?.id === monitorId);
  const fail = (monitor: Json) => fetch(`${monitor.ping_url}/fail`, { method: 'POST' });

  /** A heartbeat monitor pinged by hand (a day between slots), with a down rule telling the hook. */
  async function job(name: string): Promise<Json> {
    const created = await key.client.post('/monitors', {
      name,
      mode: 'heartbeat',
      schedule: { interval_seconds: 86_400 },
    });
    expect(created.status).toBe(201);
    const rule = await key.client.post(`/monitors/${created.body.id}/rules`, {
      event: 'down',
      destination_ids: [hookId],
    });
    expect(rule.status).toBe(201);
    return created.body;
  }

  it('mutes a down alert, shows the maintenance on the status page, counts its checks apart, and ends now', async () => {
    const muted = await job('Invoice export');
    const control = await job('Payroll export');
    const slug = `jobs-${Date.now().toString(36)}`;
    const page = await key.client.post('/status-pages', {
      slug,
      title: 'Jobs',
      published: true,
      components: [
        { name: 'Invoices', monitor_ids: [muted.id] },
        { name: 'Payroll', monitor_ids: [control.id] },
      ],
    });
    expect(page.status).toBe(201);

    // Start now for 30 minutes.
    const created = await key.client.post('/maintenance-windows', {
      name: 'Ledger migration',
      message: 'Invoices are exported again after the migration.',
      monitor_ids: [muted.id],
      duration_minutes: 30,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/v1/maintenance-windows/${created.body.id}`);
    expect(created.body).toMatchObject({
      name: 'Ledger migration',
      effect: 'mute_alerts',
      monitor_ids: [muted.id],
      duration_minutes: 30,
      rrule: null,
      timezone: 'UTC',
      active: true,
      status: 'active',
      next: null,
      ended_at: null,
    });
    for (const gone of ['title', 'mode', 'all_monitors', 'recurrence']) expect(created.body).not.toHaveProperty(gone);
    const { current } = created.body;
    expect(current).toEqual({ starts_at: created.body.starts_at, ends_at: created.body.ends_at });
    expect(Date.parse(current.ends_at) - Date.parse(current.starts_at)).toBe(30 * 60_000);
    const started = await until('maintenance.started', () =>
      events().find((event) => event.type === 'maintenance.started'),
    );
    expect(started.data).toEqual({
      maintenance_window: {
        id: created.body.id,
        name: 'Ledger migration',
        message: 'Invoices are exported again after the migration.',
        effect: 'mute_alerts',
        monitor_ids: [muted.id],
      },
      starts_at: current.starts_at,
      ends_at: current.ends_at,
    });

    // Both jobs fail: the one outside the window alerts, the one inside goes down in silence.
    expect((await fail(muted)).status).toBe(200);
    expect((await fail(control)).status).toBe(200);
    await until('the control alert', () => alertsOf(control.id).find((event) => event.type === 'monitor.down'));
    await sleep(1500);
    expect(alertsOf(muted.id)).toEqual([]);
    expect((await key.client.get(`/monitors/${muted.id}`)).body.status).toBe('down');
    const [rule] = (await key.client.get(`/monitors/${muted.id}/rules`)).body.data;
    expect(rule.state).toBe('ok');

    const publicPage = (await new ApiClient(service.baseUrl).get(`/status-pages/public/${slug}`)).body;
    expect(publicPage.components).toEqual([
      expect.objectContaining({
        name: 'Invoices',
        status: 'under_maintenance',
        maintenance: {
          name: 'Ledger migration',
          message: 'Invoices are exported again after the migration.',
          starts_at: current.starts_at,
          ends_at: current.ends_at,
          components: ['Invoices'],
        },
      }),
      expect.objectContaining({ name: 'Payroll', status: 'major_outage', maintenance: null }),
    ]);
    expect(publicPage.maintenance).toEqual([expect.objectContaining({ name: 'Ledger migration' })]);
    expect(publicPage.method).toContain('checks made during maintenance are counted apart');
    const html = await (await fetch(`${service.baseUrl}/status/${slug}`)).text();
    expect(html).toContain('Under maintenance');
    expect(html).toContain('Invoices are exported again after the migration.');
    expect(html).toContain('Ledger migration');

    const uptime = (await key.client.get(`/monitors/${muted.id}/uptime`)).body;
    expect(uptime).toMatchObject({
      uptime: { '24h': null },
      checks: { '24h': 0 },
      maintenance_checks: { '24h': 1, '7d': 1, '30d': 1 },
    });
    const controlUptime = (await key.client.get(`/monitors/${control.id}/uptime`)).body;
    expect(controlUptime).toMatchObject({
      uptime: { '24h': 0 },
      checks: { '24h': 1 },
      maintenance_checks: { '24h': 0 },
    });

    // End now: told once; the next failure alerts as usual, and the muted one was never sent.
    const ended = await key.client.post(`/maintenance-windows/${created.body.id}/end`);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ active: false, status: 'completed', current: null, next: null });
    // ends_at stays where the occurrence was planned to end; ended_at says it was cut short.
    expect(ended.body.ends_at).toBe(created.body.ends_at);
    expect(ended.body.ended_at).not.toBeNull();
    const endedEvent = await until('maintenance.ended', () =>
      events().find((event) => event.type === 'maintenance.ended'),
    );
    expect(endedEvent.data.maintenance_window.id).toBe(created.body.id);
    expect((await key.client.post(`/maintenance-windows/${created.body.id}/end`)).body.code).toBe(
      'maintenance_not_active',
    );
    expect((await new ApiClient(service.baseUrl).get(`/status-pages/public/${slug}`)).body.components[0]).toMatchObject(
      { status: 'major_outage', maintenance: null },
    );
    expect((await fail(muted)).status).toBe(200);
    await until('the alert after the window', () => alertsOf(muted.id).find((event) => event.type === 'monitor.down'));
    expect(alertsOf(muted.id).map((event) => event.type)).toEqual(['monitor.down']);
    expect(
      events()
        .filter((event) => event.type.startsWith('maintenance.'))
        .map((event) => event.type),
    ).toEqual(['maintenance.started', 'maintenance.ended']);
  }, 30_000);

  it('skips scheduled checks while a window pauses them', async () => {
    // Another workspace, whose window pauses all of its monitors (those created later too).
    const other = await issueKey(await createAccount(new ApiClient(service.baseUrl)), [
      'monitors:read',
      'monitors:write',
    ]);
    // Until a time on the clock: the window lasts whole minutes, so it ends at the first whole minute after that time.
    const endsAt = Date.now() + 10 * 60_000;
    const window = await other.client.post('/maintenance-windows', {
      name: 'Shop rebuild',
      effect: 'pause_checks',
      ends_at: new Date(endsAt).toISOString(),
    });
    expect(window.status).toBe(201);
    expect(window.body).toMatchObject({ monitor_ids: [], effect: 'pause_checks', duration_minutes: 10, active: true });
    expect(Date.parse(window.body.ends_at)).toBeGreaterThanOrEqual(endsAt);
    expect(Date.parse(window.body.ends_at) - Date.parse(window.body.starts_at)).toBe(10 * 60_000);
    expect(window.body.current.ends_at).toBe(window.body.ends_at);
    const create = async (client: ApiClient, name: string) =>
      (await client.post('/monitors', { name, url: `${site.origin}/`, interval_seconds: 30 })).body as Json;
    const paused = await create(other.client, 'Shop (paused by maintenance)');
    const control = await create(key.client, 'Shop (control)');
    const checks = async (client: ApiClient, id: string): Promise<Json[]> =>
      (await client.get(`/monitors/${id}/checks`)).body.data;
    // Both are due now (a first check is spread over the interval).
    const db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    await db.query('update monitors set next_check_at = now() where id = any($1)', [[paused.id, control.id]]);
    await db.end();
    await until(
      'the control check',
      async () => ((await checks(key.client, control.id)).length ? true : undefined),
      15_000,
    );
    await sleep(5000);
    expect(await checks(other.client, paused.id)).toEqual([]);
    // A check asked for by hand still runs.
    expect((await other.client.post(`/monitors/${paused.id}/check`)).status).toBe(200);
    expect(await checks(other.client, paused.id)).toHaveLength(1);
  }, 30_000);

  it('schedules recurring windows in a time zone, lists, changes and deletes them', async () => {
    const monitor = await job('Weekly report');
    // Every monitor (none named), until 04:00 Berlin time: two hours each Sunday.
    const weekly = await key.client.post('/maintenance-windows', {
      name: 'Sunday patching',
      monitor_ids: [],
      starts_at: '2026-03-01T01:00:00Z',
      ends_at: '2026-03-01T03:00:00Z',
      rrule: 'FREQ=WEEKLY;BYDAY=SU',
      timezone: 'Europe/Berlin',
    });
    expect(weekly.status).toBe(201);
    expect(weekly.body).toMatchObject({
      monitor_ids: [],
      starts_at: '2026-03-01T01:00:00.000Z',
      ends_at: '2026-03-01T03:00:00.000Z',
      duration_minutes: 120,
      rrule: 'FREQ=WEEKLY;BYDAY=SU',
    });
    expect(weekly.body.status).toMatch(/^(scheduled|active)$/);
    expect(weekly.body.active).toBe(weekly.body.status === 'active');
    // 02:00 in Berlin every Sunday, whatever the season.
    const next = new Date(weekly.body.next.starts_at);
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
    expect(berlin.format(next)).toBe('Sun 02:00');

    const listed = (await key.client.get('/maintenance-windows', { query: { per_page: 1 } })).body;
    expect(listed.data[0].id).toBe(weekly.body.id);
    expect(listed.pagination.per_page).toBe(1);

    // Moving the start keeps the duration.
    const changed = await key.client.patch(`/maintenance-windows/${weekly.body.id}`, {
      name: 'Patching, once',
      effect: 'pause_checks',
      monitor_ids: [monitor.id],
      rrule: null,
      starts_at: '2099-01-01T00:00:00Z',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'Patching, once',
      effect: 'pause_checks',
      monitor_ids: [monitor.id],
      rrule: null,
      ends_at: '2099-01-01T02:00:00.000Z',
      duration_minutes: 120,
      active: false,
      status: 'scheduled',
      next: { starts_at: '2099-01-01T00:00:00.000Z', ends_at: '2099-01-01T02:00:00.000Z' },
    });
    // ends_at alone counts from the window's start; an empty monitor_ids covers every monitor again.
    const shortened = await key.client.patch(`/maintenance-windows/${weekly.body.id}`, {
      ends_at: '2099-01-01T00:45:00Z',
      monitor_ids: [],
    });
    expect(shortened.status).toBe(200);
    expect(shortened.body).toMatchObject({
      monitor_ids: [],
      starts_at: '2099-01-01T00:00:00.000Z',
      ends_at: '2099-01-01T00:45:00.000Z',
      duration_minutes: 45,
      next: { starts_at: '2099-01-01T00:00:00.000Z', ends_at: '2099-01-01T00:45:00.000Z' },
    });
    const lengthened = await key.client.patch(`/maintenance-windows/${weekly.body.id}`, { duration_minutes: 90 });
    expect(lengthened.body).toMatchObject({ ends_at: '2099-01-01T01:30:00.000Z', duration_minutes: 90 });
    // A change that cannot be kept changes nothing.
    for (const [body, field] of [
      [{ ends_at: '2098-12-31T23:00:00Z' }, 'ends_at'],
      [{ starts_at: '2099-01-02T00:00:00Z', ends_at: '2099-01-01T00:45:00Z' }, 'ends_at'],
      [{ ends_at: '2099-01-01T01:00:00Z', duration_minutes: 60 }, 'ends_at'],
      [{ ends_at: '2099-01-08T00:00:01Z' }, 'ends_at'],
      [{ title: 'Old name' }, 'title'],
      [{ all_monitors: true }, 'all_monitors'],
    ] as const) {
      const refused = await key.client.patch(`/maintenance-windows/${weekly.body.id}`, body);
      expect([refused.status, refused.body.errors.map((error: Json) => error.field)]).toEqual([400, [field]]);
    }
    const unchanged = (await key.client.get(`/maintenance-windows/${weekly.body.id}`)).body;
    expect(unchanged).toMatchObject({ name: 'Patching, once', duration_minutes: 90, monitor_ids: [] });
    expect((await key.client.delete(`/maintenance-windows/${weekly.body.id}`)).status).toBe(204);
    expect((await key.client.get(`/maintenance-windows/${weekly.body.id}`)).status).toBe(404);
  });

  it('refuses settings it cannot keep, field by field, and changes nothing', async () => {
    const monitor = await job('Cleanup');
    const refused = async (body: Json, field: string) => {
      const answer = await key.client.post('/maintenance-windows', {
        name: 'Window',
        monitor_ids: [monitor.id],
        ...body,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.errors.map((error: Json) => error.field)).toContain(field);
    };
    const thirty = { duration_minutes: 30 };
    const before = (await key.client.get('/maintenance-windows')).body.pagination.total;
    await refused({ ...thirty, name: undefined }, 'name');
    await refused({ ...thirty, monitor_ids: ['00000000-0000-4000-8000-000000000000'] }, 'monitor_ids[0]');
    await refused({ ...thirty, rrule: 'FREQ=MINUTELY' }, 'rrule');
    await refused({ ...thirty, rrule: 'every sunday' }, 'rrule');
    await refused({ ...thirty, rrule: 'FREQ=DAILY;DTSTART=20260101T000000Z' }, 'rrule');
    await refused({ ...thirty, timezone: 'Mars/Olympus' }, 'timezone');
    await refused({ duration_minutes: 0 }, 'duration_minutes');
    await refused({ duration_minutes: 10_081 }, 'duration_minutes');
    await refused({ ...thirty, starts_at: 'tomorrow' }, 'starts_at');
    await refused({ ...thirty, effect: 'silence' }, 'effect');
    // Exactly one of duration_minutes and ends_at; ends_at after starts_at, at most a week later.
    await refused({}, 'duration_minutes');
    await refused({ ...thirty, ends_at: '2099-01-01T00:00:00Z' }, 'ends_at');
    await refused({ ends_at: 'tonight' }, 'ends_at');
    await refused({ ends_at: '2020-01-01T00:00:00Z' }, 'ends_at');
    await refused({ starts_at: '2099-01-01T00:00:00Z', ends_at: '2099-01-01T00:00:00Z' }, 'ends_at');
    await refused({ starts_at: '2099-01-01T00:00:00Z', ends_at: '2099-01-08T00:00:01Z' }, 'ends_at');
    // The names of before are unknown fields.
    await refused({ ...thirty, title: 'Window' }, 'title');
    await refused({ ...thirty, mode: 'pause_checks' }, 'mode');
    await refused({ ...thirty, all_monitors: true }, 'all_monitors');
    await refused({ ...thirty, recurrence: 'FREQ=DAILY' }, 'recurrence');
    expect((await key.client.get('/maintenance-windows')).body.pagination.total).toBe(before);
    expect((await key.client.get('/maintenance-windows/not-a-uuid')).status).toBe(400);
  });
});
