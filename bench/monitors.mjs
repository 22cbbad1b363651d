#!/usr/bin/env node
// Monitor benchmark: 10,000 HTTP monitors at a 60 s interval against a local target server, one service process
// per role (api, worker, scheduler) on this machine, measured for 5 minutes of steady state; then the uptime read
// with 30 days of history for 1,000 monitors, under the same load.
//
//   npm run bench:monitors            (node bench/monitors.mjs; builds first only when dist/ lacks the service)
//
// Phases, in one run:
//   1. Starts a target server in this process (one small HTML page per monitor; 1 in 100 pages changes every two
//      minutes, 1 in 20 carries a tracked price, 1 in 10 a required keyword), and three service processes:
//      ROLE=api, ROLE=worker and ROLE=scheduler, on a throw-away PostgreSQL database and Redis prefix.
//   2. Creates the monitors through POST /api/v1/monitors (an administrator's API key, rate limit raised) and seeds
//      30 days of hourly uptime rollups (what the worker would have written) for the first 1,000 of them.
//   3. Warm-up (BENCH_WARMUP s): every monitor's first check lands at random within its first interval.
//   4. Measures BENCH_DURATION s: checks recorded per second, schedule lag (scheduled_for → checked_at, the moment
//      the worker starts the check, of scheduled checks from monitor_checks), PostgreSQL rows written per second
//      (pg_stat_database), queue depth and overdue monitors every second (the backlog), RSS and CPU of each process.
//   5. GET /api/v1/monitors/{id}/uptime for random seeded monitors while the checks go on: p50/p99 per history.
// A markdown table goes to stdout; progress to stderr. Everything made is removed at the end, also on failure or
// Ctrl-C. Traffic goes to 127.0.0.1 only.
//
// Settings (environment):
//   BENCH_MONITORS=10000        monitors
//   BENCH_INTERVAL=60           their interval, seconds (30 or more)
//   BENCH_DURATION=300          seconds measured
//   BENCH_WARMUP=75             seconds between the last monitor's creation and the measurement
//   BENCH_UPTIME_MONITORS=1000  monitors given 30 days of rollups
//   BENCH_UPTIME_REQUESTS=2000  uptime reads per history (24h and 30d)
//   BENCH_UPTIME_CONNECTIONS=4  uptime reads at once
//   BENCH_CHECK_CONCURRENCY     the worker's CHECK_CONCURRENCY (default: the service's own, 50)
//   BENCH_ASSERTIONS=0          1: every monitor also has five response assertions (status code, response time, a
//                               header, an RE2 pattern on the body and a CSS-selected text), all holding
//   BENCH_PORT, BENCH_PG_URL, BENCH_REDIS_URL, BENCH_BUILD=1 (or --build), BENCH_STRICT=1 (exit 2 when a target
//   is missed), BENCH_NODE_OPTIONS (NODE_OPTIONS for the three processes): as in the other benchmarks.

import { createServer as createHttpServer } from 'node:http';
import { cpus, totalmem } from 'node:os';
import { Redis } from 'ioredis';
import {
  ensureBuilt,
  fmt,
  HOST,
  intSetting,
  log,
  mb,
  pct,
  percentile,
  runPool,
  serviceSettings,
  sleep,
} from './lib/common.mjs';
import { closeServer, listenLocal } from './lib/http.mjs';
import { cpuSeconds, machineTicks, statusFields } from './lib/procfs.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const TARGET_LAG_P99_MS = 2000;
const TARGET_UPTIME_P99_MS = 50;
const SAMPLE_MS = 1000;
const REGION = 'local';
const QUEUE = `monitor-checks-${REGION}`;

const settings = {
  ...serviceSettings(),
  monitors: intSetting('BENCH_MONITORS', 10_000, 1, 100_000),
  interval: intSetting('BENCH_INTERVAL', 60, 30, 3600),
  duration: intSetting('BENCH_DURATION', 300, 10, 3600),
  warmup: intSetting('BENCH_WARMUP', 75, 0, 3600),
  uptimeMonitors: intSetting('BENCH_UPTIME_MONITORS', 1000, 1, 100_000),
  uptimeRequests: intSetting('BENCH_UPTIME_REQUESTS', 2000, 10, 1_000_000),
  uptimeConnections: intSetting('BENCH_UPTIME_CONNECTIONS', 4, 1, 64),
  checkConcurrency: intSetting('BENCH_CHECK_CONCURRENCY', 0, 0, 1000),
  assertions: intSetting('BENCH_ASSERTIONS', 0, 0, 1) === 1,
};

