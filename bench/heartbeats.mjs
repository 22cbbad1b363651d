#!/usr/bin/env node
// Heartbeat benchmark (issue #29): pings a second that ONE API instance takes, and their latency, with the pings
// spread over 2,000 heartbeat monitors that are up (the steady state: routine pings, written in batches by the
// routine check writer); then whether every ping answered 200 was written.
//
//   npm run bench:heartbeats          (node bench/heartbeats.mjs; builds first only when dist/ lacks the service)
//
// Phases, in one run:
//   1. Starts three service processes, ROLE=api (the measured instance), ROLE=worker and ROLE=scheduler, on a
//      throw-away PostgreSQL database and Redis prefix. The api process gets HEARTBEAT_PINGS_PER_MINUTE=1000000: at
//      2,000 pings/s over 2,000 monitors each token is pinged about 60 times a minute, the default ceiling, so the
//      per-token limit is raised rather than spread over more monitors (every ping still goes through the limiter,
//      one Redis call each).
//   2. Creates BENCH_HEARTBEATS heartbeat monitors through POST /api/v1/monitors (an administrator's API key, rate
//      limit raised; interval 1 h, grace 5 min, so the scheduler finds no missed slot) and pings each once, which
//      moves it from pending to up (the full, transactional way); checks that all are up.
//   3. Warm-up (BENCH_WARMUP s, not reported): the load of phase 4.
//   4. Measures BENCH_DURATION s with autocannon in this process: BENCH_CONNECTIONS keep-alive connections, closed
//      loop (each connection sends its next ping when the last one is answered; no fixed or open-loop rate: the
//      helpers offer none, and autocannon's rate cap sends each second's quota in a burst). GET <ping_url>, round
//      robin over the monitors; 1 ping in BENCH_START_EVERY is a /start that the same connection follows at once with
//      the success ping of the same monitor (a job that reports its start: an UPDATE of its own, then a success ping
//      that carries the run time). Latency is every response's time (float ms from autocannon), pings/s those answered
//      200; CPU of each process and of PostgreSQL and Redis, RSS of the api process (sampled every second), PSS of
//      PostgreSQL's processes, and PostgreSQL commits and rows written a second.
//   5. Counts monitor_checks rows with trigger 'ping' written during the window and compares them with the success
//      pings answered 200: none may be missing; a few more are possible, as many as pings were still in flight
//      when autocannon stopped (the service records those, the bench never reads their answer).
// A markdown table goes to stdout; progress to stderr. Everything made is removed at the end, also on failure or
// Ctrl-C. Traffic goes to 127.0.0.1 only. With a closed loop, latency includes the queue the connections make once
// the service is saturated (Little's law: mean latency ≈ connections / throughput): fewer connections give lower
// latency up to the point where throughput drops.
//
// Settings (environment):
//   BENCH_HEARTBEATS=2000     heartbeat monitors
//   BENCH_CONNECTIONS=64      concurrent keep-alive connections
//   BENCH_DURATION=30         seconds measured
//   BENCH_WARMUP=5            seconds of the same load before the measurement (not reported)
//   BENCH_START_EVERY=10      1 ping in this many is a /start followed by its success ping (0: success pings only)
//   BENCH_PORT, BENCH_PG_URL, BENCH_REDIS_URL, BENCH_BUILD=1 (or --build), BENCH_STRICT=1 (exit 2 when a target
//   is missed), BENCH_NODE_OPTIONS (NODE_OPTIONS for the three processes): as in the other benchmarks.
// Exits 1 when a success ping answered 200 was not written, or a ping did not answer 200 (the bench or the service
// is broken, not slow).

import { cpus, totalmem } from 'node:os';
import autocannon from 'autocannon';
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
import { cpuSeconds, machineTicks, processTable, pssOf, statusFields } from './lib/procfs.mjs';
import { startTreeSampler } from './lib/sampler.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const TARGET_PINGS_PER_SECOND = 2000;
const TARGET_P99_MS = 50;
const REGION = 'local';
/** After a load run, long enough for the routine writer's last batch (10 ms window) and any in-flight ping. */
const SETTLE_MS = 1500;

