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
//                          (the service otherwise gets only the variables BenchRun.start in lib/service.mjs sets)
//
// Latency percentiles are computed here from every response time (float ms from process.hrtime), because
// autocannon's own histogram has 1 ms resolution, too coarse for a sub-millisecond target.

import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { ensureBuilt, fmt, HOST, intSetting, log, percentile, serviceSettings } from './lib/common.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const TARGET_ADDED_P50_MS = 1;

const settings = {
  ...serviceSettings(),
  duration: intSetting('BENCH_DURATION', 10, 1, 600),
  warmup: intSetting('BENCH_WARMUP', 3, 0, 120),
  connections: intSetting('BENCH_CONNECTIONS', 10, 1, 1000),
  role: process.env.BENCH_ROLE?.trim() || 'api',
};
const run = new BenchRun(settings);
let service = null;
let baseUrl = '';

// ---------------------------------------------------------------------------------------------------------------
// Measuring

let currentRun = null;

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
  if (service.exit) throw new Error(`the service exited during ${scenario.label}`);
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

function cleanup() {
  currentRun?.stop();
  return run.cleanup();
}

// ---------------------------------------------------------------------------------------------------------------
// Report

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
  ensureBuilt(settings.build);
  const port = settings.port || (await freePort());
  baseUrl = `http://${HOST}:${port}`;
  const api = new ApiClient(baseUrl);
  log(`starting the service on ${baseUrl} (database ${run.dbName}, Redis prefix ${run.redisPrefix})`);
  const startedAt = Date.now();
  service = run.start({ ROLE: settings.role, PORT: String(port) });
  await api.waitUntilReady(service);
  log(`ready after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  service.output.length = 0; // start-up went fine (its migration lines ignore LOG_LEVEL); keep only what follows
  const { token, secret } = await api.adminKey(run, ['users:read']);

  // Sanity checks before loading: each route answers 200, and the key's raised ceiling is in effect.
  await api.expect(200, 'GET', '/health');
  const me = await api.expect(200, 'GET', '/api/v1/users/me', { apiKey: secret });
  const limit = me.headers.get('ratelimit-limit');
  if (limit !== '1000000') throw new Error(`the API key's RateLimit-Limit is ${limit}, expected 1000000`);
  await api.expect(200, 'GET', '/api/v1/users/me', { token });

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
  if (service.output.length) {
    log(`the service logged ${service.output.length} line(s) at LOG_LEVEL=warn during the run:`);
    service.printOutput(10);
  }
  if (failed.length) {
    for (const r of failed) log(`FAILED: ${r.label} (GET ${r.path}) had failed requests: ${r.statuses}`);
    return 1;
  }
  if (!met && settings.strict) return 2;
  return 0;
}

await runBench(main, cleanup, {
  budgetMs: 60_000 + 3 * (settings.warmup + settings.duration + 10) * 1000 + 30_000,
  onFailure: () => service?.printOutput(),
});