/** Five conditions every target page meets: what an API-style monitor asks of each response. */
const ASSERTIONS = [
  { type: 'status', operator: 'equals', value: '200' },
  { type: 'response_time', operator: 'less_than', value: '5000' },
  { type: 'header', property: 'content-type', operator: 'contains', value: 'text/html' },
  { type: 'body_regex', operator: 'matches', value: 'quick brown fox' },
  { type: 'css_text', property: 'h1', operator: 'exists' },
];
const expectedRate = settings.monitors / settings.interval;
const run = new BenchRun(settings);

// ---------------------------------------------------------------------------------------------------------------
// The target server: /m/N, 3–4 KB of HTML per monitor

const PARAGRAPH =
  'Vigil watches this page on a schedule. The quick brown fox jumps over the lazy dog while the release train ' +
  'waits at the platform for its last reviewer. Prices, opening hours and contact details live further down. ';

function targetPage(n, now) {
  const changing = n % 100 === 0 ? ` Edition ${Math.floor(now / 120_000)}.` : '';
  const price = n % 20 === 0 ? `<p>Price: <span class="price">$${(19 + (n % 7)).toFixed(2)}</span></p>` : '';
  return (
    `<!doctype html><html><head><title>Page ${n}</title><meta name="robots" content="index,follow"></head>` +
    `<body><header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header><main>` +
    `<h1>Page ${n}</h1><p>Status: operational.${changing}</p>${price}` +
    `${Array.from({ length: 16 }, (_, i) => `<p>${i + 1}. ${PARAGRAPH}</p>`).join('')}` +
    `</main><footer>© Vigil bench</footer></body></html>`
  );
}

let targetRequests = 0;