const settings = {
  ...serviceSettings(),
  heartbeats: intSetting('BENCH_HEARTBEATS', 2000, 1, 100_000),
  connections: intSetting('BENCH_CONNECTIONS', 64, 1, 1000),
  duration: intSetting('BENCH_DURATION', 30, 1, 600),
  warmup: intSetting('BENCH_WARMUP', 5, 0, 120),
  startEvery: intSetting('BENCH_START_EVERY', 10, 0, 1000),
};
if (settings.startEvery === 1) {
  console.error('bench: BENCH_START_EVERY must be 0 (no /start) or 2 or more');
  process.exit(64);
}
const run = new BenchRun(settings);
const running = new Set();

// ---------------------------------------------------------------------------------------------------------------
// Seeding

/** 0 … count-1, for runPool over a number of requests. */
const indices = (count) => Array.from({ length: count }, (_, i) => i);

/** Creates the heartbeat monitors; resolves with their ping paths (/api/v1/ping/hb_…) and the seconds it took. */
async function createHeartbeats(api, apiKey) {
  const started = Date.now();
  let lastLog = started;
  const paths = await runPool(indices(settings.heartbeats), 8, async (n) => {
    const created = await api.expect(201, 'POST', '/api/v1/monitors', {
      apiKey,
      body: { name: `Bench job ${n}`, mode: 'heartbeat', schedule: { interval_seconds: 3600 }, grace_seconds: 300 },
    });
    const pingUrl = created.json?.ping_url;
    if (!pingUrl) throw new Error(`a heartbeat monitor came without ping_url: ${created.text.slice(0, 300)}`);
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(`created ${n + 1} of ${settings.heartbeats} heartbeat monitors`);
    }
    return new URL(pingUrl, api.baseUrl).pathname;
  });
  return { paths, seconds: (Date.now() - started) / 1000 };
}

/** One success ping each: pending → up, the full way. */
async function firstPings(api, paths) {
  const started = Date.now();
  await runPool(paths, 8, async (path) => {
    const answer = await api.expect(200, 'GET', path);
    if (!answer.json?.received_at) throw new Error(`GET ${path} answered without received_at: ${answer.text}`);
  });
  return (Date.now() - started) / 1000;
}

// ---------------------------------------------------------------------------------------------------------------
// Load

/**
 * autocannon's request cycle (each connection runs it over and over): with /start pings, [start of monitor m,
 * success of m, then startEvery - 2 success pings of the next monitors]; without, one success ping. Monitors are
 * taken round robin by all connections together.
 */
function requestCycle(paths, tally) {
  let next = 0;
  const take = () => {
    const path = paths[next];
    next = (next + 1) % paths.length;
    return path;
  };
  // onResponse runs just before the client's 'response' event for the same answer (autocannon's httpClient calls
  // them one after the other, synchronously): the kind of ping is noted here and read there, with the latency.
  const answered = (kind) => (status) => {
    tally.kind = kind;
    tally.statuses[kind].set(status, (tally.statuses[kind].get(status) ?? 0) + 1);
  };
  const success = {
    method: 'GET',
    setupRequest: (request) => ({ ...request, path: take() }),
    onResponse: answered('success'),
  };
  if (!settings.startEvery) return [success];
  return [
    {
      method: 'GET',
      setupRequest: (request, context) => {
        context.path = take();
        return { ...request, path: `${context.path}/start` };
      },
      onResponse: answered('start'),
    },
    {
      method: 'GET',
      setupRequest: (request, context) => ({ ...request, path: context.path }),
      onResponse: answered('success'),
    },
    ...Array.from({ length: settings.startEvery - 2 }, () => success),
  ];
}

