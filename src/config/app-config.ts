import { DEFAULT_CHROMIUM_PATH } from '../../libs/capture/chromium-path';
import { DEFAULT_PLANS, OPTIONAL_PLAN_LIMITS, type PlanLimits, REQUIRED_PLAN_LIMITS } from '../users/plans';
export const ROLES = ['api', 'worker', 'scheduler', 'all'] as const;
export type Role = (typeof ROLES)[number];

/** Every setting the service reads from its environment, parsed and validated once at boot. */
export interface AppConfig {
  role: Role;
  port: number;
  /**
   * How long the HTTP server keeps an idle connection, and waits for a request's headers. Longer than the idle timeout
   * of a proxy in front (60 s for nginx upstreams and most load balancers), so the proxy closes first and never sends
   * on a connection the server is closing.
   */
  http: { keepAliveTimeoutMs: number; headersTimeoutMs: number };
  /** Argon2id's cost; never below OWASP's minimum (19 MiB, 2 iterations). */
  passwordHashing: { memoryKib: number; iterations: number; parallelism: number };
  databaseUrl: string;
  redisUrl: string;
  /** Namespace of every Redis key (Bull queues, rate-limit buckets, usage counters). */
  redisPrefix: string;
  migrateOnStart: boolean;
  /** Null means: use the secret stored in the database, created on first start. */
  jwtSecret: string | null;
  jwtTtlSeconds: number;
  adminEmail: string | null;
  adminPassword: string | null;
  rateLimitPerMinute: number;
  /** Pings answered per heartbeat ping URL and minute. */
  heartbeatPingsPerMinute: number;
  /** Status-page subscriptions each client address may make a minute (public, so rate limited). */
  statusSubscriptionsPerMinute: number;
  /** Sign-in attempts answered per client address and minute. */
  signInRateLimitPerMinute: number;
  chromiumPath: string;
  /** Captures one worker process runs at once (each a browser context). */
  captureConcurrency: number;
  /**
   * How long a worker's hold on a running job lasts without renewal: a worker that died is noticed (and its job
   * handed to another worker) after about twice this.
   */
  jobLockMs: number;
  /** How long `POST /reports/{id}/generate` waits for its run before answering 202 (the contract says 30 s). */
  reportWaitMs: number;
  /** Alert e-mails go through this SMTP server; null: e-mail destinations are refused. */
  smtpUrl: string | null;
  smtpFrom: string;
  /** Waits before each retry of a failed delivery (jitter of ±20% is added). */
  deliveryRetryDelaysMs: number[];
  /** Delivery attempts one worker process makes at once, to all destinations together. */
  deliveryConcurrency: number;
  /** Of those, at most this many to any one destination, so a slow one leaves the rest to the others (per process). */
  deliveryDestinationConcurrency: number;
  artifactDir: string;
  /**
   * The address people reach the service at (e.g. `https://vigil.example.com`), when it is known: https turns on HSTS,
   * and public links (the status feed) use it instead of the request's Host header.
   */
  publicUrl: string | null;
  /** Monitor screenshots and report files older than this are deleted (release-check evidence never is). */
  artifactRetentionDays: number;
  /** Where artifacts live: `artifactDir` on this machine, or an S3-compatible bucket every machine shares. */
  artifactStore: { kind: 'local' } | ({ kind: 's3' } & S3Settings);
  allowPrivateTargets: boolean;
  /** GitHub's REST API (GitHub.com's unless set), for code-host connections to GitHub Apps. */
  githubApiUrl: string;
  /**
   * The key that encrypts code-host credentials at rest (32 bytes, base64 or hex); null means: a random key stored in
   * the database on first start. Set it so that a copy of the database alone does not reveal the credentials.
   */
  secretsKey: Buffer | null;
  /** Crawl politeness and capacity; raised for local benchmarks, never needed in production. */
  crawl: CrawlConfig;
  /** Each plan's limits: the defaults, with any plan the `PLANS` setting names replaced or added. */
  plans: Record<string, PlanLimits>;
  regions: string[];
  workerRegions: string[];
  /** Monitor checks one worker process runs at once, per region. */
  checkConcurrency: number;
  /** How often the scheduler looks for due monitors. */
  schedulerTickMs: number;
  /** Raw check results older than this are deleted; hourly rollups keep uptime and response times. */
  checkRetentionDays: number;
  /** An OpenAI-compatible endpoint that writes change summaries; heuristic summaries when null. */
  summaryApiUrl: string | null;
  summaryApiKey: string | null;
  summaryModel: string;
  /** When set, `GET /metrics` answers only requests bearing it (`Authorization: Bearer <token>`). */
  metricsToken: string | null;
  /** Roles without HTTP (worker, scheduler) serve `GET /metrics` on this port when it is set. */
  metricsPort: number | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export interface CrawlConfig {
  /** Crawls one worker process runs at once. */
  concurrency: number;
  /** Requests in flight to one host from one worker process. */
  hostConcurrency: number;
  /** A request (one redirect hop) that takes longer fails the URL with an error. */
  requestTimeoutMs: number;
  /** The first back-off after a 429 or 503 without Retry-After; it doubles on each retry. */
  backoffBaseMs: number;
  /** No back-off, Retry-After or Crawl-delay waits longer than this. */
  backoffMaxMs: number;
  /** Retries of one URL that keeps answering 429 or 503. */
  retries: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/**
 * `PLANS` as JSON, e.g. `{"free": {"monitors": 100, "checks_per_month": 1000000, "release_checks_per_month": 500}}`;
 * `alert_destinations`, `status_pages` and `reports` may be named too.
 */
function plans(env: Env): Record<string, PlanLimits> {
  const raw = env.PLANS?.trim();
  if (!raw) return DEFAULT_PLANS;
  const example = '{"free": {"monitors": 100, "checks_per_month": 1000000, "release_checks_per_month": 500}}';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`PLANS is not JSON; expected e.g. ${example}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`PLANS must be an object of plans, e.g. ${example}`);
  }
  const configured: Record<string, PlanLimits> = { ...DEFAULT_PLANS };
  for (const [name, limits] of Object.entries(parsed as Record<string, unknown>)) {
    const values = (limits ?? {}) as Record<string, unknown>;
    const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
    const bad =
      REQUIRED_PLAN_LIMITS.find((limit) => !isCount(values[limit])) ??
      OPTIONAL_PLAN_LIMITS.find((limit) => values[limit] !== undefined && !isCount(values[limit]));
    if (!/^[a-z][a-z0-9_-]{0,31}$/.test(name) || bad) {
      throw new ConfigError(
        `PLANS.${name} must name ${REQUIRED_PLAN_LIMITS.join(', ')} (and may name ${OPTIONAL_PLAN_LIMITS.join(', ')}) ` +
          `as whole numbers of 0 or more; e.g. ${example}`,
      );
    }
    const defaults = DEFAULT_PLANS[name] ?? DEFAULT_PLANS.free;
    // Required limits were checked above; an optional one left out keeps the plan's default.
    const count = (limit: keyof PlanLimits): number => (values[limit] as number | undefined) ?? defaults[limit];
    configured[name] = {
      monitors: count('monitors'),
      checks_per_month: count('checks_per_month'),
      release_checks_per_month: count('release_checks_per_month'),
      alert_destinations: count('alert_destinations'),
      status_pages: count('status_pages'),
      reports: count('reports'),
    };
  }
  return configured;
}

/** A configuration error; its message is one line saying what is wrong and how to fix it. */
export interface S3Settings {
  /** Null: AWS's own endpoint for the region. */
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean;
}

export class ConfigError extends Error {}

/** SECRETS_KEY: 32 bytes, as 64 hex digits or base64. */
function secretsKey(env: Env): Buffer | null {
  const raw = optional(env, 'SECRETS_KEY');
  if (raw === null) return null;
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) {
    throw new ConfigError('SECRETS_KEY must be 32 bytes: 64 hex digits or base64 (openssl rand -base64 32)');
  }
  return key;
}

/** The origin of PUBLIC_URL, without a trailing slash or path: links are built on it. */
function publicUrl(raw: string): string {
  return new URL(raw).origin;
}

/** `ARTIFACT_STORE=local|s3` and, for s3, the bucket's settings. */
function artifactStore(env: Env): AppConfig['artifactStore'] {
  const kind = text(env, 'ARTIFACT_STORE', 'local');
  if (kind === 'local') return { kind };
  if (kind !== 's3') throw new ConfigError(`ARTIFACT_STORE=${JSON.stringify(kind)} must be local or s3`);
  const bucket = optional(env, 'S3_BUCKET');
  if (bucket === null) throw new ConfigError('ARTIFACT_STORE=s3 needs S3_BUCKET, the bucket to keep artifacts in');
  const accessKeyId = optional(env, 'S3_ACCESS_KEY_ID');
  const secretAccessKey = optional(env, 'S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS defaults)',
    );
  }
  return {
    kind,
    endpoint:
      optional(env, 'S3_ENDPOINT') === null
        ? null
        : url(env, 'S3_ENDPOINT', 'http://127.0.0.1:9000', ['http:', 'https:']),
    bucket,
    region: text(env, 'S3_REGION', 'us-east-1'),
    accessKeyId,
    secretAccessKey,
    forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE', false),
  };
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string, fallback: string): string {
  const value = env[name]?.trim();
  return value ? value : fallback;
}

function optional(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}=${JSON.stringify(raw)} is not a whole number from ${min} to ${max}`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name}=${JSON.stringify(raw)} must be true or false`);
}

function url(env: Env, name: string, fallback: string, protocols: string[]): string {
  const raw = text(env, name, fallback);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name}=${JSON.stringify(raw)} is not a URL; expected e.g. ${fallback}`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(
      `${name}=${JSON.stringify(raw)} must start with ${protocols.join(' or ')}//; e.g. ${fallback}`,
    );
  }
  return raw;
}

