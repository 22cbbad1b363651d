#!/usr/bin/env node
// Public status page benchmark: visitors reading one published page through two API instances.
//
//   npm run bench:status            (node bench/status.mjs; builds first only when dist/ lacks the service)
//
// Starts two ROLE=api processes on one throw-away PostgreSQL database and Redis prefix, creates BENCH_MONITORS
// monitors through the API, writes 90 days of hourly rollups for each straight into monitor_check_rollups (as the
// recorder writes them: one row per monitor, region and hour), and publishes a page of BENCH_COMPONENTS components
// that share the monitors out. Then autocannon reads `GET /api/v1/status-pages/public/{slug}` with BENCH_CONNECTIONS
// connections split over the two instances (warm-up, then a measured run), and the same for the HTML page at
// `/status/{slug}`. Reported: requests a second (both instances together), p50 and p99 latency, the size of an answer,
// how many times the page was computed from the database meanwhile (PostgreSQL's commit and row counters of the
// database before and after the measured run), and CPU per process. A markdown table goes to stdout, progress to
// stderr. Everything made is removed at the end, also on failure or Ctrl-C.
//
// Settings (environment):
//   BENCH_MONITORS=200     monitors
//   BENCH_COMPONENTS=20    components of the page (monitors dealt out evenly)
//   BENCH_CONNECTIONS=50   concurrent connections, half to each instance
//   BENCH_DURATION=10      seconds of each measured run
//   BENCH_WARMUP=3         seconds of warm-up before each (not reported)
//   BENCH_PG_URL, BENCH_REDIS_URL, BENCH_BUILD=1 (or --build), BENCH_STRICT=1 (exit 2 when a target is missed),
//   BENCH_NODE_OPTIONS: as in the other benchmarks.

import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { ensureBuilt, fmt, HOST, intSetting, log, percentile, serviceSettings } from './lib/common.mjs';
import { cpuSeconds } from './lib/procfs.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const TARGET_RPS = 2000;
const TARGET_P99_MS = 50;
const HISTORY_DAYS = 90;

const settings = {
  ...serviceSettings(),
  monitors: intSetting('BENCH_MONITORS', 200, 1, 10_000),
  components: intSetting('BENCH_COMPONENTS', 20, 1, 50),
  connections: intSetting('BENCH_CONNECTIONS', 50, 2, 1000),
  duration: intSetting('BENCH_DURATION', 10, 1, 600),
  warmup: intSetting('BENCH_WARMUP', 3, 0, 120),
};
const run = new BenchRun(settings);
/** The bench's workspace may hold every monitor it creates: its plan's limit is raised by configuration. */
const roomyPlan = () => ({
  PLANS: JSON.stringify({
    free: { monitors: settings.monitors, checks_per_month: 1e12, release_checks_per_month: 500 },
  }),
  // No check runs (no scheduler, and the monitors are paused at once): their URLs only have to be accepted.
  ALLOW_PRIVATE_TARGETS: 'true',
});
const running = new Set();

/** autocannon against every base URL at once, connections split evenly; every response time kept (float ms). */
async function hammer(baseUrls, path, seconds) {
  const times = [];
  let requests = 0;
  let bytes = 0;
  let failed = 0;
  const perInstance = Math.max(1, Math.floor(settings.connections / baseUrls.length));
  await Promise.all(
    baseUrls.map((baseUrl) => {
      const instance = autocannon({
        url: `${baseUrl}${path}`,
        connections: perInstance,
        duration: seconds,
        timeout: 10,
      });
      running.add(instance);
      instance.on('response', (_client, status, size, time) => {
        times.push(time);
        if (status !== 200) failed += 1;
      });
      return instance.then((result) => {
        running.delete(instance);
        requests += result.requests.total;
        bytes += result.throughput.total;
        failed += result.errors + result.timeouts;
      });
    }),
  );
  const sorted = Float64Array.from(times).sort();
  return {
    rps: requests / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    size: requests ? bytes / requests : NaN,
    failed,
  };
}

async function databaseWork(db) {
  const { rows } = await db.query(
    `select xact_commit + xact_rollback as transactions, tup_returned + tup_fetched as rows_read
     from pg_stat_database where datname = current_database()`,
  );
  return { transactions: Number(rows[0].transactions), rowsRead: Number(rows[0].rows_read) };
}