/** A closed-loop run of `seconds`; every response's latency (float ms) by kind and every status by kind. */
async function pingLoad(baseUrl, paths, seconds) {
  const tally = { kind: null, statuses: { start: new Map(), success: new Map() } };
  const times = { start: [], success: [] };
  const instance = autocannon({
    url: baseUrl,
    connections: settings.connections,
    duration: seconds,
    timeout: 10,
    requests: requestCycle(paths, tally),
  });
  running.add(instance);
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    times[tally.kind ?? 'success'].push(responseTime);
    tally.kind = null;
  });
  try {
    const result = await instance;
    const answered = times.start.length + times.success.length;
    return {
      result,
      seconds: result.duration,
      statuses: tally.statuses,
      times,
      // Sent but never answered: the service still records these.
      inFlight: Math.max(0, result.requests.sent - answered - result.errors - result.timeouts),
    };
  } finally {
    running.delete(instance);
  }
}

const ok = (statuses) => statuses.get(200) ?? 0;
const total = (statuses) => [...statuses.values()].reduce((sum, count) => sum + count, 0);
const describe = (statuses) =>
  [...statuses.entries()]
    .filter(([status]) => status !== 200)
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(', ');

// ---------------------------------------------------------------------------------------------------------------
// Measuring

async function pingRows(db) {
  const { rows } = await db.query(
    `select count(*)::int as rows, count(*) filter (where not ok)::int as failed
     from monitor_checks where trigger = 'ping'`,
  );
  return rows[0];
}

/**
 * Commits (read-only transactions count too: every ping's read of its monitor is one), write transactions (the
 * cluster's next transaction id: only a transaction that writes takes one) and rows written so far in the run's
 * database, and rows written per table.
 */
async function writeCounters(db) {
  await db.query('select pg_stat_force_next_flush()').catch(() => undefined); // PostgreSQL 15+: fresher counters
  await db.query('select pg_stat_clear_snapshot()');
  const { rows: database } = await db.query(
    `select (tup_inserted + tup_updated + tup_deleted)::float8 as written, xact_commit::float8 as commits
     from pg_stat_database where datname = current_database()`,
  );
  const { rows: xid } = await db.query(`select pg_snapshot_xmax(pg_current_snapshot())::text::float8 as next`);
  const { rows: tables } = await db.query(
    `select relname, (n_tup_ins + n_tup_upd + n_tup_del)::float8 as written from pg_stat_user_tables`,
  );
  return {
    ...database[0],
    xid: xid[0].next,
    tables: Object.fromEntries(tables.map((row) => [row.relname, row.written])),
  };
}

/**
 * How the ping rows of the window were written: rows written by one transaction share its xmin, so the rows per
 * distinct xmin are the batch sizes (a ping written the full way is a transaction of one row).
 */
async function pingBatches(db, since) {
  const { rows } = await db.query(
    `select count(*)::int as transactions, sum(n)::int as rows, count(*) filter (where n = 1)::int as single,
            percentile_disc(0.5) within group (order by n) as p50, max(n)::int as max
     from (select xmin::text, count(*) as n from monitor_checks
           where trigger = 'ping' and checked_at >= $1 group by 1) batches`,
    [since],
  );
  const row = rows[0];
  return { ...row, p50: Number(row.p50), mean: row.rows / Math.max(1, row.transactions) };
}

/** PSS of all PostgreSQL processes (shared buffers counted once). */
function postgresPss() {
  let sum = 0;
  for (const [pid, entry] of processTable()) if (entry.comm === 'postgres') sum += pssOf(pid);
  return sum;
}

