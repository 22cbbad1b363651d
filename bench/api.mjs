#!/usr/bin/env node
// API benchmark: what the auth + rate-limit path costs over a public route.
//
//   npm run build && npm run bench:api
//
// Starts the built service (dist/src/main.js) as a child process against a throw-away PostgreSQL database and
// Redis prefix, signs in as a bench administrator, creates an API key whose rate-limit ceiling is raised, then
// runs autocannon (warm-up, then a measured run) against:
//   - GET /health                    public: no auth, no rate limit (the baseline)
//   - GET /api/v1/users/me           X-API-Key: key lookup in PostgreSQL, Redis rate limiter, Redis usage counter
//   - GET /api/v1/users/me           Authorization: Bearer (session), for information
// and prints req/s, p50 and p99 latency per route, plus whether the API-key path adds under 1 ms p50.
// The child process, the database and the Redis keys are always removed at the end, even on failure.
//
// Settings (environment):
//   BENCH_DURATION=10      seconds of each measured run
//   BENCH_WARMUP=3         seconds of warm-up before each measured run (not reported)
//   BENCH_CONNECTIONS=10   concurrent connections
//   BENCH_PORT             port for the service (default: a free one)
//   BENCH_ROLE=api         ROLE of the service under test (api: HTTP only, no queue workers or scheduler)
//   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres   server where the bench database is created/dropped
//   BENCH_REDIS_URL=redis://127.0.0.1:6379
//   BENCH_BUILD=1 or --build   run `npm run build` first (otherwise only when dist/src/main.js is missing)
//   BENCH_STRICT=1         exit 2 when the < 1 ms p50 target is missed (otherwise only reported)
//   BENCH_NODE_OPTIONS     NODE_OPTIONS for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
//                          (the service otherwise gets only the variables listed in startService)
//
// Latency percentiles are computed here from every response time (float ms from process.hrtime), because
// autocannon's own histogram has 1 ms resolution, too coarse for a sub-millisecond target.

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');
const HOST = '127.0.0.1';
const TARGET_ADDED_P50_MS = 1;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

function intSetting(name, fallback, min, max) {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`bench: ${name}=${JSON.stringify(raw)} must be a whole number from ${min} to ${max}`);
    process.exit(64);
  }
  return value;
}

const settings = {
  duration: intSetting('BENCH_DURATION', 10, 1, 600),
  warmup: intSetting('BENCH_WARMUP', 3, 0, 120),
  connections: intSetting('BENCH_CONNECTIONS', 10, 1, 1000),
  port: intSetting('BENCH_PORT', 0, 0, 65535),
  role: process.env.BENCH_ROLE?.trim() || 'api',
  pgUrl: process.env.BENCH_PG_URL?.trim() || `postgres://postgres@${HOST}:5432/postgres`,
  redisUrl: process.env.BENCH_REDIS_URL?.trim() || `redis://${HOST}:6379`,
  build: process.argv.includes('--build') || ['1', 'true', 'yes'].includes(process.env.BENCH_BUILD ?? ''),
  strict: ['1', 'true', 'yes'].includes(process.env.BENCH_STRICT ?? ''),
  nodeOptions: process.env.BENCH_NODE_OPTIONS?.trim() || '',
};

const runId = randomBytes(6).toString('hex');
const dbName = `vigil_bench_${runId}`;
const redisPrefix = `vigil_bench_${runId}`;
const adminEmail = 'bench-admin@example.com';
const adminPassword = randomBytes(18).toString('base64url');

const log = (message) => console.error(`bench: ${message}`);

// ---------------------------------------------------------------------------------------------------------------
// The service under test

let child = null;
let childExit = null; // { code, signal } once the child has exited
let stoppingChild = false;
let artifactDir = null;
const childOutput = []; // last lines the child wrote, for diagnosis

function remember(chunk) {
  for (const line of chunk.toString().split('\n')) {
    if (!line.trim()) continue;
    childOutput.push(line);
    if (childOutput.length > 200) childOutput.shift();
  }
}

function printChildOutput(limit = 40) {
  if (!childOutput.length) return;
  console.error(`--- last ${Math.min(limit, childOutput.length)} line(s) from the service ---`);
  for (const line of childOutput.slice(-limit)) console.error(line);
  console.error('---');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function startService(port) {
  artifactDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  const databaseUrl = new URL(settings.pgUrl);
  databaseUrl.pathname = `/${dbName}`;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    ROLE: settings.role,
    PORT: String(port),
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: settings.redisUrl,
    REDIS_PREFIX: redisPrefix,
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    ARTIFACT_DIR: artifactDir,
    // The default ceiling for sessions; the API key gets its own raised ceiling through the admin API.
    RATE_LIMIT_PER_MINUTE: '1000000',
  };
  if (settings.nodeOptions) env.NODE_OPTIONS = settings.nodeOptions;
  child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', remember);
  child.stderr.on('data', remember);
  child.on('exit', (code, signal) => {
    childExit = { code, signal };
    if (!stoppingChild) log(`the service exited unexpectedly (code ${code}, signal ${signal})`);
  });
}