async function setUp(api, db) {
  const { secret } = await api.adminKey(run, ['monitors:read', 'monitors:write']);
  const ids = [];
  log(`creating ${settings.monitors} monitors`);
  for (let index = 0; index < settings.monitors; index++) {
    const created = await api.expect(201, 'POST', '/api/v1/monitors', {
      apiKey: secret,
      body: { name: `Service ${index}`, url: `http://127.0.0.1/service-${index}`, regions: ['local'] },
    });
    ids.push(created.json.id);
  }
  // Pause them: the bench measures reads, and no check must run against example.com.
  await db.query('update monitors set paused = true, next_check_at = null');
  log(
    `writing ${HISTORY_DAYS} days of hourly rollups (${(settings.monitors * HISTORY_DAYS * 24).toLocaleString()} rows)`,
  );
  await db.query(
    `insert into monitor_check_rollups (monitor_id, region, hour, checks, passed, response_ms_sum)
     select m, 'local', h, 60, case when random() < 0.01 then 55 else 60 end, 60 * (100 + (random() * 200)::int)
     from unnest($1::uuid[]) as m,
          generate_series(date_trunc('hour', now()) - interval '${HISTORY_DAYS * 24 - 1} hours',
                          date_trunc('hour', now()), interval '1 hour') as h`,
    [ids],
  );
  await db.query('vacuum analyze monitor_check_rollups');
  const perComponent = Math.ceil(ids.length / settings.components);
  const components = Array.from({ length: settings.components }, (_, index) => ({
    name: `Component ${index + 1}`,
    monitor_ids: ids.slice(index * perComponent, (index + 1) * perComponent),
  })).filter((component) => component.monitor_ids.length);
  const slug = `bench-${run.id}`;
  await api.expect(201, 'POST', '/api/v1/status-pages', {
    apiKey: secret,
    body: { slug, title: 'Bench status', published: true, components },
  });
  return slug;
}

async function main() {
  ensureBuilt(settings.build);
  const ports = [settings.port || (await freePort()), await freePort()];
  const apis = ports.map((port) => new ApiClient(`http://${HOST}:${port}`));
  log(`starting two api processes on ports ${ports.join(' and ')} (database ${run.dbName})`);
  const services = [run.start({ ...roomyPlan(), ROLE: 'api', PORT: String(ports[0]) })];
  await apis[0].waitUntilReady(services[0]);
  services.push(run.start({ ...roomyPlan(), ROLE: 'api', PORT: String(ports[1]) }));
  await apis[1].waitUntilReady(services[1]);
  const db = await run.database();
  try {
    const slug = await setUp(apis[0], db);
    const baseUrls = apis.map((api) => api.baseUrl);
    const results = [];
    for (const [label, path] of [
      ['JSON', `/api/v1/status-pages/public/${slug}`],
      ['HTML', `/status/${slug}`],
    ]) {
      if (settings.warmup) {
        log(`${label}: warm-up ${settings.warmup} s`);
        await hammer(baseUrls, path, settings.warmup);
      }
      log(`${label}: measuring ${settings.duration} s with ${settings.connections} connections over two instances`);
      const named = services.map((service, index) => ({ role: `api ${index + 1}`, pid: service.pid }));
      const [cpuBefore, dbBefore] = [cpuSeconds(named), await databaseWork(db)];
      const result = await hammer(baseUrls, path, settings.duration);
      const [cpuAfter, dbAfter] = [cpuSeconds(named), await databaseWork(db)];
      results.push({
        label,
        path,
        ...result,
        cpu: ['api 1', 'api 2', 'postgres', 'redis'].map(
          (name) => (cpuAfter[name] - cpuBefore[name]) / settings.duration,
        ),
        // Our own two counter reads are transactions too.
        transactions: dbAfter.transactions - dbBefore.transactions - 1,
        rowsRead: dbAfter.rowsRead - dbBefore.rowsRead,
      });
    }
    return report(results);
  } finally {
    await db.end();
  }
}

function report(results) {
  const met = results.every((result) => result.rps >= TARGET_RPS && result.p99 < TARGET_P99_MS && !result.failed);
  console.log(
    [
      `Vigil public status page benchmark: ${settings.monitors} monitors in ${settings.components} components, ` +
        `${HISTORY_DAYS} days of hourly rollups; autocannon, ${settings.connections} connections over two ROLE=api ` +
        `instances, ${settings.duration} s after ${settings.warmup} s warm-up; Node ${process.versions.node}, ` +
        `${cpus().length} CPU(s) (${cpus()[0]?.model.trim() ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}.`,
      '',
      '| Answer | Req/s | p50 (ms) | p99 (ms) | Bytes each | Failed | DB transactions | CPU api 1 / api 2 / PostgreSQL / Redis (cores) |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...results.map(
        (r) =>
          `| ${r.label} \`${r.path.replace(/bench-\w+/, '{slug}')}\` | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ` +
          `${fmt(r.p99)} | ${fmt(r.size, 0)} | ${r.failed} | ${r.transactions} | ${r.cpu.map((c) => fmt(c)).join(' / ')} |`,
      ),
      '',
      `Target: ≥ ${TARGET_RPS} req/s and p99 < ${TARGET_P99_MS} ms: ${met ? 'met' : '**not met**'}.`,
      '',
    ].join('\n'),
  );
  return met || !settings.strict ? 0 : 2;
}

await runBench(
  main,
  async () => {
    for (const instance of running) instance.stop();
    await run.cleanup();
  },
  { budgetMs: 15 * 60_000, onFailure: () => run.printOutput() },
);