async function startTargetServer() {
  const server = createHttpServer((request, response) => {
    targetRequests += 1;
    const match = /^\/m\/(\d+)$/.exec(request.url ?? '');
    if (!match) {
      response.writeHead(404).end();
      return;
    }
    const body = targetPage(Number(match[1]), Date.now());
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
  server.keepAliveTimeout = 120_000;
  return { base: await listenLocal(server), close: () => closeServer(server) };
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding

/** 0 … count-1, for runPool over a number of requests. */
const indices = (count) => Array.from({ length: count }, (_, i) => i);

async function createMonitors(api, apiKey, targetBase) {
  const started = Date.now();
  let lastLog = started;
  await runPool(indices(settings.monitors), 8, async (n) => {
    await api.expect(201, 'POST', '/api/v1/monitors', {
      apiKey,
      body: {
        name: `Bench page ${n}`,
        url: `${targetBase}/m/${n}`,
        interval_seconds: settings.interval,
        timeout_seconds: 10,
        ...(n % 10 === 0 ? { keyword: 'operational' } : {}),
        ...(n % 20 === 0 ? { tracked_values: [{ name: 'price', selector: '.price', kind: 'price' }] } : {}),
        ...(settings.assertions ? { assertions: ASSERTIONS } : {}),
      },
    });
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(`created ${n + 1} of ${settings.monitors} monitors`);
    }
  });
  return (Date.now() - started) / 1000;
}

/**
 * 30 days of hourly rollups, all but the current hour (the live checks write that one), in the order the worker
 * writes them, so one monitor's hours lie on different pages as they would after a month of checks.
 */
async function seedRollups(db) {
  const started = Date.now();
  const result = await db.query(
    `insert into monitor_check_rollups (monitor_id, region, hour, checks, passed, response_ms_sum)
     select m.id, $1, h.hour, 60, 60 - (random() < 0.02)::int * (1 + floor(random() * 10))::int,
            60 * (20 + floor(random() * 80))::bigint
     from (select id from monitors order by created_at, id limit $2) m,
          generate_series(date_trunc('hour', now()) - interval '719 hours',
                          date_trunc('hour', now()) - interval '1 hour', interval '1 hour') as h(hour)
     order by h.hour, m.id -- as the worker writes them: one hour of every monitor, then the next
     on conflict do nothing`,
    [REGION, settings.uptimeMonitors],
  );
  const { rows } = await db.query('select id from monitors order by created_at, id limit $1', [
    settings.uptimeMonitors,
  ]);
  return { rows: result.rowCount, seconds: (Date.now() - started) / 1000, ids: rows.map((row) => row.id) };
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

/** Rows written so far in the run's database, and per table. */
async function writeCounters(db) {
  await db.query('select pg_stat_force_next_flush()').catch(() => undefined); // PostgreSQL 15+: fresher counters
  await db.query('select pg_stat_clear_snapshot()');
  const { rows: database } = await db.query(
    `select tup_inserted::float8 as ins, tup_updated::float8 as upd, tup_deleted::float8 as del,
            xact_commit::float8 as commits
     from pg_stat_database where datname = current_database()`,
  );
  const { rows: tables } = await db.query(
    `select relname, (n_tup_ins + n_tup_upd + n_tup_del)::float8 as written from pg_stat_user_tables`,
  );
  return { ...database[0], tables: Object.fromEntries(tables.map((row) => [row.relname, row.written])) };
}

async function backlog(db, redis) {
  const key = (state) => `${run.redisPrefix}:${QUEUE}:${state}`;
  const [[, waiting], [, active], [, delayed]] = await redis
    .multi()
    .llen(key('wait'))
    .llen(key('active'))
    .zcard(key('delayed'))
    .exec();
  const { rows } = await db.query(
    `select count(*)::int as overdue from monitors where not paused and next_check_at < now() - interval '2 seconds'`,
  );
  return { waiting, active, delayed, overdue: rows[0].overdue };
}

async function measureLoad(db, services) {
  const redis = new Redis(settings.redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const samples = [];
    const peakRss = Object.fromEntries(services.map((service) => [service.role, 0]));
    const rssNow = () => Object.fromEntries(services.map((service) => [service.role, statusFields(service.pid).VmRSS]));
    const sampleRss = () => {
      for (const [role, rss] of Object.entries(rssNow())) peakRss[role] = Math.max(peakRss[role], rss ?? 0);
    };
    const startRss = rssNow();
    const writesBefore = await writeCounters(db);
    const cpuBefore = cpuSeconds(services);
    const machineBefore = machineTicks();
    const startedAt = new Date();
    const requestsBefore = targetRequests;
    const endsAt = Date.now() + settings.duration * 1000;
    let lastLog = Date.now();
    while (Date.now() < endsAt) {
      const sampleStarted = Date.now();
      const crashed = services.find((service) => service.exit);
      if (crashed) throw new Error(`the ${crashed.role} process exited during the measurement`);
      sampleRss();
      const depth = await backlog(db, redis);
      samples.push({ t: (Date.now() - startedAt.getTime()) / 1000, ...depth });
      if (Date.now() - lastLog >= 30_000) {
        lastLog = Date.now();
        log(
          `${Math.round((Date.now() - startedAt.getTime()) / 1000)} s: queue waiting ${depth.waiting}, ` +
            `active ${depth.active}, overdue monitors ${depth.overdue}`,
        );
      }
      await sleep(Math.max(0, Math.min(SAMPLE_MS - (Date.now() - sampleStarted), endsAt - Date.now())));
    }
    const endedAt = new Date();
    sampleRss();
    const endRss = rssNow();
    const seconds = (endedAt - startedAt) / 1000;
    const cpuAfter = cpuSeconds(services);
    const machineAfter = machineTicks();
    const writesAfter = await writeCounters(db);

    const { rows: checkRows } = await db.query(
      `select count(*)::int as checks,
              count(*) filter (where not ok)::int as failed,
              count(*) filter (where trigger = 'scheduled')::int as scheduled,
              percentile_cont(0.5) within group (order by response_time_ms) as response_p50,
              percentile_cont(0.99) within group (order by response_time_ms) as response_p99
       from monitor_checks where checked_at >= $1 and checked_at < $2`,
      [startedAt, endedAt],
    );
    const { rows: lagRows } = await db.query(
      `select extract(epoch from checked_at - scheduled_for) * 1000 as lag_ms
       from monitor_checks where trigger = 'scheduled' and checked_at >= $1 and checked_at < $2`,
      [startedAt, endedAt],
    );
    const { rows: changeRows } = await db.query(
      `select count(*)::int as changes from changes where detected_at >= $1 and detected_at < $2`,
      [startedAt, endedAt],
    );
    const lags = Float64Array.from(lagRows, (row) => Number(row.lag_ms)).sort();
    // Falling behind shows as lag that grows minute by minute.
    const { rows: minuteRows } = await db.query(
      `select floor(extract(epoch from checked_at - $1::timestamptz) / 60) as minute,
              percentile_cont(0.99) within group (order by extract(epoch from checked_at - scheduled_for) * 1000) as p99
       from monitor_checks where trigger = 'scheduled' and checked_at >= $1 and checked_at < $2
       group by minute order by minute`,
      [startedAt, endedAt],
    );
    const written = (counters) => counters.ins + counters.upd + counters.del;
    const tableWrites = Object.entries(writesAfter.tables)
      .map(([name, value]) => [name, (value - (writesBefore.tables[name] ?? 0)) / seconds])
      .filter(([, perSecond]) => perSecond > 0.05)
      .sort(([, a], [, b]) => b - a);
    const cpu = Object.fromEntries(
      Object.keys(cpuAfter).map((name) => [name, (cpuAfter[name] - cpuBefore[name]) / seconds]),
    );
    const machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    const lifetimePeakRss = Object.fromEntries(
      services.map((service) => [service.role, statusFields(service.pid).VmHWM ?? NaN]),
    );
    return {
      seconds,
      checks: checkRows[0],
      checksPerSecond: checkRows[0].checks / seconds,
      targetRequestsPerSecond: (targetRequests - requestsBefore) / seconds,
      changes: changeRows[0].changes,
      lag: {
        count: lags.length,
        p50: percentile(lags, 50),
        p99: percentile(lags, 99),
        max: lags.length ? lags[lags.length - 1] : NaN,
        p99ByMinute: minuteRows.map((row) => Number(row.p99)),
      },
      rowsPerSecond: (written(writesAfter) - written(writesBefore)) / seconds,
      commitsPerSecond: (writesAfter.commits - writesBefore.commits) / seconds,
      tableWrites,
      samples,
      cpu,
      machineBusy,
      peakRss,
      startRss,
      endRss,
      lifetimePeakRss,
    };
  } finally {
    redis.disconnect();
  }
}

/** Backlog (jobs waiting + monitors overdue) over the first and the last minute of the window. */
function backlogTrend(samples) {
  const total = (sample) => sample.waiting + sample.overdue;
  const average = (list) => list.reduce((sum, sample) => sum + total(sample), 0) / Math.max(1, list.length);
  const last = samples.at(-1)?.t ?? 0;
  const first = average(samples.filter((sample) => sample.t < 60));
  const final = average(samples.filter((sample) => sample.t >= last - 60));
  const max = Math.max(0, ...samples.map(total));
  return { first, final, max, growth: final - first };
}

async function measureUptime(api, apiKey, ids, history) {
  const times = [];
  let failures = 0;
  const path = (id) => `/api/v1/monitors/${id}/uptime${history === '24h' ? '' : `?history=${history}`}`;
  // One answer checked for what it must say: the seeded 30 days are in it (but their oldest hour, when an hour has
  // begun since the seeding: the 30-day window moves with the clock).
  const sample = await api.expect(200, 'GET', path(ids[0]), { apiKey });
  if (!(sample.json?.checks?.['30d'] >= 718 * 60)) {
    throw new Error(`the uptime of a seeded monitor counts too few checks: ${sample.text.slice(0, 300)}`);
  }
  const read = (id) => api.call('GET', path(id), { apiKey });
  await runPool(indices(100), settings.uptimeConnections, (n) => read(ids[n % ids.length])); // warm-up, not measured
  await runPool(indices(settings.uptimeRequests), settings.uptimeConnections, async () => {
    const id = ids[Math.floor(Math.random() * ids.length)];
    const started = performance.now();
    const result = await read(id);
    times.push(performance.now() - started);
    if (result.status !== 200) failures += 1;
  });
  const sorted = Float64Array.from(times).sort();
  return {
    history,
    requests: times.length,
    failures,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1),
    points: sample.json.response_times.length,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function report(load, trend, uptime, creation, seeded) {
  const lagMet = load.lag.p99 < TARGET_LAG_P99_MS;
  const uptimeP99 = Math.max(...uptime.map((row) => row.p99));
  const uptimeMet = uptimeP99 < TARGET_UPTIME_P99_MS;
  // No growth: the backlog at the end is within one second of checks of what it was at the start, and the last
  // minute's lag is within half a second of the first minute's.
  const minutes = load.lag.p99ByMinute;
  const backlogMet = trend.growth <= expectedRate && (minutes.at(-1) ?? 0) <= (minutes[0] ?? 0) + 500;
  const keptUp = load.checksPerSecond >= expectedRate * 0.97;
  const verdict = (met) => (met ? 'met' : '**not met**');
  const roles = Object.keys(load.peakRss);

  console.log(
    `## Monitors benchmark (${settings.monitors} monitors every ${settings.interval} s` +
      `${settings.assertions ? `, ${ASSERTIONS.length} assertions each` : ''}, ${fmt(load.seconds, 0)} s measured)\n\n` +
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${mb(totalmem())} RAM; Node ${process.versions.node}. ` +
      `Processes: ${roles.join(', ')} (one each), PostgreSQL, Redis, and this bench with the target server.\n`,
  );
  console.log('| figure | value | target |\n| --- | ---: | --- |');
  const rows = [
    [
      'checks recorded per second (sustained)',
      `${fmt(load.checksPerSecond, 1)} (due: ${fmt(expectedRate, 1)})`,
      `keep up: ${verdict(keptUp)}`,
    ],
    [
      'backlog (jobs waiting + overdue monitors), first → last minute, max',
      `${fmt(trend.first, 0)} → ${fmt(trend.final, 0)}, max ${trend.max}`,
      `no growth: ${verdict(backlogMet)}`,
    ],
    ['schedule lag p50 (due → check starts)', `${fmt(load.lag.p50, 0)} ms`, ''],
    ['schedule lag p99', `${fmt(load.lag.p99, 0)} ms`, `< ${TARGET_LAG_P99_MS} ms: ${verdict(lagMet)}`],
    ['schedule lag max', `${fmt(load.lag.max, 0)} ms`, ''],
    ['schedule lag p99, minute by minute', minutes.map((value) => fmt(value, 0)).join(', ') + ' ms', ''],
    ['PostgreSQL rows written per second', fmt(load.rowsPerSecond, 0), ''],
    ['PostgreSQL commits per second', fmt(load.commitsPerSecond, 0), ''],
    ...uptime.map((row) => [
      `\`GET /monitors/{id}/uptime${row.history === '24h' ? '' : `?history=${row.history}`}\` p50 / p99 / max ` +
        `(${row.requests} reads, ${settings.uptimeConnections} at once, ${row.points} points)`,
      `${fmt(row.p50)} / ${fmt(row.p99)} / ${fmt(row.max)} ms`,
      `p99 < ${TARGET_UPTIME_P99_MS} ms: ${verdict(row.p99 < TARGET_UPTIME_P99_MS)}`,
    ]),
    ...roles.map((role) => [
      `RSS of the ${role} process: window start → end, peak in the window / whole run`,
      `${mb(load.startRss[role])} → ${mb(load.endRss[role])}, ${mb(load.peakRss[role])} / ${mb(load.lifetimePeakRss[role])}`,
      '',
    ]),
  ];
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);

  const cpuParts = Object.entries(load.cpu)
    .sort(([, a], [, b]) => b - a)
    .map(([name, share]) => `${name} ${pct(share)}`)
    .join(', ');
  console.log(
    `\nCPU in the window, share of one core: ${cpuParts}; the machine was ${pct(load.machineBusy)} busy.` +
      `\nRows written per second by table: ${load.tableWrites.map(([name, value]) => `${name} ${fmt(value, 0)}`).join(', ')}.` +
      `\nChecks in the window: ${load.checks.checks} (${load.checks.scheduled} scheduled, ${load.checks.failed} failed); ` +
      `response time p50 ${fmt(load.checks.response_p50, 0)} ms, p99 ${fmt(load.checks.response_p99, 0)} ms; ` +
      `${load.changes} content or value changes; the target server answered ${fmt(load.targetRequestsPerSecond, 1)} ` +
      `requests/s.` +
      `\nSet-up: ${settings.monitors} monitors created through the API in ${fmt(creation, 1)} s ` +
      `(${fmt(settings.monitors / creation, 0)}/s); ${seeded.rows} rollup rows (30 days × ${settings.uptimeMonitors} ` +
      `monitors) seeded in ${fmt(seeded.seconds, 1)} s.\n`,
  );
  return keptUp && backlogMet && lagMet && uptimeMet;
}

// ---------------------------------------------------------------------------------------------------------------

let targetServer = null;

async function main() {
  ensureBuilt(settings.build);
  targetServer = await startTargetServer();
  const targetBase = targetServer.base;
  const port = settings.port || (await freePort());
  const api = new ApiClient(`http://${HOST}:${port}`);
  // The bench's workspace may hold every monitor it creates: its plan's limit is raised by configuration.
  const roomy = { monitors: settings.monitors, checks_per_month: 1e12, release_checks_per_month: 500 };
  const shared = { ALLOW_PRIVATE_TARGETS: 'true', REGIONS: REGION, PLANS: JSON.stringify({ free: roomy }) };

  log(`starting the api process on port ${port} (database ${run.dbName}, Redis prefix ${run.redisPrefix})`);
  const apiProcess = run.start({ ...shared, ROLE: 'api', PORT: String(port) });
  await api.waitUntilReady(apiProcess);
  // The start-up line is at info level; later lines only at warn and above.
  const quietStart = { LOG_LEVEL: 'info' };
  const worker = run.start({
    ...shared,
    ...quietStart,
    ROLE: 'worker',
    ...(settings.checkConcurrency ? { CHECK_CONCURRENCY: String(settings.checkConcurrency) } : {}),
  });
  const scheduler = run.start({ ...shared, ...quietStart, ROLE: 'scheduler' });
  await Promise.all([worker.waitForLine(/vigil worker started/), scheduler.waitForLine(/vigil scheduler started/)]);
  const services = [apiProcess, worker, scheduler];
  log('api, worker and scheduler are up');

  for (const service of services) service.output.length = 0; // start-up went fine; keep what follows
  const { secret } = await api.adminKey(run, ['monitors:read', 'monitors:write']);
  log(`creating ${settings.monitors} monitors at ${settings.interval} s against ${targetBase}`);
  const creation = await createMonitors(api, secret, targetBase);
  log(`created in ${fmt(creation, 1)} s; seeding 30 days of rollups for ${settings.uptimeMonitors} monitors`);
  const db = await run.database();
  try {
    const seeded = await seedRollups(db);
    log(`seeded ${seeded.rows} rollup rows in ${fmt(seeded.seconds, 1)} s; warming up for ${settings.warmup} s`);
    await sleep(settings.warmup * 1000);

    log(`measuring for ${settings.duration} s`);
    const load = await measureLoad(db, services);
    log(
      `${fmt(load.checksPerSecond, 1)} checks/s, lag p50 ${fmt(load.lag.p50, 0)} ms p99 ${fmt(load.lag.p99, 0)} ms; ` +
        'now the uptime reads, under the same load',
    );
    const uptime = [];
    for (const history of ['24h', '30d']) uptime.push(await measureUptime(api, secret, seeded.ids, history));

    console.log('');
    const met = report(load, backlogTrend(load.samples), uptime, creation, seeded);
    const warnings = services.flatMap((service) =>
      service.output.filter((line) => /"level":(4|5)0/.test(line)).map((line) => `${service.role}: ${line}`),
    );
    if (warnings.length) {
      log(`the services logged ${warnings.length} warning(s) or error(s) (last 10):`);
      for (const line of warnings.slice(-10)) console.error(line);
    }
    return !met && settings.strict ? 2 : 0;
  } finally {
    await db.end();
  }
}

await runBench(
  main,
  async () => {
    await run.cleanup();
    await targetServer?.close();
  },
  {
    budgetMs: (settings.duration + settings.warmup + 900) * 1000,
    onFailure: () => run.printOutput(),
  },
);
