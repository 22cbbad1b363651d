import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { runSource } from '../support/run-source';
import { startTestApp, type TestApp } from '../support/test-app';

const LIMIT = 120;

async function spend(key: IssuedKey, requests: number): Promise<void> {
  for (let sent = 0; sent < requests; sent += 1) {
    const response = await key.client.get('/users/me');
    if (response.status !== 200) throw new Error(`request ${sent + 1} answered ${response.status}`);
  }
}

describe('per-key rate limits', () => {
  let service: TestApp;
  let api: ApiClient;
  let person: Account;

  beforeAll(async () => {
    service = await startTestApp();
    api = new ApiClient(service.baseUrl);
    person = await createAccount(api);
  });
  afterAll(() => service.close());

  it('reports the bucket on every response and refuses the 121st request in a minute with 429 and Retry-After', async () => {
    const key = await issueKey(person, ['users:read']);
    const first = await key.client.get('/users/me');
    expect(first.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(first.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);

    await spend(key, LIMIT - 1);
    const over = await key.client.get('/users/me');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'rate_limited', status: 429 });
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');

    const otherKey = await issueKey(person, ['users:read']);
    const unaffected = await otherKey.client.get('/users/me');
    expect(unaffected.status).toBe(200);
    expect(unaffected.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
  });

  it("applies an administrator's raise from the key's next request", async () => {
    const key = await issueKey(person, ['users:read']);
    await spend(key, LIMIT);
    expect((await key.client.get('/users/me')).status).toBe(429);

    const admin = await signInAsAdmin(api);
    const raised = await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 500 });
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({ id: key.id, rate_limit_per_minute: 500, user_email: person.email });

    const next = await key.client.get('/users/me');
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit-limit')).toBe('500');

    const listed = await admin.get('/admin/api-keys', { query: { per_page: 100 } });
    expect(listed.body.data.find((item: { id: string }) => item.id === key.id).rate_limit_per_minute).toBe(500);
  });

  it('does not let a member or an API key raise a ceiling', async () => {
    const key = await issueKey(person, ['users:read', 'users:write']);
    const byMember = await person.session.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 10_000 });
    expect(byMember.status).toBe(403);
    const byKey = await key.client.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 10_000 });
    expect(byKey.status).toBe(403);
    expect((await key.client.get('/users/me')).headers.get('ratelimit-limit')).toBe(String(LIMIT));
  });

  it('shares one bucket between two API instances (no 240 a minute)', async () => {
    const second = await startTestApp();
    try {
      const key = await issueKey(person, ['users:read']);
      const viaSecond = new ApiClient(second.baseUrl).withApiKey(key.secret);
      for (let sent = 0; sent < LIMIT / 2; sent += 1) {
        expect((await key.client.get('/users/me')).status).toBe(200);
        expect((await viaSecond.get('/users/me')).status).toBe(200);
      }
      expect((await key.client.get('/users/me')).status).toBe(429);
      expect((await viaSecond.get('/users/me')).status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('limits sign-in attempts per client address, so passwords cannot be guessed at speed', async () => {
    const second = await startTestApp({
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}:sign-in-limit`,
      SIGN_IN_RATE_LIMIT_PER_MINUTE: '20',
    });
    try {
      const anonymous = new ApiClient(second.baseUrl);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 21; attempt += 1) {
        statuses.push((await anonymous.post('/auth/login', { email: person.email, password: 'guess' })).status);
      }
      expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
      const refused = await anonymous.post('/auth/login', { email: person.email, password: person.password });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('lets an operator raise a ceiling from the command line', async () => {
    const key = await issueKey(person, ['users:read']);
    const result = await runSource('src/cli.ts', ['keys:rate-limit', key.id, '777'], {});
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('777 requests per minute');
    expect((await key.client.get('/users/me')).headers.get('ratelimit-limit')).toBe('777');

    const bad = await runSource('src/cli.ts', ['keys:rate-limit', 'not-a-key', '10'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a key id');
  });
});
