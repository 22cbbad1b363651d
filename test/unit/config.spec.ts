import { ConfigError, loadConfig } from '../../src/config/app-config';

describe('configuration', () => {
  it('has working defaults for every setting', () => {
    expect(loadConfig({})).toMatchObject({
      role: 'all',
      port: 3000,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/vigil',
      redisUrl: 'redis://127.0.0.1:6379',
      migrateOnStart: true,
      rateLimitPerMinute: 120,
      chromiumPath: '/usr/bin/chromium',
      allowPrivateTargets: false,
      regions: ['local'],
      workerRegions: ['local'],
    });
  });

  it('takes plans from PLANS, keeping the defaults of the plans it does not name', () => {
    const limits = { monitors: 5000, checks_per_month: 1, release_checks_per_month: 2 };
    const { plans } = loadConfig({ PLANS: JSON.stringify({ free: limits }) });
    expect(plans.free).toEqual(limits);
    expect(plans.team.monitors).toBe(1000);
  });

  it.each([
    [{ ROLE: 'web' }, 'ROLE="web" must be one of api, worker, scheduler, all'],
    [{ PORT: 'eighty' }, 'PORT="eighty" is not a whole number from 0 to 65535'],
    [
      { DATABASE_URL: 'mysql://localhost/vigil' },
      'DATABASE_URL="mysql://localhost/vigil" must start with postgres: or postgresql:',
    ],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL="not a url" is not a URL'],
    [{ ALLOW_PRIVATE_TARGETS: 'maybe' }, 'ALLOW_PRIVATE_TARGETS="maybe" must be true or false'],
    [{ REGIONS: 'eu,us', WORKER_REGIONS: 'ap' }, 'WORKER_REGIONS names ap, which REGIONS (eu,us) lacks'],
    [{ ADMIN_EMAIL: 'admin@example.com' }, 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET must be at least 32 characters'],
    [{ PLANS: '{free:' }, 'PLANS is not JSON'],
    [
      { PLANS: '{"free": {"monitors": 10}}' },
      'PLANS.free must name monitors, checks_per_month, release_checks_per_month',
    ],
    [{ CRAWL_HOST_CONCURRENCY: '0' }, 'CRAWL_HOST_CONCURRENCY="0" is not a whole number from 1 to 256'],
  ])('refuses %j with a message saying what and how', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
