import { randomBytes } from 'node:crypto';
import { sign } from 'jsonwebtoken';
import { Client } from 'pg';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, signIn } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('authentication and scopes', () => {
  let service: TestApp;
  let api: ApiClient;
  let person: Account;

  beforeAll(async () => {
    service = await startTestApp();
    api = new ApiClient(service.baseUrl);
    person = await createAccount(api);
  });
  afterAll(() => service.close());

  function expectUnauthenticated(response: { status: number; body: any; headers: Headers }): void {
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      status: 401,
      code: 'unauthenticated',
      type: 'urn:vigil:problem:unauthenticated',
    });
  }

  it('refuses a request without credentials with 401', async () => {
    expectUnauthenticated(await api.get('/users/me'));
  });

  it('refuses unknown and malformed keys with 401', async () => {
    const wellFormedButUnknown = `vgl_${'A'.repeat(43)}`;
    expectUnauthenticated(await api.withApiKey(wellFormedButUnknown).get('/users/me'));
    expectUnauthenticated(await api.withApiKey('hello').get('/users/me'));
    expectUnauthenticated(await api.withApiKey("' or 1=1 --").get('/users/me'));
  });

  it('refuses an expired key with 401', async () => {
    // Four seconds of life, enough for the key's creation and first use on a loaded machine; then a wait for the
    // expiry itself, not for a fixed time.
    const expiresAt = new Date(Date.now() + 4000);
    const key = await issueKey(person, ['users:read'], { expires_at: expiresAt.toISOString() });
    expect((await key.client.get('/users/me')).status).toBe(200);
    await sleep(Math.max(0, expiresAt.getTime() - Date.now()) + 100);
    expectUnauthenticated(await key.client.get('/users/me'));
  });

  it('refuses a key revoked a moment ago, on its very next request', async () => {
    const key = await issueKey(person, ['users:read']);
    expect((await key.client.get('/users/me')).status).toBe(200);
    const revoked = await person.session.delete(`/users/me/api-keys/${key.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expectUnauthenticated(await key.client.get('/users/me'));
  });

  it('refuses forged, expired and garbage session tokens with 401', async () => {
    const forged = sign({ sub: person.id }, 'some other secret that is long enough', { algorithm: 'HS256' });
    const expired = sign({ sub: person.id, exp: Math.floor(Date.now() / 1000) - 10 }, process.env.JWT_SECRET!, {
      algorithm: 'HS256',
    });
    for (const token of [forged, expired, 'garbage'])
      expectUnauthenticated(await api.withToken(token).get('/users/me'));
  });

  it('refuses a wrong password or an unknown email with the same 401', async () => {
    const wrong = await api.post('/auth/login', { email: person.email, password: 'not the password' });
    const unknown = await api.post('/auth/login', { email: 'nobody@example.com', password: 'whatever' });
    expectUnauthenticated(wrong);
    expectUnauthenticated(unknown);
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  it('answers 403 naming required_scope when a key lacks the scope', async () => {
    const monitorsOnly = await issueKey(person, ['monitors:read']);
    const readOnly = await issueKey(person, ['users:read']);

    const me = await monitorsOnly.client.get('/users/me');
    expect(me.status).toBe(403);
    expect(me.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'users:read' });

    const create = await readOnly.client.post('/users/me/api-keys', { name: 'x', scopes: ['users:read'] });
    expect(create.status).toBe(403);
    expect(create.body.required_scope).toBe('users:write');
  });

  it('keeps administration to signed-in administrators: keys and members get 403', async () => {
    const everything = await issueKey(person, ['users:read', 'users:write', 'monitors:read', 'monitors:write']);
    const byKey = await everything.client.get('/admin/users');
    expect(byKey.status).toBe(403);
    expect(byKey.body.required_scope).toBe('admin');

    const byMember = await person.session.get('/admin/users');
    expect(byMember.status).toBe(403);
    expect(byMember.body.required_scope).toBe('admin');
  });

  it('shows a secret exactly once: never in lists, never stored', async () => {
    const key = await issueKey(person, ['users:read']);
    expect(key.secret).toMatch(/^vgl_[0-9A-Za-z]{43}$/);

    const listed = await person.session.get('/users/me/api-keys', { query: { per_page: 100 } });
    expect(listed.status).toBe(200);
    const entry = listed.body.data.find((item: { id: string }) => item.id === key.id);
    expect(entry).toBeDefined();
    expect(entry).not.toHaveProperty('secret');
    expect(key.secret.slice(4)).toContain(entry.prefix);
    expect(JSON.stringify(listed.body)).not.toContain(key.secret);

    const database = new Client({ connectionString: process.env.DATABASE_URL });
    await database.connect();
    try {
      const row = await database.query('select * from api_keys where id = $1', [key.id]);
      expect(JSON.stringify(row.rows[0])).not.toContain(key.secret);
    } finally {
      await database.end();
    }
  });

  it('regenerating with a key rotates that key: the old secret stops working at once', async () => {
    const key = await issueKey(person, ['users:read', 'users:write']);
    const rotated = await key.client.post('/users/me/api-key');
    expect(rotated.status).toBe(201);
    expect(rotated.body.secret).not.toBe(key.secret);
    expect(rotated.body.id).not.toBe(key.id);
    expect(rotated.body.scopes.sort()).toEqual(['users:read', 'users:write']);

    expectUnauthenticated(await key.client.get('/users/me'));
    expect((await api.withApiKey(rotated.body.secret).get('/users/me')).status).toBe(200);
  });

  it('regenerating with a session names the key; a revoked key cannot be regenerated', async () => {
    const key = await issueKey(person, ['users:read']);
    const withoutKeyId = await person.session.post('/users/me/api-key', {});
    expect(withoutKeyId.status).toBe(400);
    expect(withoutKeyId.body.errors).toEqual([expect.objectContaining({ field: 'key_id' })]);

    const regenerated = await person.session.post('/users/me/api-key', { key_id: key.id });
    expect(regenerated.status).toBe(201);
    expectUnauthenticated(await key.client.get('/users/me'));

    const again = await person.session.post('/users/me/api-key', { key_id: key.id });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('key_revoked');
  });

  it('a key cannot issue a key with more scopes, or a longer life, than it has', async () => {
    const limited = await issueKey(person, ['users:read', 'users:write'], {
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const broader = await limited.client.post('/users/me/api-keys', {
      name: 'x',
      scopes: ['users:read', 'monitors:write'],
    });
    expect(broader.status).toBe(403);
    expect(broader.body.required_scope).toBe('monitors:write');
    const longer = await limited.client.post('/users/me/api-keys', { name: 'x', scopes: ['users:read'] });
    expect(longer.status).toBe(400);
    expect(longer.body.errors[0].field).toBe('expires_at');
    const narrower = await limited.client.post('/users/me/api-keys', {
      name: 'x',
      scopes: ['users:read'],
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(narrower.status).toBe(201);
  });

  it('a key can rotate itself but not another key, which would hand over its secret', async () => {
    const writer = await issueKey(person, ['users:write']);
    const broad = await issueKey(person, ['monitors:read', 'monitors:write', 'users:read']);
    const attempt = await writer.client.post('/users/me/api-key', { key_id: broad.id });
    expect(attempt.status).toBe(404);
    expect((await broad.client.get('/users/me')).status).toBe(200);
    const self = await writer.client.post('/users/me/api-key', { key_id: writer.id });
    expect(self.status).toBe(201);
  });

  it("answers 404 for another person's key, never touching it", async () => {
    const other = await createAccount(api);
    const theirs = await issueKey(other, ['users:read']);
    expect((await person.session.delete(`/users/me/api-keys/${theirs.id}`)).status).toBe(404);
    expect((await person.session.post('/users/me/api-key', { key_id: theirs.id })).status).toBe(404);
    expect((await theirs.client.get('/users/me')).status).toBe(200);
  });

  it('lets an administrator add people, and refuses a duplicate email with 409', async () => {
    const admin = await signIn(api, process.env.ADMIN_EMAIL!, process.env.ADMIN_PASSWORD!);
    const email = `new-${randomBytes(3).toString('hex')}@example.com`;
    const created = await admin.post('/admin/users', { email, password: 'a long enough password', role: 'member' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, role: 'member' });
    const duplicate = await admin.post('/admin/users', {
      email: email.toUpperCase(),
      password: 'a long enough password',
      role: 'admin',
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('email_taken');
  });
});
