import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { IdempotencyStore } from '../../src/common/idempotency/idempotency.store';
import { loadContract } from '../../src/openapi/contract';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

type Json = Record<string, any>;

const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });

/** Idempotency-Key on creates (DESIGN §2), over HTTP against the real PostgreSQL and Redis. */
describe('Idempotency-Key: a create retried with the same key answers the first response again', () => {
  let service: TestApp;
  let api: ApiClient;
  let alice: Account;
  let bob: Account;
  let aliceKey: IssuedKey;
  let bobKey: IssuedKey;
  let db: Client;

  beforeAll(async () => {
    // No workers or scheduler: nothing but these requests touches the monitors table.
    service = await startTestApp({ ROLE: 'api' });
    api = new ApiClient(service.baseUrl);
    [alice, bob] = [await createAccount(api), await createAccount(api)];
    aliceKey = await issueKey(alice, ['monitors:read', 'monitors:write', 'users:read', 'users:write']);
    bobKey = await issueKey(bob, ['monitors:read', 'monitors:write']);
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await service.close();
  });

  const monitorBody = (name: string) => ({ name, url: 'https://example.com/pricing', interval_seconds: 300 });

  async function monitorsNamed(client: ApiClient, name: string): Promise<Json[]> {
    const listed = await client.get('/monitors', { query: { per_page: 500 } });
    expect(listed.status).toBe(200);
    return (listed.body.data as Json[]).filter((monitor) => monitor.name === name);
  }

  it('the same key and body answer the same status, body and Location, and create one monitor', async () => {
    const key = randomUUID();
    const name = `same-${key}`;
    const first = await aliceKey.client.post('/monitors', monitorBody(name), withKey(key));
    expect(first.status).toBe(201);
    // The same body with its fields in another order is the same request.
    const reordered = { interval_seconds: 300, url: 'https://example.com/pricing', name };
    const again = await aliceKey.client.post('/monitors', reordered, withKey(key));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await monitorsNamed(aliceKey.client, name)).toHaveLength(1);
  });

  it('the same key with another body is a 422 idempotency_key_reused, and nothing is created', async () => {
    const key = randomUUID();
    const first = await aliceKey.client.post('/monitors', monitorBody(`first-${key}`), withKey(key));
    expect(first.status).toBe(201);
    const other = await aliceKey.client.post('/monitors', monitorBody(`other-${key}`), withKey(key));
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(await monitorsNamed(aliceKey.client, `other-${key}`)).toHaveLength(0);
  });

  it('a repeat while the first request still runs is a 409 idempotency_key_in_flight; then it replays', async () => {
    const key = randomUUID();
    const name = `racing-${key}`;
    // Hold the monitors table so the first request waits inside its handler, after it has claimed the key.
    const holder = new Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table monitors in access exclusive mode');
      const firstPromise = aliceKey.client.post('/monitors', monitorBody(name), withKey(key));
      for (let waited = 0; ; waited += 20) {
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from idempotency_keys where state = 'in_flight'`,
        );
        if (rows[0].n > 0) break;
        if (waited > 10_000) throw new Error('the first request never claimed its key');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const during = await aliceKey.client.post('/monitors', monitorBody(name), withKey(key));
      expect(during.status).toBe(409);
      expect(during.body).toMatchObject({ status: 409, code: 'idempotency_key_in_flight' });
      await holder.query('commit');
      const first = await firstPromise;
      expect(first.status).toBe(201);
      const after = await aliceKey.client.post('/monitors', monitorBody(name), withKey(key));
      expect(after.status).toBe(201);
      expect(after.body).toEqual(first.body);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await holder.end();
    }
    expect(await monitorsNamed(aliceKey.client, name)).toHaveLength(1);
  });

  it("another workspace's use of the same key is independent", async () => {
    const key = randomUUID();
    const name = `shared-key-${key}`;
    const byAlice = await aliceKey.client.post('/monitors', monitorBody(name), withKey(key));
    const byBob = await bobKey.client.post('/monitors', monitorBody(name), withKey(key));
    expect(byAlice.status).toBe(201);
    expect(byBob.status).toBe(201);
    expect(byBob.body.id).not.toBe(byAlice.body.id);
    expect(await monitorsNamed(bobKey.client, name)).toHaveLength(1);

    // One person's session in two workspaces: two workspaces, two keys' worth of monitors.
    const team = await alice.session.post('/workspaces', { name: `team ${key}` });
    expect(team.status).toBe(201);
    const personal = await alice.session.post('/monitors', monitorBody(`session-${key}`), withKey(key));
    const inTeam = await alice.session
      .inWorkspace(team.body.id)
      .post('/monitors', monitorBody(`session-${key}`), withKey(key));
    expect(personal.status).toBe(201);
    expect(inTeam.status).toBe(201);
    expect(inTeam.body.id).not.toBe(personal.body.id);
  });

  it('an error answer is not kept: a corrected retry with the same key creates the monitor', async () => {
    const key = randomUUID();
    const refused = await aliceKey.client.post('/monitors', { name: `bad-${key}`, url: 'not a url' }, withKey(key));
    expect(refused.status).toBe(400);
    const corrected = await aliceKey.client.post('/monitors', monitorBody(`bad-${key}`), withKey(key));
    expect(corrected.status).toBe(201);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a tab', 'a\tb'],
    ['a non-ASCII character', 'clé'],
  ])('a key that is %s is a 400 naming the header, and nothing is created', async (_what, value) => {
    const name = `invalid-${randomUUID()}`;
    const refused = await aliceKey.client.post('/monitors', monitorBody(name), withKey(value));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'Idempotency-Key' }] });
    expect(await monitorsNamed(aliceKey.client, name)).toHaveLength(0);
  });

  it('a key of 255 printable characters is accepted', async () => {
    const created = await aliceKey.client.post(
      '/monitors',
      monitorBody(`long-${randomUUID()}`),
      withKey('~ '.repeat(127) + 'x'),
    );
    expect(created.status).toBe(201);
  });

  it('a replayed API key shows its secret again, yet the table holds neither the key nor the secret readably', async () => {
    const key = `retry-${randomUUID()}`;
    const body = { name: `ci ${key}`, scopes: ['monitors:read'] };
    const first = await aliceKey.client.post('/users/me/api-keys', body, withKey(key));
    expect(first.status).toBe(201);
    const again = await aliceKey.client.post('/users/me/api-keys', body, withKey(key));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const listed = await aliceKey.client.get('/users/me/api-keys', { query: { per_page: 100 } });
    expect((listed.body.data as Json[]).filter((item) => item.name === body.name)).toHaveLength(1);

    const { rows } = await db.query<Record<string, unknown>>('select * from idempotency_keys');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(first.body.secret);
    expect(stored).not.toContain(key);
  });

  it('a session creating a workspace retries safely (no workspace acts for the key)', async () => {
    const key = randomUUID();
    const first = await bob.session.post('/workspaces', { name: `retry ${key}` }, withKey(key));
    const again = await bob.session.post('/workspaces', { name: `retry ${key}` }, withKey(key));
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const listed = await bob.session.get('/workspaces', { query: { per_page: 100 } });
    expect((listed.body.data as Json[]).filter((item) => item.name === `retry ${key}`)).toHaveLength(1);
  });

  it('keys older than 24 hours are pruned and no longer replay', async () => {
    const key = randomUUID();
    const first = await aliceKey.client.post('/monitors', monitorBody(`old-${key}`), withKey(key));
    expect(first.status).toBe(201);
    await db.query(`update idempotency_keys set created_at = now() - interval '25 hours'`);
    // Past 24 hours the key is free again even before the pruner has run.
    const later = await aliceKey.client.post('/monitors', monitorBody(`old-${key}`), withKey(key));
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    await db.query(`update idempotency_keys set created_at = now() - interval '25 hours'`);
    expect(await service.app.get(IdempotencyStore).prune()).toBeGreaterThan(0);
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from idempotency_keys');
    expect(rows[0].n).toBe(0);
  });
});

describe('every POST that creates something accepts Idempotency-Key', () => {
  it('each POST answering 201 or 202 in openapi.yaml names the shared IdempotencyKey parameter and 409/422', () => {
    const document = loadContract().document as Json;
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Json)) {
      const operation = (item as Json).post as Json | undefined;
      if (!operation || !('201' in operation.responses || '202' in operation.responses)) continue;
      // A key is kept per credential: an anonymous caller has none to keep it under (a replay could answer someone
      // else). Public creates are idempotent by themselves (subscribing twice is one subscription).
      if (Array.isArray(operation.security) && operation.security.length === 0) continue;
      const parameters = ((operation.parameters ?? []) as Json[]).map((parameter) => parameter.$ref as string);
      if (
        !parameters.includes('#/components/parameters/IdempotencyKey') ||
        !('409' in operation.responses) ||
        !('422' in operation.responses)
      ) {
        missing.push(`POST ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
