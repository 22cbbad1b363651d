import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

const CEILING = 120;
const CLIENTS = 50;
const REQUESTS = 200;

describe('rate limits across API instances', () => {
  let instances: TestApp[];

  beforeAll(async () => {
    // Both share this file's database and Redis prefix, as replicas behind a load balancer share theirs. Their
    // default ceiling is lower than the key's, so the key's 120 is the administrator's setting, read by both.
    const settings = { ROLE: 'api', RATE_LIMIT_PER_MINUTE: '60' };
    instances = [await startTestApp(settings), await startTestApp(settings)];
  });
  afterAll(() => Promise.all(instances.map((instance) => instance.close())));

  it('lets exactly 120 of 200 concurrent requests through, spread by 50 clients over two instances', async () => {
    const api = new ApiClient(instances[0].baseUrl);
    const person = await createAccount(api);
    const key = await issueKey(person, ['users:read']);
    const admin = await signInAsAdmin(new ApiClient(instances[1].baseUrl));
    const set = await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: CEILING });
    expect(set.status).toBe(200);

    const viaInstance = instances.map((instance) => new ApiClient(instance.baseUrl).withApiKey(key.secret));
    const statuses: number[] = [];
    const limits = new Set<string | null>();
    let sent = 0;
    // Each client sends one request at a time, through its own instance, until 200 have been sent in all.
    const client = async (index: number): Promise<void> => {
      const via = viaInstance[index % viaInstance.length];
      while (sent < REQUESTS) {
        sent += 1;
        const response = await via.get('/users/me');
        statuses.push(response.status);
        limits.add(response.headers.get('ratelimit-limit'));
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));

    expect(statuses).toHaveLength(REQUESTS);
    const allowed = statuses.filter((status) => status >= 200 && status < 300).length;
    const refused = statuses.filter((status) => status === 429).length;
    expect({ allowed, refused }).toEqual({ allowed: CEILING, refused: REQUESTS - CEILING });
    expect([...limits]).toEqual([String(CEILING)]);
  });
});
