import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { Receiver, sleep, until } from './alerts-receiver';

type Json = Record<string, any>;

/**
 * Dependencies (issue #29): a monitor names a parent; while the parent is down the child's new alerts are held (not
 * sent, listed on the parent), its checks go on, and once the parent is up the child's own state is told. Heartbeat
 * monitors make the outages exact: a `/fail` ping is a failed check at once. Real worker, PostgreSQL and Redis.
 */
describe('monitor dependencies', () => {
  let service: TestApp;
  let receiver: Receiver;
  let key: IssuedKey;
  let hookId = '';

  beforeAll(async () => {
    receiver = await new Receiver().start();
    service = await startTestApp();
    const owner = await createAccount(new ApiClient(service.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
    await (
      await signInAsAdmin(new ApiClient(service.baseUrl))
    ).put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    hookId = (
      await key.client.post('/alert-destinations', {
        name: 'On call',
        type: 'webhook',
        config: { url: `${receiver.origin}/hook` },
      })
    ).body.id;
  });
  afterAll(async () => {
    await service?.close();
    await receiver?.stop();
  });

  const alertsOf = (monitorId: string) =>
    receiver.requests
      .filter((request) => request.path === '/hook')
      .map((request) => JSON.parse(request.body) as Json)
      .filter((event) => event.data.monitor?.id === monitorId)
      .map((event) => event.type as string);
  const ping = (monitor: Json, path = '') => fetch(`${monitor.ping_url}${path}`, { method: 'POST' });

  async function job(name: string, parentId?: string): Promise<Json> {
    const created = await key.client.post('/monitors', {
      name,
      mode: 'heartbeat',
      schedule: { interval_seconds: 86_400 },
      ...(parentId ? { parent_id: parentId } : {}),
    });
    expect(created.status).toBe(201);
    expect(
      (await key.client.post(`/monitors/${created.body.id}/rules`, { event: 'down', destination_ids: [hookId] }))
        .status,
    ).toBe(201);
    return created.body;
  }

  it('holds the alerts of a child of a down parent, lists them on the parent, then tells the child’s own state', async () => {
    const parent = await job('Database');
    const child = await job('Checkout API', parent.id);
    expect(child.parent_id).toBe(parent.id);

    expect((await ping(parent, '/fail')).status).toBe(200);
    await until('the parent’s alert', () => (alertsOf(parent.id).includes('monitor.down') ? true : undefined));
    expect((await ping(child, '/fail')).status).toBe(200);
    expect((await ping(child, '/fail')).status).toBe(200);
    await sleep(1500);
    expect(alertsOf(child.id)).toEqual([]);
    expect((await key.client.get(`/monitors/${child.id}`)).body.status).toBe('down');
    const held = (await key.client.get(`/monitors/${parent.id}/held-alerts`)).body;
    expect(held.pagination.total).toBe(1);
    expect(held.data[0]).toMatchObject({
      monitor_id: child.id,
      monitor_name: 'Checkout API',
      parent_id: parent.id,
      message: 'the job failed',
    });
    expect((await key.client.get(`/monitors/${child.id}/held-alerts`)).body.data).toEqual([]);

    // The parent recovers; the child, still failing, now alerts on its own.
    expect((await ping(parent)).status).toBe(200);
    await until('the parent’s recovery', () => (alertsOf(parent.id).includes('monitor.recovered') ? true : undefined));
    expect(alertsOf(child.id)).toEqual([]);
    expect((await ping(child, '/fail')).status).toBe(200);
    await until('the child’s own alert', () => (alertsOf(child.id).includes('monitor.down') ? true : undefined));
    expect((await ping(child)).status).toBe(200);
    await until('the child’s recovery', () => (alertsOf(child.id).includes('monitor.recovered') ? true : undefined));
    expect(alertsOf(child.id)).toEqual(['monitor.down', 'monitor.recovered']);
  });

  it('tells nothing for a child that recovers while its parent is still down', async () => {
    const parent = await job('Queue');
    const child = await job('Mailer', parent.id);
    await ping(parent, '/fail');
    await until('the parent’s alert', () => (alertsOf(parent.id).includes('monitor.down') ? true : undefined));
    await ping(child, '/fail');
    await ping(child);
    await sleep(1000);
    expect((await key.client.get(`/monitors/${child.id}`)).body.status).toBe('up');
    expect(alertsOf(child.id)).toEqual([]);
  });

  it('refuses a parent that is the monitor itself, depends on it, or is not the workspace’s; null removes it', async () => {
    const top = await job('Edge');
    const middle = await job('App', top.id);
    const bottom = await job('Worker', middle.id);
    const refused = async (id: string, parentId: string, message: RegExp) => {
      const answer = await key.client.patch(`/monitors/${id}`, { parent_id: parentId });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([{ field: 'parent_id', message: expect.stringMatching(message) }]);
    };
    await refused(top.id, top.id, /another monitor/);
    await refused(top.id, bottom.id, /depends on this monitor/);
    await refused(top.id, '00000000-0000-4000-8000-000000000000', /no such monitor/);
    const stranger = await issueKey(await createAccount(new ApiClient(service.baseUrl)), ['monitors:write']);
    const theirs = await stranger.client.post('/monitors', {
      name: 'Theirs',
      mode: 'heartbeat',
      schedule: { interval_seconds: 3600 },
    });
    await refused(top.id, theirs.body.id, /no such monitor/);
    expect(
      (await key.client.post('/monitors', { name: 'X', url: 'https://example.com/', parent_id: 'nope' })).status,
    ).toBe(400);
    expect((await key.client.get(`/monitors/${top.id}`)).body.parent_id).toBeNull();

    const removed = await key.client.patch(`/monitors/${bottom.id}`, { parent_id: null });
    expect(removed.body.parent_id).toBeNull();
    // Deleting a parent leaves its children without one.
    expect((await key.client.delete(`/monitors/${top.id}`)).status).toBe(204);
    expect((await key.client.get(`/monitors/${middle.id}`)).body.parent_id).toBeNull();
  });

  it('two monitors named each other’s parent at once: one change is taken, the other refused, never a cycle', async () => {
    const plain = async (name: string) =>
      (await key.client.post('/monitors', { name, mode: 'heartbeat', schedule: { interval_seconds: 86_400 } })).body
        .id as string;
    const first = await plain('Primary');
    const second = await plain('Replica');
    // Each round's answers and how many of the two have a parent after it; all rounds run before the verdict.
    const rounds: string[] = [];
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all([
        key.client.patch(`/monitors/${first}`, { parent_id: second }),
        key.client.patch(`/monitors/${second}`, { parent_id: first }),
      ]);
      const parents = await Promise.all(
        [first, second].map(async (id) => (await key.client.get(`/monitors/${id}`)).body.parent_id as string | null),
      );
      const statuses = answers.map((answer) => answer.status).sort((a, b) => a - b);
      rounds.push(`${statuses.join(' and ')}, ${parents.filter((parent) => parent !== null).length} with a parent`);
      for (const id of [first, second]) {
        expect((await key.client.patch(`/monitors/${id}`, { parent_id: null })).status).toBe(200);
      }
    }
    expect(rounds).toEqual(Array.from({ length: 20 }, () => '200 and 400, 1 with a parent'));
  });
});
