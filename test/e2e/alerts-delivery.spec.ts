import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';
import { type Received, Receiver, until } from './alerts-receiver';
import { CHANGE_DETECTED_DATA } from '../support/events';

type Json = Record<string, any>;

/** A worker of four delivery slots, at most two per destination; a failed attempt is retried after about 1 s. */
const DELIVERY_SETTINGS = {
  DELIVERY_CONCURRENCY: '4',
  DELIVERY_DESTINATION_CONCURRENCY: '2',
  // Twenty retries about a second apart: room for the steps below on a busy machine before a delivery gives up.
  DELIVERY_RETRY_DELAYS_MS: Array(20).fill('1000').join(','),
};

/**
 * Delivery through a real worker (PostgreSQL, Redis, local receivers): destinations do not hold each other up, and a
 * monitor's alerts reach each destination in the order they happened.
 */
describe('deliveries: each destination on its own, each monitor in order', () => {
  let service: TestApp;
  let site: TestSite;
  let receiver: Receiver;
  let owner: Account;
  let key: IssuedKey;

  beforeAll(async () => {
    site = await new TestSite().start();
    receiver = await new Receiver().start();
    service = await startTestApp(DELIVERY_SETTINGS);
    owner = await createAccount(new ApiClient(service.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write', 'webhooks:read']);
    const admin = await signInAsAdmin(new ApiClient(service.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
  });
  afterAll(async () => {
    await service.close();
    await site.stop();
    await receiver.stop();
  });

  async function webhook(path: string, events: string[] = []): Promise<string> {
    const created = await key.client.post('/alert-destinations', {
      name: path,
      type: 'webhook',
      config: { url: `${receiver.origin}${path}` },
      events,
    });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }

  /** What a recorder's transaction leaves: change events in the outbox, committed. */
  async function commitChangeEvents(count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => randomUUID());
    const database = new Client({ connectionString: service.config.databaseUrl });
    await database.connect();
    try {
      await database.query(
        `insert into events (id, workspace_id, type, data, destination_ids, created_at)
         select id, $2, 'change.detected', $3, '{}', now() from unnest($1::uuid[]) id`,
        [ids, owner.workspaceId, CHANGE_DETECTED_DATA],
      );
    } finally {
      await database.end();
    }
    return ids;
  }

  const webhookIds = (requests: Received[]) => new Set(requests.map((request) => request.headers['webhook-id']));

  it('a receiver that never answers and one that always fails hold up no other destination', async () => {
    receiver.answerWith('/silent', () => 'hold');
    receiver.answerWith('/failing', () => 500);
    await Promise.all([
      webhook('/silent', ['change.detected']),
      webhook('/failing', ['change.detected']),
      webhook('/healthy', ['change.detected']),
    ]);
    const first = await commitChangeEvents(4);
    await until('the silent receiver to sit on its share of the slots', () =>
      receiver.openAt('/silent') === 2 ? true : undefined,
    );

    // With two of the worker's four slots held by the silent receiver, the rest still reaches the healthy one.
    const events = [...first, ...(await commitChangeEvents(12))];
    await until('every event at the healthy receiver', () =>
      webhookIds(receiver.delivered('/healthy')).size === events.length ? true : undefined,
    );
    expect([...webhookIds(receiver.delivered('/healthy'))].sort()).toEqual([...events].sort());
    expect(receiver.delivered('/silent')).toEqual([]);
    // Never more than a destination's share of the slots, however long its backlog.
    expect(receiver.mostOpenAt('/silent')).toBe(2);
    expect(receiver.mostOpenAt('/failing')).toBeLessThanOrEqual(2);

    receiver.answerWith('/silent', () => 200);
    receiver.release('/silent');
    await until(
      'every event at the receiver that was silent',
      () => (webhookIds(receiver.delivered('/silent')).size === events.length ? true : undefined),
      60_000,
    );
    expect(receiver.mostOpenAt('/silent')).toBeLessThanOrEqual(2);
  });

  it('a recovery waits while the down alert it ends is retried; other monitors’ alerts go by meanwhile', async () => {
    const hook = await webhook('/ordered');
    const monitor = async (path: string) => {
      site.set(path, page());
      const created = await key.client.post('/monitors', { name: path, url: `${site.origin}${path}` });
      const rule = await key.client.post(`/monitors/${created.body.id}/rules`, {
        event: 'down',
        destination_ids: [hook],
      });
      expect(rule.status).toBe(201);
      return created.body.id as string;
    };
    const check = async (id: string) => expect((await key.client.post(`/monitors/${id}/check`)).status).toBe(200);
    const about = (request: Received) => JSON.parse(request.body) as Json;
    const sent = (monitorId: string) =>
      receiver.at('/ordered').filter((request) => about(request).data.monitor.id === monitorId);
    const stuck = await monitor('/stuck');
    const other = await monitor('/other');
    let refusing = true;
    receiver.answerWith('/ordered', (request) => (refusing && about(request).data.monitor.id === stuck ? 503 : 200));

    site.set('/stuck', { status: 500, html: 'down' });
    await check(stuck);
    await until('the first attempt of the down alert', () => (sent(stuck).length ? true : undefined));
    site.set('/stuck', page());
    await check(stuck);
    const recovery = await until('the recovery’s delivery', async () => {
      const log = await key.client.get('/webhook-deliveries', {
        query: { destination_id: hook, event_type: 'monitor.recovered' },
      });
      return log.body.data[0] as Json | undefined;
    });
    // The down alert is attempted again after the recovery exists: the recovery waited, it was not just late.
    const attemptsSoFar = sent(stuck).length;
    await until('another attempt of the down alert', () => (sent(stuck).length > attemptsSoFar ? true : undefined));

    site.set('/other', { status: 500, html: 'down' });
    await check(other);
    site.set('/other', page());
    await check(other);
    await until('the other monitor’s down and recovery', () => (sent(other).length === 2 ? true : undefined));
    expect(sent(other).map((request) => [about(request).type, request.status])).toEqual([
      ['monitor.down', 200],
      ['monitor.recovered', 200],
    ]);
    expect(sent(stuck).every((request) => about(request).type === 'monitor.down')).toBe(true);
    const waiting = (await key.client.get(`/webhook-deliveries/${recovery.id}`)).body;
    expect(waiting).toMatchObject({ status: 'pending', attempts: [] });

    refusing = false;
    await until('the recovery', () =>
      sent(stuck).some((request) => about(request).type === 'monitor.recovered') ? true : undefined,
    );
    const answered = sent(stuck).map((request) => [about(request).type, request.status]);
    expect(answered.at(-2)).toEqual(['monitor.down', 200]);
    expect(answered.at(-1)).toEqual(['monitor.recovered', 200]);
    expect(answered.slice(0, -2).every(([type, status]) => type === 'monitor.down' && status === 503)).toBe(true);
  });
});