async function measure(db, services, apiProcess, baseUrl, paths) {
  const rowsBefore = await pingRows(db);
  const writesBefore = await writeCounters(db);
  const cpuBefore = cpuSeconds(services);
  const machineBefore = machineTicks();
  const rssStart = statusFields(apiProcess.pid).VmRSS;
  const startedAt = new Date();
  const sampler = startTreeSampler(apiProcess.pid, { everyMs: 1000, pssEvery: 5 });
  let load;
  try {
    load = await pingLoad(baseUrl, paths, settings.duration);
  } finally {
    sampler.stop();
  }
  const cpuAfter = cpuSeconds(services);
  const machineAfter = machineTicks();
  const rssEnd = statusFields(apiProcess.pid).VmRSS;
  const pgPss = postgresPss();
  const crashed = services.find((service) => service.exit);
  if (crashed) throw new Error(`the ${crashed.role} process exited during the measurement`);
  await sleep(SETTLE_MS);
  const rowsAfter = await pingRows(db);
  const writesAfter = await writeCounters(db);
  const batches = await pingBatches(db, startedAt);
  const seconds = load.seconds;
  const { rows: statusRows } = await db.query(
    `select status, count(*)::int as monitors from monitors group by status order by status`,
  );
  const sorted = (list) => Float64Array.from(list).sort();
  const all = sorted([...load.times.start, ...load.times.success]);
  const figures = (list) => ({
    count: list.length,
    p50: percentile(list, 50),
    p95: percentile(list, 95),
    p99: percentile(list, 99),
    max: list.length ? list[list.length - 1] : NaN,
  });
  const cpu = Object.fromEntries(
    Object.keys(cpuAfter).map((name) => [name, (cpuAfter[name] - cpuBefore[name]) / seconds]),
  );
  const tableWrites = Object.entries(writesAfter.tables)
    .map(([name, value]) => [name, (value - (writesBefore.tables[name] ?? 0)) / seconds])
    .filter(([, perSecond]) => perSecond > 0.05)
    .sort(([, a], [, b]) => b - a);
  const successOk = ok(load.statuses.success);
  const startOk = ok(load.statuses.start);
  return {
    seconds,
    load,
    pingsPerSecond: (successOk + startOk) / seconds,
    successPerSecond: successOk / seconds,
    perSecond: load.result.requests, // autocannon's answers a second (any status): min, average, max
    successOk,
    startOk,
    nonOk: {
      success: total(load.statuses.success) - successOk,
      start: total(load.statuses.start) - startOk,
    },
    latency: {
      all: figures(all),
      success: figures(sorted(load.times.success)),
      start: figures(sorted(load.times.start)),
    },
    rowsWritten: rowsAfter.rows - rowsBefore.rows,
    failedRows: rowsAfter.failed - rowsBefore.failed,
    totalRows: rowsAfter.rows,
    statusRows,
    cpu,
    machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
    commitsPerSecond: (writesAfter.commits - writesBefore.commits) / seconds,
    writeTransactionsPerSecond: (writesAfter.xid - writesBefore.xid) / seconds,
    batches,
    rowsPerSecond: (writesAfter.written - writesBefore.written) / seconds,
    tableWrites,
    rss: { start: rssStart, end: rssEnd, peak: sampler.stats.rootPeak, lifetime: statusFields(apiProcess.pid).VmHWM },
    pgPss,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function report(m, setup) {
  const verdict = (met) => (met ? 'met' : '**not met**');
  const rateMet = m.pingsPerSecond >= TARGET_PINGS_PER_SECOND;
  const p99Met = m.latency.all.p99 < TARGET_P99_MS;
  const failures = m.nonOk.success + m.nonOk.start + m.load.result.errors + m.load.result.timeouts;
  const missing = Math.max(0, m.successOk - m.rowsWritten);
  const extra = m.rowsWritten - m.successOk;
  // A success ping in flight or timed out at the end may have been written without the bench seeing its 200.
  const extraAllowed = m.load.inFlight + m.load.result.timeouts + m.load.result.errors;
  const writtenMet = missing === 0 && extra <= extraAllowed && m.failedRows === 0;
  const lat = (f) => `${fmt(f.p50)} / ${fmt(f.p95)} / ${fmt(f.p99)} / ${fmt(f.max)} ms`;
  const errorParts = [
    m.nonOk.success ? `success: ${describe(m.load.statuses.success)}` : '',
    m.nonOk.start ? `start: ${describe(m.load.statuses.start)}` : '',
    m.load.result.errors ? `connection errors ×${m.load.result.errors}` : '',
    m.load.result.timeouts ? `timeouts ×${m.load.result.timeouts}` : '',
  ].filter(Boolean);

  console.log(
    `## Heartbeats benchmark (${settings.heartbeats} heartbeat monitors, ${settings.connections} connections, ` +
      `closed loop, ${fmt(m.seconds, 0)} s measured)\n\n` +
      `Machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${mb(totalmem())} RAM; Node ` +
      `${process.versions.node}. Processes: api (measured), worker, scheduler (one each), PostgreSQL, Redis, and this ` +
      `bench (autocannon). ${settings.startEvery ? `1 ping in ${settings.startEvery} is a /start followed by its success ping` : 'Success pings only'}; ` +
      `HEARTBEAT_PINGS_PER_MINUTE=1000000 on the api process.\n`,
  );
  console.log('| figure | value | target |\n| --- | ---: | --- |');
  const rows = [
    [
      'pings answered 200 per second (start + success)',
      fmt(m.pingsPerSecond, 0),
      `≥ ${TARGET_PINGS_PER_SECOND}: ${verdict(rateMet)}`,
    ],
    ['success pings answered 200 per second', fmt(m.successPerSecond, 0), ''],
    [
      'answers per second, slowest / mean / fastest second',
      `${fmt(m.perSecond.min, 0)} / ${fmt(m.perSecond.average, 0)} / ${fmt(m.perSecond.max, 0)}`,
      '',
    ],
    [
      `latency p50 / p95 / p99 / max, all pings (${m.latency.all.count})`,
      lat(m.latency.all),
      `p99 < ${TARGET_P99_MS} ms: ${verdict(p99Met)}`,
    ],
    [`latency, success pings (${m.latency.success.count})`, lat(m.latency.success), ''],
    ...(settings.startEvery ? [[`latency, /start pings (${m.latency.start.count})`, lat(m.latency.start), '']] : []),
    ['pings not answered 200', errorParts.length ? errorParts.join('; ') : '0', `none: ${verdict(failures === 0)}`],
    [
      "monitor_checks rows with trigger 'ping' written in the window / success pings answered 200",
      `${m.rowsWritten} / ${m.successOk} (${m.load.inFlight} ping(s) in flight at the end)`,
      `none lost: ${verdict(writtenMet)}`,
    ],
    [
      'PostgreSQL commits per second (all) / write transactions per second',
      `${fmt(m.commitsPerSecond, 0)} / ${fmt(m.writeTransactionsPerSecond, 0)}`,
      '',
    ],
    [
      'ping rows per writing transaction: mean / p50 / max (transactions of one row)',
      `${fmt(m.batches.mean, 1)} / ${fmt(m.batches.p50, 0)} / ${m.batches.max} ` +
        `(${m.batches.single} of ${m.batches.transactions})`,
      '',
    ],
    ['PostgreSQL rows written per second', fmt(m.rowsPerSecond, 0), ''],
    [
      'RSS of the api process: window start → end, peak in the window / whole run',
      `${mb(m.rss.start)} → ${mb(m.rss.end)}, ${mb(m.rss.peak)} / ${mb(m.rss.lifetime)}`,
      '',
    ],
    ["PSS of PostgreSQL's processes at the end of the window", mb(m.pgPss), ''],
  ];
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);

  const cpuParts = Object.entries(m.cpu)
    .sort(([, a], [, b]) => b - a)
    .map(([name, share]) => `${name} ${pct(share)}`)
    .join(', ');
  console.log(
    `\nCPU in the window, share of one core: ${cpuParts}; the machine was ${pct(m.machineBusy)} busy.` +
      `\nRows written per second by table: ${m.tableWrites.map(([name, value]) => `${name} ${fmt(value, 0)}`).join(', ')}.` +
      `\nMonitors by status after the window: ${m.statusRows.map((row) => `${row.status} ${row.monitors}`).join(', ')}; ` +
      `${m.totalRows} ping rows in all (${m.failedRows} failed in the window).` +
      `\nSet-up: ${settings.heartbeats} heartbeat monitors created through the API in ${fmt(setup.creation, 1)} s ` +
      `(${fmt(settings.heartbeats / setup.creation, 0)}/s); their first pings (pending → up, the full way) in ` +
      `${fmt(setup.firstPings, 1)} s (${fmt(settings.heartbeats / setup.firstPings, 0)}/s, 8 at once).\n`,
  );
  return { met: rateMet && p99Met, broken: failures > 0 || !writtenMet };
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  ensureBuilt(settings.build);
  const port = settings.port || (await freePort());
  const baseUrl = `http://${HOST}:${port}`;
  const api = new ApiClient(baseUrl);
  // The bench's workspace may hold every monitor it creates: its plan's limit is raised by configuration.
  const roomy = { monitors: settings.heartbeats, checks_per_month: 1e12, release_checks_per_month: 500 };
  const shared = { REGIONS: REGION, PLANS: JSON.stringify({ free: roomy }) };

  log(`starting the api process on port ${port} (database ${run.dbName}, Redis prefix ${run.redisPrefix})`);
  const apiProcess = run.start({
    ...shared,
    ROLE: 'api',
    PORT: String(port),
    HEARTBEAT_PINGS_PER_MINUTE: '1000000',
  });
  await api.waitUntilReady(apiProcess);
  // The start-up line is at info level; later lines only at warn and above.
  const quietStart = { LOG_LEVEL: 'info' };
  const worker = run.start({ ...shared, ...quietStart, ROLE: 'worker' });
  const scheduler = run.start({ ...shared, ...quietStart, ROLE: 'scheduler' });
  await Promise.all([worker.waitForLine(/vigil worker started/), scheduler.waitForLine(/vigil scheduler started/)]);
  const services = [apiProcess, worker, scheduler];
  log('api, worker and scheduler are up');

  for (const service of services) service.output.length = 0; // start-up went fine; keep what follows
  const { secret } = await api.adminKey(run, ['monitors:read', 'monitors:write']);
  log(`creating ${settings.heartbeats} heartbeat monitors`);
  const { paths, seconds: creation } = await createHeartbeats(api, secret);
  log(`created in ${fmt(creation, 1)} s; pinging each once (pending → up)`);
  const firstPingSeconds = await firstPings(api, paths);
  const db = await run.database();
  try {
    await sleep(SETTLE_MS);
    const { rows } = await db.query(
      `select count(*) filter (where status = 'up')::int as up, count(*)::int as monitors
       from monitors where mode = 'heartbeat'`,
    );
    if (rows[0].up !== settings.heartbeats) {
      throw new Error(`after the first pings ${rows[0].up} of ${rows[0].monitors} heartbeat monitors are up`);
    }
    log(`all ${settings.heartbeats} up after ${fmt(firstPingSeconds, 1)} s`);
    if (settings.warmup) {
      log(`warm-up: ${settings.warmup} s with ${settings.connections} connections`);
      const warm = await pingLoad(baseUrl, paths, settings.warmup);
      log(
        `warm-up: ${fmt((ok(warm.statuses.success) + ok(warm.statuses.start)) / warm.seconds, 0)} pings/s` +
          `${describe(warm.statuses.success) ? `, success pings not 200: ${describe(warm.statuses.success)}` : ''}`,
      );
      await sleep(SETTLE_MS);
    }

    log(`measuring for ${settings.duration} s with ${settings.connections} connections`);
    const measured = await measure(db, services, apiProcess, baseUrl, paths);
    log(
      `${fmt(measured.pingsPerSecond, 0)} pings/s, p50 ${fmt(measured.latency.all.p50)} ms, ` +
        `p99 ${fmt(measured.latency.all.p99)} ms; ${measured.rowsWritten} ping rows for ${measured.successOk} success pings`,
    );

    console.log('');
    const { met, broken } = report(measured, { creation, firstPings: firstPingSeconds });
    const warnings = services.flatMap((service) =>
      service.output.filter((line) => /"level":(4|5)0/.test(line)).map((line) => `${service.role}: ${line}`),
    );
    if (warnings.length) {
      log(`the services logged ${warnings.length} warning(s) or error(s) (last 10):`);
      for (const line of warnings.slice(-10)) console.error(line);
    }
    if (broken) {
      log('FAILED: a ping did not answer 200, or a success ping answered 200 has no monitor_checks row');
      return 1;
    }
    return !met && settings.strict ? 2 : 0;
  } finally {
    await db.end();
  }
}

await runBench(
  main,
  async () => {
    for (const instance of running) instance.stop();
    await run.cleanup();
  },
  {
    budgetMs: (settings.duration + settings.warmup + 300) * 1000,
    onFailure: () => run.printOutput(),
  },
);