function delays(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const values = raw.split(',').map((item) => Number(item.trim()));
  if (values.length > 20 || values.some((value) => !Number.isInteger(value) || value < 0 || value > 7 * 86_400_000)) {
    throw new ConfigError(
      `${name}=${JSON.stringify(raw)} must be up to 20 comma-separated milliseconds, e.g. 5000,60000`,
    );
  }
  return values;
}

function list(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const item of items) {
    if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(item)) {
      throw new ConfigError(`${name} contains ${JSON.stringify(item)}; use lowercase names like eu,us`);
    }
  }
  return items;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const role = text(env, 'ROLE', 'all') as Role;
  if (!ROLES.includes(role)) {
    throw new ConfigError(`ROLE=${JSON.stringify(role)} must be one of ${ROLES.join(', ')}`);
  }
  const regions = list(env, 'REGIONS', ['local']);
  const workerRegions = list(env, 'WORKER_REGIONS', regions);
  const unknown = workerRegions.filter((region) => !regions.includes(region));
  if (unknown.length) {
    throw new ConfigError(`WORKER_REGIONS names ${unknown.join(', ')}, which REGIONS (${regions.join(',')}) lacks`);
  }
  const jwtSecret = optional(env, 'JWT_SECRET');
  if (jwtSecret !== null && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters (or unset, to use one stored in the database)');
  }
  const adminEmail = optional(env, 'ADMIN_EMAIL');
  const adminPassword = optional(env, 'ADMIN_PASSWORD');
  if ((adminEmail === null) !== (adminPassword === null)) {
    throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (adminPassword !== null && adminPassword.length < 12) {
    throw new ConfigError('ADMIN_PASSWORD must be at least 12 characters');
  }
  const deliveryConcurrency = integer(env, 'DELIVERY_CONCURRENCY', 500, 1, 10_000);
  const deliveryDestinationConcurrency = integer(env, 'DELIVERY_DESTINATION_CONCURRENCY', 25, 1, 10_000);
  if (deliveryDestinationConcurrency > deliveryConcurrency) {
    throw new ConfigError(
      `DELIVERY_DESTINATION_CONCURRENCY=${deliveryDestinationConcurrency} exceeds DELIVERY_CONCURRENCY=` +
        `${deliveryConcurrency}; set it lower, so one destination cannot take every attempt`,
    );
  }
  const keepAliveTimeoutMs = integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 75_000, 1000, 3_600_000);
  const headersTimeoutMs = integer(env, 'HTTP_HEADERS_TIMEOUT_MS', keepAliveTimeoutMs + 1000, 1000, 3_600_000);
  if (headersTimeoutMs <= keepAliveTimeoutMs) {
    // Node checks the headers timeout on idle connections too: a shorter one cuts keep-alive short.
    throw new ConfigError(
      `HTTP_HEADERS_TIMEOUT_MS=${headersTimeoutMs} must be longer than HTTP_KEEP_ALIVE_TIMEOUT_MS=${keepAliveTimeoutMs}`,
    );
  }
  const logLevel = text(env, 'LOG_LEVEL', 'info') as AppConfig['logLevel'];
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL=${JSON.stringify(logLevel)} must be one of fatal, error, warn, info, debug, trace, silent`,
    );
  }
  return {
    role,
    port: integer(env, 'PORT', 3000, 0, 65535),
    http: { keepAliveTimeoutMs, headersTimeoutMs },
    passwordHashing: {
      memoryKib: integer(env, 'PASSWORD_HASH_MEMORY_KIB', 65_536, 19_456, 4_194_304),
      iterations: integer(env, 'PASSWORD_HASH_ITERATIONS', 3, 2, 100),
      parallelism: integer(env, 'PASSWORD_HASH_PARALLELISM', 4, 1, 64),
    },
    databaseUrl: url(env, 'DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/vigil', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    redisPrefix: text(env, 'REDIS_PREFIX', 'vigil'),
    migrateOnStart: flag(env, 'MIGRATE_ON_START', true),
    jwtSecret,
    jwtTtlSeconds: integer(env, 'JWT_TTL_SECONDS', 3600, 60, 30 * 24 * 3600),
    adminEmail: adminEmail?.toLowerCase() ?? null,
    adminPassword,
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 120, 1, 1_000_000),
    signInRateLimitPerMinute: integer(env, 'SIGN_IN_RATE_LIMIT_PER_MINUTE', 20, 1, 1_000_000),
    heartbeatPingsPerMinute: integer(env, 'HEARTBEAT_PINGS_PER_MINUTE', 60, 1, 1_000_000),
    statusSubscriptionsPerMinute: integer(env, 'STATUS_SUBSCRIPTIONS_PER_MINUTE', 5, 1, 10_000),
    chromiumPath: text(env, 'CHROMIUM_PATH', DEFAULT_CHROMIUM_PATH),
    captureConcurrency: integer(env, 'CAPTURE_CONCURRENCY', 2, 1, 32),
    jobLockMs: integer(env, 'JOB_LOCK_MS', 30_000, 1000, 600_000),
    reportWaitMs: integer(env, 'REPORT_WAIT_MS', 30_000, 0, 30_000),
    smtpUrl:
      optional(env, 'SMTP_URL') === null
        ? null
        : url(env, 'SMTP_URL', 'smtp://mail.example.com:587', ['smtp:', 'smtps:']),
    smtpFrom: text(env, 'SMTP_FROM', 'Vigil <alerts@vigil.invalid>'),
    deliveryRetryDelaysMs: delays(env, 'DELIVERY_RETRY_DELAYS_MS', [5_000, 60_000, 600_000, 3_600_000, 21_600_000]),
    deliveryConcurrency,
    deliveryDestinationConcurrency,
    artifactDir: text(env, 'ARTIFACT_DIR', './data/artifacts'),
    publicUrl:
      optional(env, 'PUBLIC_URL') === null
        ? null
        : publicUrl(url(env, 'PUBLIC_URL', 'https://vigil.example.com', ['http:', 'https:'])),
    artifactRetentionDays: integer(env, 'ARTIFACT_RETENTION_DAYS', 30, 1, 3650),
    artifactStore: artifactStore(env),
    allowPrivateTargets: flag(env, 'ALLOW_PRIVATE_TARGETS', false),
    githubApiUrl: url(env, 'GITHUB_API_URL', 'https://api.github.com', ['http:', 'https:']).replace(/\/+$/, ''),
    secretsKey: secretsKey(env),
    plans: plans(env),
    crawl: {
      concurrency: integer(env, 'CRAWL_CONCURRENCY', 2, 1, 32),
      hostConcurrency: integer(env, 'CRAWL_HOST_CONCURRENCY', 2, 1, 256),
      requestTimeoutMs: integer(env, 'CRAWL_REQUEST_TIMEOUT_MS', 15_000, 100, 120_000),
      backoffBaseMs: integer(env, 'CRAWL_BACKOFF_BASE_MS', 2_000, 1, 60_000),
      backoffMaxMs: integer(env, 'CRAWL_BACKOFF_MAX_MS', 60_000, 1, 3_600_000),
      retries: integer(env, 'CRAWL_RETRIES', 4, 0, 10),
    },
    regions,
    workerRegions,
    checkConcurrency: integer(env, 'CHECK_CONCURRENCY', 50, 1, 1000),
    schedulerTickMs: integer(env, 'SCHEDULER_TICK_MS', 250, 50, 60_000),
    checkRetentionDays: integer(env, 'CHECK_RETENTION_DAYS', 7, 1, 3650),
    summaryApiUrl:
      optional(env, 'SUMMARY_API_URL') === null
        ? null
        : url(env, 'SUMMARY_API_URL', 'https://api.openai.com/v1', ['http:', 'https:']),
    summaryApiKey: optional(env, 'SUMMARY_API_KEY'),
    summaryModel: text(env, 'SUMMARY_MODEL', 'gpt-4o-mini'),
    metricsToken: optional(env, 'METRICS_TOKEN'),
    metricsPort: optional(env, 'METRICS_PORT') === null ? null : integer(env, 'METRICS_PORT', 0, 1, 65535),
    logLevel,
  };
}
