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
      chromiumPath: '/usr/lib/chromium/chromium-headless-shell',
      allowPrivateTargets: false,
      regions: ['local'],
      workerRegions: ['local'],
    });
  });

  it('takes plans from PLANS, keeping the defaults of the plans it does not name', () => {
    const limits = { monitors: 5000, checks_per_month: 1, release_checks_per_month: 2 };
    const { plans } = loadConfig({ PLANS: JSON.stringify({ free: limits }) });
    // The limits it leaves out keep the plan's defaults.
    expect(plans.free).toEqual({ ...limits, alert_destinations: 20, status_pages: 3, reports: 20 });
    expect(plans.team.monitors).toBe(1000);
    const custom = loadConfig({ PLANS: JSON.stringify({ pro: { ...limits, status_pages: 9 } }) }).plans.pro;
    expect(custom).toEqual({ ...limits, alert_destinations: 20, status_pages: 9, reports: 20 });
    expect(() => loadConfig({ PLANS: JSON.stringify({ free: { ...limits, reports: -1 } }) })).toThrow(ConfigError);
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
    [{ DELIVERY_CONCURRENCY: '0' }, 'DELIVERY_CONCURRENCY="0" is not a whole number from 1 to 10000'],
    [
      { DELIVERY_DESTINATION_CONCURRENCY: 'many' },
      'DELIVERY_DESTINATION_CONCURRENCY="many" is not a whole number from 1 to 10000',
    ],
    [
      { DELIVERY_CONCURRENCY: '10', DELIVERY_DESTINATION_CONCURRENCY: '11' },
      'DELIVERY_DESTINATION_CONCURRENCY=11 exceeds DELIVERY_CONCURRENCY=10; set it lower',
    ],
    [
      { DELIVERY_DESTINATION_CONCURRENCY: '501' },
      'DELIVERY_DESTINATION_CONCURRENCY=501 exceeds DELIVERY_CONCURRENCY=500',
    ],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT="70000" is not a whole number from 1 to 65535'],
  ])('refuses %j with a message saying what and how', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('takes the delivery concurrency and its per-destination share, the share at most the whole', () => {
    expect(loadConfig({})).toMatchObject({ deliveryConcurrency: 500, deliveryDestinationConcurrency: 25 });
    expect(loadConfig({ DELIVERY_CONCURRENCY: '40', DELIVERY_DESTINATION_CONCURRENCY: '40' })).toMatchObject({
      deliveryConcurrency: 40,
      deliveryDestinationConcurrency: 40,
    });
  });

  it('keeps idle HTTP connections longer than a proxy in front does, the headers timeout longer still', () => {
    expect(loadConfig({}).http).toEqual({ keepAliveTimeoutMs: 75_000, headersTimeoutMs: 76_000 });
    expect(loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '130000' }).http).toEqual({
      keepAliveTimeoutMs: 130_000,
      headersTimeoutMs: 131_000,
    });
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000', HTTP_HEADERS_TIMEOUT_MS: '60000' })).toThrow(
      'HTTP_HEADERS_TIMEOUT_MS=60000 must be longer than HTTP_KEEP_ALIVE_TIMEOUT_MS=75000',
    );
  });

  it('hashes passwords with argon2’s own cost by default, and never below OWASP’s minimum', () => {
    expect(loadConfig({}).passwordHashing).toEqual({ memoryKib: 65_536, iterations: 3, parallelism: 4 });
    expect(() => loadConfig({ PASSWORD_HASH_MEMORY_KIB: '8192' })).toThrow(
      'PASSWORD_HASH_MEMORY_KIB="8192" is not a whole number from 19456 to 4194304',
    );
    expect(() => loadConfig({ PASSWORD_HASH_ITERATIONS: '1' })).toThrow(/PASSWORD_HASH_ITERATIONS/);
  });

  it('leaves /metrics open and worker metrics unserved unless METRICS_TOKEN and METRICS_PORT are set', () => {
    expect(loadConfig({})).toMatchObject({ metricsToken: null, metricsPort: null });
    expect(loadConfig({ METRICS_TOKEN: ' s3cret ', METRICS_PORT: '9464' })).toMatchObject({
      metricsToken: 's3cret',
      metricsPort: 9464,
    });
  });

  it('keeps artifacts locally unless ARTIFACT_STORE=s3 names a bucket', () => {
    expect(loadConfig({}).artifactStore).toEqual({ kind: 'local' });
    expect(loadConfig({}).artifactRetentionDays).toBe(30);
    expect(
      loadConfig({
        ARTIFACT_STORE: 's3',
        S3_BUCKET: 'vigil',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }).artifactStore,
    ).toEqual({
      kind: 's3',
      bucket: 'vigil',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(() => loadConfig({ ARTIFACT_STORE: 'ftp' })).toThrow('ARTIFACT_STORE="ftp" must be local or s3');
    expect(() => loadConfig({ ARTIFACT_STORE: 's3' })).toThrow(ConfigError);
    expect(() => loadConfig({ ARTIFACT_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    );
    expect(() => loadConfig({ ARTIFACT_RETENTION_DAYS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ REPORT_WAIT_MS: '60000' })).toThrow(
      'REPORT_WAIT_MS="60000" is not a whole number from 0 to 30000',
    );
  });

  it('takes PUBLIC_URL as an origin, or none', () => {
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://vigil.example.com/app/' }).publicUrl).toBe('https://vigil.example.com');
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://vigil.example.com' })).toThrow(ConfigError);
  });
});
