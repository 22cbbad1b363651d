import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

const PLAN = {
  monitors: 2,
  checks_per_month: 1000,
  release_checks_per_month: 10,
  alert_destinations: 1,
  status_pages: 1,
  reports: 1,
};

/** Plans are configuration (PLANS); every create that a plan counts is refused past its limit, and usage shows it. */
describe('plan limits', () => {
  let api: TestApp;
  let key: IssuedKey;

  beforeAll(async () => {
    api = await startTestApp({ ROLE: 'api', PLANS: JSON.stringify({ free: PLAN }) });
    const owner = await createAccount(new ApiClient(api.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:write', 'reports:write', 'users:read']);
  });
  afterAll(() => api?.close());

  const creates: [string, string, () => Record<string, unknown>][] = [
    ['monitors', '/monitors', () => ({ name: 'Shop', url: 'https://example.com/' })],
    [
      'alert_destinations',
      '/alert-destinations',
      () => ({ name: 'Ops', type: 'webhook', config: { url: 'https://example.com/hook' } }),
    ],
    ['status_pages', '/status-pages', () => ({ slug: `p-${Math.random().toString(36).slice(2, 10)}`, title: 'Shop' })],
    [
      'reports',
      '/reports',
      () => ({ name: 'Uptime', type: 'uptime', period: { preset: 'last_7_days' }, format: 'csv' }),
    ],
  ];

  it.each(creates)(
    "refuses %s beyond the plan's limit with 409 plan_limit_reached, naming it",
    async (limit, path, body) => {
      const allowed = PLAN[limit as keyof typeof PLAN];
      for (let index = 0; index < allowed; index++) expect((await key.client.post(path, body())).status).toBe(201);
      const refused = await key.client.post(path, body());
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'plan_limit_reached', limit, plan: 'free', allowed, used: allowed });
      expect(refused.body.detail).toContain(`allows ${allowed}`);
    },
  );

  it('shows the limits and what is used in GET /users/me', async () => {
    const me = (await key.client.get('/users/me')).body;
    expect(me.plan).toEqual({ name: 'free', limits: { ...PLAN, requests_per_minute: 120 } });
    expect(me.usage).toMatchObject({ monitors: 2, alert_destinations: 1, status_pages: 1, reports: 1 });
  });

  it('lets exactly as many through as the plan allows when creates race', async () => {
    const racer = await issueKey(await createAccount(new ApiClient(api.baseUrl)), [
      'monitors:read',
      'monitors:write',
      'reports:write',
    ]);
    for (const [limit, path, body] of creates.filter(([name]) => name === 'monitors' || name === 'reports')) {
      const answers = await Promise.all(Array.from({ length: 6 }, () => racer.client.post(path, body())));
      const allowed = PLAN[limit as keyof typeof PLAN];
      expect({ limit, statuses: answers.map((answer) => answer.status).sort() }).toEqual({
        limit,
        statuses: [...Array<number>(allowed).fill(201), ...Array<number>(6 - allowed).fill(409)],
      });
    }
  });
});
