import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { Receiver, sleep, until } from './alerts-receiver';

type Json = Record<string, any>;

/**
 * Heartbeat (push) monitors (issue #29): a job pings a secret URL; a slot missed past its grace makes the monitor
 * down and alerts once, a late ping recovers it, `/fail` and exit codes (`?exit_code=` or `/{exit_code}`) are
 * recorded, `/start` times the run, and a wrong secret is the same 404 as an unknown one. Real scheduler, worker,
 * PostgreSQL and Redis.
 */
describe('heartbeat monitors', () => {
  let service: TestApp;
  let receiver: Receiver;
  let key: IssuedKey;
  let hookId = '';

  beforeAll(async () => {
    receiver = await new Receiver().start();
    // The scheduler looks for missed slots every 200 ms; each token may ping 6 times a minute.
    service = await startTestApp({ SCHEDULER_TICK_MS: '200', HEARTBEAT_PINGS_PER_MINUTE: '6' });
    const owner = await createAccount(new ApiClient(service.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
    await (
      await signInAsAdmin(new ApiClient(service.baseUrl))
    ).put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    const hook = await key.client.post('/alert-destinations', {
      name: 'Jobs',
      type: 'webhook',
      config: { url: `${receiver.origin}/jobs` },
    });
    hookId = hook.body.id;
  });
  afterAll(async () => {
    await service?.close();
    await receiver?.stop();
  });

  /** `url`: a monitor's absolute ping URL (with a suffix), or a path on the service. */
  const ping = (url: string, init: RequestInit = {}) => fetch(new URL(url, service.baseUrl), init);
  const monitor = async (id: string): Promise<Json> => (await key.client.get(`/monitors/${id}`)).body;
  const checks = async (id: string): Promise<Json[]> => (await key.client.get(`/monitors/${id}/checks`)).body.data;
  const events = (monitorId: string) =>
    receiver.requests
      .filter((request) => request.path === '/jobs')
      .map((request) => JSON.parse(request.body) as Json)
      .filter((event) => event.data.monitor.id === monitorId);

  async function heartbeatMonitor(name: string, settings: Json): Promise<Json> {
    const created = await key.client.post('/monitors', { name, mode: 'heartbeat', ...settings });
    expect(created.status).toBe(201);
    const rule = await key.client.post(`/monitors/${created.body.id}/rules`, {
      event: 'down',
      destination_ids: [hookId],
    });
    expect(rule.status).toBe(201);
    return created.body;
  }

  it('goes down once its cron slot and grace pass without a ping, alerts once, and a late ping recovers it', async () => {
    // Every 10 seconds, one second of grace: the first deadline is at most 16 s away (a ping may come 5 s early).
    const created = await heartbeatMonitor('Queue worker', { schedule: { cron: '*/10 * * * * *' }, grace_seconds: 1 });
    expect(created).toMatchObject({
      mode: 'heartbeat',
      url: null,
      status: 'pending',
      schedule: { cron: '*/10 * * * * *', timezone: 'UTC' },
      grace_seconds: 1,
      heartbeat: { last_ping_at: null, started_at: null },
    });
    // Absolute, on the origin the request came to (no PUBLIC_URL here): a job is given it as it is.
    expect(created.ping_url).toMatch(new RegExp(`^${service.baseUrl}/api/v1/ping/hb_[A-Za-z0-9_-]{32}$`));
    const due = Date.parse(created.heartbeat.next_ping_due_at);
    expect(due - Date.now()).toBeLessThanOrEqual(16_000);
    expect(new Date(due - 1000).getUTCSeconds() % 10).toBe(0);

    const down = await until(
      'the missed slot',
      async () => ((await monitor(created.id)).status === 'down' ? true : undefined),
      25_000,
    );
    expect(down).toBe(true);
    const [missed] = await checks(created.id);
    expect(missed).toMatchObject({ ok: false, failure: 'heartbeat_missed', trigger: 'scheduled' });
    expect(missed.message).toMatch(/^no ping yet; one was expected at .+ \(1 s of grace\)$/);
    await until('monitor.down', () => events(created.id).find((event) => event.type === 'monitor.down'));
    // Ten minutes of grace from now on: the slot after the late ping, 6 to 16 s away with one second, must not fall
    // due while a loaded machine is still checking what the ping did.
    expect((await key.client.patch(`/monitors/${created.id}`, { grace_seconds: 600 })).status).toBe(200);

    // Late, the job pings: up again, told once; the next deadline counts from this ping.
    const late = await ping(created.ping_url);
    expect(late.status).toBe(200);
    const receipt = (await late.json()) as Json;
    expect(Date.parse(receipt.received_at)).toBeLessThanOrEqual(Date.now());
    const after = await monitor(created.id);
    expect(after).toMatchObject({ status: 'up', heartbeat: { last_ping_at: receipt.received_at } });
    expect(Date.parse(after.heartbeat.next_ping_due_at)).toBeGreaterThan(Date.parse(receipt.received_at));
    await until('monitor.recovered', () => events(created.id).find((event) => event.type === 'monitor.recovered'));
    expect(events(created.id).map((event) => event.type)).toEqual(['monitor.down', 'monitor.recovered']);
    expect((await checks(created.id))[0]).toMatchObject({ ok: true, trigger: 'ping', failure: null });
    await key.client.patch(`/monitors/${created.id}`, { paused: true });
  }, 45_000);

  it('records /fail with its exit code and output, a non-zero exit code as a failure, and times /start to success', async () => {
    const created = await heartbeatMonitor('Nightly backup', { schedule: { interval_seconds: 86_400 } });
    const url = created.ping_url as string;

    expect((await ping(`${url}/start`)).status).toBe(200);
    expect((await monitor(created.id)).heartbeat.started_at).not.toBeNull();
    await sleep(300);
    expect((await ping(url, { method: 'POST', body: 'backed up 12 GB' })).status).toBe(200);
    const [success] = await checks(created.id);
    expect(success).toMatchObject({ ok: true, failure: null, message: null, trigger: 'ping' });
    expect(success.response_time_ms).toBeGreaterThanOrEqual(300);
    expect((await monitor(created.id)).heartbeat.started_at).toBeNull();

    const failed = await ping(`${url}/fail?exit_code=3`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'disk full\n',
    });
    expect(failed.status).toBe(200);
    expect((await checks(created.id))[0]).toMatchObject({
      ok: false,
      failure: 'heartbeat_failed',
      message: 'the job failed with exit code 3: disk full',
    });
    expect((await monitor(created.id)).status).toBe('down');
    await until('monitor.down', () => events(created.id).find((event) => event.type === 'monitor.down'));

    // A success ping with a non-zero exit code is a failure too, in the query or as the path's last segment.
    expect((await ping(`${url}?exit_code=1`)).status).toBe(200);
    expect((await checks(created.id))[0]).toMatchObject({ ok: false, message: 'the job failed with exit code 1' });
    expect((await ping(`${url}/0`)).status).toBe(200);
    expect((await checks(created.id))[0]).toMatchObject({ ok: true, failure: null, trigger: 'ping' });
    expect((await monitor(created.id)).status).toBe('up');
    // The sixth ping of the minute is the last one allowed; the seventh is refused, with when to retry.
    expect((await ping(`${url}/137`, { method: 'POST', body: 'killed' })).status).toBe(200);
    expect((await checks(created.id))[0]).toMatchObject({
      ok: false,
      failure: 'heartbeat_failed',
      message: 'the job failed with exit code 137: killed',
    });
    const limited = await ping(url);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('content-type')).toContain('application/problem+json');
  });

  it('answers a wrong or rotated secret with the same 404 as an unknown one, and refuses malformed input', async () => {
    const created = await heartbeatMonitor('Invoices', { schedule: { interval_seconds: 3600 }, grace_seconds: 600 });
    const old = created.ping_url as string;
    const unknown = await ping(`/api/v1/ping/hb_${'x'.repeat(32)}`);
    const rotated = await key.client.post(`/monitors/${created.id}/heartbeat/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.ping_url).not.toBe(old);
    expect(rotated.body.ping_url).toMatch(new RegExp(`^${service.baseUrl}/api/v1/ping/hb_`));
    const stale = await ping(old);
    expect([unknown.status, stale.status]).toEqual([404, 404]);
    const [unknownBody, staleBody] = [(await unknown.json()) as Json, (await stale.json()) as Json];
    expect({ ...staleBody, instance: null }).toEqual({ ...unknownBody, instance: null });
    expect(staleBody).toMatchObject({ code: 'not_found', detail: 'Heartbeat not found.' });
    expect((await ping(rotated.body.ping_url)).status).toBe(200);
    expect((await ping(`${old}/0`)).status).toBe(404);

    expect((await ping('/api/v1/ping/not-a-token')).status).toBe(400);
    expect((await ping(`${rotated.body.ping_url}?exit_code=256`)).status).toBe(400);
    expect((await ping(`${rotated.body.ping_url}/256`)).status).toBe(400);
    expect((await ping(`${rotated.body.ping_url}/done`)).status).toBe(400);
    const tooLarge = await ping(rotated.body.ping_url, { method: 'POST', body: 'x'.repeat(11 * 1024) });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as Json).detail).toBe('The request body is larger than 10 KiB.');
    const http = (await key.client.post('/monitors', { name: 'Site', url: 'http://127.0.0.1:9/' })).body;
    expect(http).toMatchObject({ schedule: null, grace_seconds: null, ping_url: null, heartbeat: null });
    expect((await key.client.post(`/monitors/${http.id}/heartbeat/rotate`)).body.code).toBe('not_a_heartbeat');
    expect((await key.client.post(`/monitors/${created.id}/check`)).body.code).toBe('no_page');
  });

  it('answers pings that arrive together each for its own monitor (read in batches), unknown ones 404', async () => {
    const monitors = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        heartbeatMonitor(`Batch ${index}`, { schedule: { interval_seconds: 3600 } }),
      ),
    );
    // One ping each (two of one monitor in the same millisecond would be one check: a result per instant).
    const pings = monitors.map((created) => created.ping_url as string);
    const unknown = Array.from({ length: 5 }, (_, index) => `/api/v1/ping/hb_${'x'.repeat(31)}${index}`);
    const answers = await Promise.all([...pings, ...unknown].map(async (url) => (await ping(url)).status));
    expect(answers).toEqual([...pings.map(() => 200), ...unknown.map(() => 404)]);
    for (const created of monitors) {
      const recorded = await checks(created.id);
      expect([created.name, recorded.map((check) => check.trigger)]).toEqual([created.name, ['ping']]);
      expect((await monitor(created.id)).status).toBe('up');
    }
  });

  it('validates heartbeat settings field by field, and keeps page fields off heartbeat monitors', async () => {
    const refused = async (body: Json, field: string) => {
      const answer = await key.client.post('/monitors', { name: 'Job', ...body });
      expect(answer.status).toBe(400);
      expect(answer.body.errors.map((error: Json) => error.field)).toContain(field);
    };
    await refused({ mode: 'heartbeat' }, 'schedule');
    await refused({ mode: 'heartbeat', schedule: {} }, 'schedule');
    await refused({ mode: 'heartbeat', schedule: 'daily' }, 'schedule');
    await refused({ mode: 'heartbeat', schedule: { interval_seconds: 60, cron: '0 3 * * *' } }, 'schedule');
    await refused({ mode: 'heartbeat', schedule: { interval_seconds: 60, timezone: 'UTC' } }, 'schedule.timezone');
    await refused({ mode: 'heartbeat', schedule: { interval_seconds: 60, every: 'day' } }, 'schedule.every');
    await refused({ mode: 'heartbeat', schedule: { cron: 'every night' } }, 'schedule.cron');
    await refused({ mode: 'heartbeat', schedule: { cron: '* * * * * *' } }, 'schedule.cron');
    await refused(
      { mode: 'heartbeat', schedule: { cron: '0 3 * * *', timezone: 'Mars/Olympus' } },
      'schedule.timezone',
    );
    await refused({ mode: 'heartbeat', schedule: { interval_seconds: 5 } }, 'schedule.interval_seconds');
    await refused({ mode: 'heartbeat', schedule: { interval_seconds: 60 }, grace_seconds: -1 }, 'grace_seconds');
    await refused({ mode: 'heartbeat', url: 'https://example.com/', schedule: { interval_seconds: 60 } }, 'url');
    await refused({ url: 'https://example.com/', schedule: { interval_seconds: 60 } }, 'schedule');
    await refused({ url: 'https://example.com/', grace_seconds: 60 }, 'grace_seconds');
    await refused({}, 'url');

    const nightly = await key.client.post('/monitors', {
      name: 'Nightly',
      mode: 'heartbeat',
      schedule: { cron: '0 3 * * *', timezone: 'Europe/Paris' },
      grace_seconds: 900,
    });
    expect(nightly.status).toBe(201);
    expect(nightly.body).toMatchObject({
      schedule: { cron: '0 3 * * *', timezone: 'Europe/Paris' },
      grace_seconds: 900,
    });
    // 03:00 in Paris, plus 15 minutes.
    const due = new Date(nightly.body.heartbeat.next_ping_due_at);
    const paris = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
    expect(paris.format(due)).toBe('03:15');
    expect(nightly.body.interval_seconds).toBe(86_400);
    const toHttp = await key.client.patch(`/monitors/${nightly.body.id}`, { mode: 'http' });
    expect(toHttp.body.errors[0].field).toBe('mode');
    const keyword = await key.client.patch(`/monitors/${nightly.body.id}`, { keyword: 'x' });
    expect(keyword.body.errors[0].field).toBe('keyword');
    // The same schedule sent again (as the form does) keeps the deadline; a heartbeat takes no regions.
    const same = await key.client.patch(`/monitors/${nightly.body.id}`, {
      name: 'Nightly (renamed)',
      schedule: { cron: '0 3 * * *', timezone: 'Europe/Paris' },
      grace_seconds: 900,
    });
    expect(same.body.heartbeat.next_ping_due_at).toBe(nightly.body.heartbeat.next_ping_due_at);
    const regions = await key.client.put(`/monitors/${nightly.body.id}/regions`, { regions: ['local'] });
    expect(regions.body.code).toBe('no_page');
    // A new grace alone keeps the schedule, and the same ping is expected: its deadline moves by the difference.
    const graceful = await key.client.patch(`/monitors/${nightly.body.id}`, { grace_seconds: 1800 });
    expect(graceful.body).toMatchObject({
      schedule: { cron: '0 3 * * *', timezone: 'Europe/Paris' },
      grace_seconds: 1800,
    });
    expect(Date.parse(graceful.body.heartbeat.next_ping_due_at) - due.getTime()).toBe(900_000);
    // A new schedule alone keeps the grace.
    const hourly = await key.client.patch(`/monitors/${nightly.body.id}`, { schedule: { interval_seconds: 3600 } });
    expect(hourly.body).toMatchObject({ schedule: { interval_seconds: 3600 }, grace_seconds: 1800 });
    expect(hourly.body.schedule).not.toHaveProperty('timezone');
  });
});