async function stopService() {
  if (!child || childExit) return;
  stoppingChild = true;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = new Promise((resolve) => setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS).unref());
  if ((await Promise.race([exited, timer])) === 'timeout' && !childExit) {
    log(`the service did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM; sending SIGKILL`);
    child.kill('SIGKILL');
    await exited;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP helpers (127.0.0.1 only)

let baseUrl = '';

async function call(method, path, { token, apiKey, body } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (apiKey) headers['x-api-key'] = apiKey;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON; keep the text for the error message
  }
  return { status: response.status, headers: response.headers, json, text };
}

async function expectStatus(expected, method, path, options) {
  const result = await call(method, path, options);
  if (result.status !== expected) {
    throw new Error(`${method} ${path} answered ${result.status}, expected ${expected}: ${result.text.slice(0, 500)}`);
  }
  return result;
}

async function waitUntilReady() {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (childExit)
      throw new Error(`the service exited during start-up (code ${childExit.code}, signal ${childExit.signal})`);
    try {
      const result = await call('GET', '/health/ready');
      if (result.status === 200) return;
      last = `${result.status} ${result.text.slice(0, 200)}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`GET /health/ready was not 200 within ${READY_TIMEOUT_MS / 1000} s (last: ${last})`);
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

let currentRun = null;

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

function runAutocannon(path, headers, seconds) {
  const times = [];
  const statuses = new Map();
  const instance = autocannon({
    url: `${baseUrl}${path}`,
    method: 'GET',
    headers,
    connections: settings.connections,
    duration: seconds,
    timeout: 10,
  });
  currentRun = instance;
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    times.push(responseTime);
    statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
  });
  return instance.then(
    (result) => {
      currentRun = null;
      return { result, times, statuses };
    },
    (error) => {
      currentRun = null;
      throw error;
    },
  );
}

async function measure(scenario) {
  if (settings.warmup > 0) {
    log(`${scenario.label}: warm-up ${settings.warmup} s`);
    const warm = await runAutocannon(scenario.path, scenario.headers, settings.warmup);
    const bad = warm.result.non2xx + warm.result.errors + warm.result.timeouts;
    if (bad) throw new Error(`${scenario.label}: warm-up saw ${bad} failed request(s): ${describeStatuses(warm)}`);
  }
  log(`${scenario.label}: measuring ${settings.duration} s with ${settings.connections} connection(s)`);
  const run = await runAutocannon(scenario.path, scenario.headers, settings.duration);
  if (stoppingChild) throw new Error(`interrupted during ${scenario.label}`);
  if (childExit) throw new Error(`the service exited during ${scenario.label}`);
  const sorted = Float64Array.from(run.times).sort();
  return {
    ...scenario,
    requests: run.result.requests.total,
    rps: run.result.requests.average,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    non2xx: run.result.non2xx,
    errors: run.result.errors,
    timeouts: run.result.timeouts,
    statuses: describeStatuses(run),
  };
}

function describeStatuses(run) {
  const parts = [...run.statuses.entries()].sort(([a], [b]) => a - b).map(([code, count]) => `${code}×${count}`);
  if (run.result.errors) parts.push(`errors×${run.result.errors}`);
  if (run.result.timeouts) parts.push(`timeouts×${run.result.timeouts}`);
  return parts.join(', ') || 'none';
}

// ---------------------------------------------------------------------------------------------------------------
// Cleanup: always, once

let cleanedUp = null;

function cleanup() {
  cleanedUp ??= (async () => {
    if (currentRun) currentRun.stop();
    try {
      await stopService();
    } catch (error) {
      log(`cleanup: could not stop the service: ${error.message}`);
    }
    const client = new pg.Client({ connectionString: settings.pgUrl, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query(`drop database if exists "${dbName}" with (force)`);
      log(`cleanup: dropped database ${dbName}`);
    } catch (error) {
      log(`cleanup: could not drop database ${dbName}: ${error.message}`);
    } finally {
      await client.end().catch(() => undefined);
    }
    const redis = new Redis(settings.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5000 });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      let cursor = '0';
      let removed = 0;
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) removed += await redis.unlink(...keys);
      } while (cursor !== '0');
      log(`cleanup: removed ${removed} Redis key(s) under ${redisPrefix}:`);
    } catch (error) {
      log(`cleanup: could not remove Redis keys under ${redisPrefix}: ${error.message}`);
    } finally {
      redis.disconnect();
    }
    if (artifactDir) rmSync(artifactDir, { recursive: true, force: true });
  })();
  return cleanedUp;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const fmt = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

function report(results) {
  const [publicRoute, apiKeyRoute] = results;
  const added = apiKeyRoute.p50 - publicRoute.p50;
  const met = added < TARGET_ADDED_P50_MS;
  const lines = [
    `Vigil API benchmark: autocannon, ${settings.connections} connections, ${settings.duration} s per route ` +
      `after ${settings.warmup} s warm-up; Node ${process.versions.node}, ${cpus().length} CPU(s) ` +
      `(${cpus()[0]?.model.trim() ?? 'unknown'}), service ROLE=${settings.role}, LOG_LEVEL=warn, ` +
      `${new Date().toISOString().slice(0, 10)}.`,
    '',
    '| Route | Path taken | Req/s | p50 (ms) | p99 (ms) | Non-2xx |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| \`GET ${r.path}\` | ${r.description} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.non2xx} |`,
    ),
    '',
    `Auth + rate-limit path adds **${fmt(added)} ms** p50 over the public route ` +
      `(target < ${TARGET_ADDED_P50_MS} ms: ${met ? 'met' : '**not met**'}).`,
    '',
    'Repeat with: `npm run build && npm run bench:api` ' +
      `(\`BENCH_DURATION=${settings.duration} BENCH_CONNECTIONS=${settings.connections}\` to change the load).`,
  ];
  console.log(lines.join('\n'));
  return met;
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  if (settings.build || !existsSync(MAIN)) {
    log(settings.build ? 'building (requested)' : `${MAIN} is missing; building`);
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status ?? build.signal})`);
  }

  const budgetMs = READY_TIMEOUT_MS + 3 * (settings.warmup + settings.duration + 10) * 1000 + 30_000;
  const watchdog = setTimeout(() => {
    log(`giving up after ${Math.round(budgetMs / 1000)} s`);
    printChildOutput();
    cleanup().finally(() => process.exit(1));
  }, budgetMs);
  watchdog.unref();

  const port = settings.port || (await freePort());
  baseUrl = `http://${HOST}:${port}`;
  log(`starting the service on ${baseUrl} (database ${dbName}, Redis prefix ${redisPrefix})`);
  const startedAt = Date.now();
  startService(port);
  await waitUntilReady();
  log(`ready after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  childOutput.length = 0; // start-up went fine (its migration lines ignore LOG_LEVEL); keep only what follows

  const login = await expectStatus(200, 'POST', '/api/v1/auth/login', {
    body: { email: adminEmail, password: adminPassword },
  });
  const token = login.json?.access_token;
  if (!token) throw new Error(`login returned no access_token: ${login.text.slice(0, 300)}`);

  const created = await expectStatus(201, 'POST', '/api/v1/users/me/api-keys', {
    token,
    body: { name: 'bench', scopes: ['users:read'] },
  });
  const { id: keyId, secret } = created.json ?? {};
  if (!keyId || !secret) throw new Error(`creating an API key returned no id/secret: ${created.text.slice(0, 300)}`);
  await expectStatus(200, 'PUT', `/api/v1/admin/api-keys/${keyId}/rate-limit`, {
    token,
    body: { requests_per_minute: 1_000_000 },
  });

  // Sanity checks before loading: each route answers 200, and the key's raised ceiling is in effect.
  await expectStatus(200, 'GET', '/health');
  const me = await expectStatus(200, 'GET', '/api/v1/users/me', { apiKey: secret });
  const limit = me.headers.get('ratelimit-limit');
  if (limit !== '1000000') throw new Error(`the API key's RateLimit-Limit is ${limit}, expected 1000000`);
  await expectStatus(200, 'GET', '/api/v1/users/me', { token });

  const scenarios = [
    { label: 'public', path: '/health', description: 'public (no auth, no rate limit)', headers: {} },
    {
      label: 'api-key',
      path: '/api/v1/users/me',
      description: 'X-API-Key: key lookup (PostgreSQL) + rate limit + usage counter (Redis)',
      headers: { 'x-api-key': secret },
    },
    {
      label: 'session',
      path: '/api/v1/users/me',
      description: 'Bearer session (JWT) + rate limit + usage counter, for information',
      headers: { authorization: `Bearer ${token}` },
    },
  ];
  const results = [];
  for (const scenario of scenarios) {
    const result = await measure(scenario);
    log(
      `${scenario.label}: ${result.requests} requests, ${fmt(result.rps, 0)} req/s, p50 ${fmt(result.p50)} ms, ` +
        `p99 ${fmt(result.p99)} ms (${result.statuses})`,
    );
    results.push(result);
  }

  console.log('');
  const met = report(results);
  const failed = results.filter((r) => r.non2xx || r.errors || r.timeouts);
  if (childOutput.length) {
    log(`the service logged ${childOutput.length} line(s) at LOG_LEVEL=warn during the run:`);
    printChildOutput(10);
  }
  if (failed.length) {
    for (const r of failed) log(`FAILED: ${r.label} (GET ${r.path}) had failed requests: ${r.statuses}`);
    return 1;
  }
  if (!met && settings.strict) return 2;
  return 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  log(`FAILED: ${error.message}`);
  printChildOutput();
} finally {
  await cleanup();
}
process.exit(exitCode);
