import { ApiClient } from '../support/api-client';
import { type Account, createAccount } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

describe('bad input gets a clear 4xx problem and changes nothing', () => {
  let service: TestApp;
  let api: ApiClient;
  let person: Account;

  beforeAll(async () => {
    service = await startTestApp();
    api = new ApiClient(service.baseUrl);
    person = await createAccount(api);
  });
  afterAll(() => service.close());

  async function keyCount(): Promise<number> {
    return (await person.session.get('/users/me/api-keys')).body.pagination.total;
  }

  /** Sends the body, expects a validation problem naming `field`, and checks no key was created. */
  async function expectRefused(body: { json?: unknown; raw?: string }, field: string): Promise<void> {
    const before = await keyCount();
    const response = await person.session.request('POST', '/users/me/api-keys', {
      body: body.json,
      rawBody: body.raw,
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(JSON.stringify(response.body)).not.toMatch(/at \w+ \(|node_modules|stack/i);
    expect(await keyCount()).toBe(before);
  }

  it('malformed JSON', async () => {
    await expectRefused({ raw: '{"name": "ci", "scopes": [' }, 'body');
  });

  it('a body that is not an object', async () => {
    await expectRefused({ raw: '[]' }, 'body');
    await expectRefused({ raw: '"just a string"' }, 'body');
  });

  it('wrong types', async () => {
    await expectRefused({ json: { name: 5, scopes: ['users:read'] } }, 'name');
    await expectRefused({ json: { name: 'ci', scopes: 'users:read' } }, 'scopes');
    await expectRefused({ json: { name: 'ci', scopes: ['users:read'], expires_at: 'tomorrow' } }, 'expires_at');
  });

  it('unknown fields', async () => {
    await expectRefused({ json: { name: 'ci', scopes: ['users:read'], is_admin: true } }, 'is_admin');
  });

  it('values out of range: empty, too long, unknown scope, repeated scope, expiry in the past', async () => {
    await expectRefused({ json: { name: '', scopes: ['users:read'] } }, 'name');
    await expectRefused({ json: { name: 'x'.repeat(101), scopes: ['users:read'] } }, 'name');
    await expectRefused({ json: { name: 'ci', scopes: ['users:admin'] } }, 'scopes');
    await expectRefused({ json: { name: 'ci', scopes: [] } }, 'scopes');
    await expectRefused({ json: { name: 'ci', scopes: ['users:read', 'users:read'] } }, 'scopes');
    await expectRefused(
      { json: { name: 'ci', scopes: ['users:read'], expires_at: '2001-01-01T00:00:00Z' } },
      'expires_at',
    );
  });

  it('SQL-looking strings where they do not belong', async () => {
    await expectRefused({ json: { name: 'ci', scopes: ["users:read'; drop table api_keys; --"] } }, 'scopes');
    const byId = await person.session.delete(`/users/me/api-keys/${encodeURIComponent("1' or '1'='1")}`);
    expect(byId.status).toBe(400);
    expect(byId.body.errors).toEqual([expect.objectContaining({ field: 'id' })]);
    const byQuery = await person.session.get('/users/me/api-keys', { query: { per_page: '1; drop table users' } });
    expect(byQuery.status).toBe(400);
    expect(byQuery.body.errors).toEqual([expect.objectContaining({ field: 'per_page' })]);
  });

  it('SQL-looking text where text belongs is stored verbatim, as data', async () => {
    const name = "Robert'); DROP TABLE api_keys;--";
    const created = await person.session.post('/users/me/api-keys', { name, scopes: ['users:read'] });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe(name);
    expect((await person.session.get('/users/me/api-keys')).body.data[0].name).toBe(name);
  });

  it('text that is not well-formed Unicode, or holds NUL, is refused; real Unicode round-trips', async () => {
    await expectRefused({ raw: '{"name": "\\ud800 lone surrogate", "scopes": ["users:read"]}' }, 'name');
    await expectRefused({ raw: '{"name": "nul \\u0000 inside", "scopes": ["users:read"]}' }, 'name');
    const name = 'Überwachung 監視 🚀 — ✓';
    const created = await person.session.post('/users/me/api-keys', { name, scopes: ['users:read'] });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe(name);
  });

  it('a body over 1 MiB is refused with 413, a long field inside the limit with 400', async () => {
    const before = await keyCount();
    const huge = await person.session.request('POST', '/users/me/api-keys', {
      rawBody: JSON.stringify({ name: 'x'.repeat(1_100_000), scopes: ['users:read'] }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
    await expectRefused({ json: { name: 'x'.repeat(500_000), scopes: ['users:read'] } }, 'name');
    expect(await keyCount()).toBe(before);
  });

  it('a body that is not JSON is refused', async () => {
    const response = await person.session.request('POST', '/users/me/api-keys', {
      rawBody: 'name=ci&scopes=users:read',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(400);
  });

  it('pagination parameters out of range or unknown query parameters', async () => {
    const queries: Record<string, string | number>[] = [
      { page: 0 },
      { page: 'two' },
      { per_page: 0 },
      { per_page: 101 },
      { per_page: 1.5 },
      { sort: 'name' },
    ];
    for (const query of queries) {
      const response = await person.session.get('/users/me/api-keys', { query });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].field).toBe(Object.keys(query)[0]);
    }
  });

  it('invalid sign-in and user input', async () => {
    expect((await api.post('/auth/login', { email: 'not an email', password: 'x' })).status).toBe(400);
    expect((await api.post('/auth/login', { email: person.email })).status).toBe(400);
  });
});
