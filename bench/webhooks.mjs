#!/usr/bin/env node
// Webhook delivery benchmark: 10,000 events committed to the outbox at a steady rate, each fanned out to three local
// receivers (one healthy, one answering after 1 s, one answering 500 half the time), by one worker process.
//
//   npm run bench:webhooks            (node bench/webhooks.mjs; builds first only when dist/ lacks the service)
//
// Phases, in one run:
//   1. Starts the three receivers in this process and two service processes, ROLE=api and ROLE=worker, on a
//      throw-away PostgreSQL database and Redis prefix; creates the three webhook destinations through the API, each
//      subscribed to monitor.down and monitor.recovered.
//   2. Commits BENCH_EVENTS events to the outbox at BENCH_RATE a second (a transaction every 20 ms), as a recorder's
//      transaction writes them: each a monitor's down or, in turn, its recovery, for BENCH_MONITORS monitors, so each
//      monitor's events must reach every receiver in order. The time each transaction's COMMIT returned is kept.
//   3. Waits until the healthy receiver has every event, then up to BENCH_DRAIN s for the other two to drain.
// Receivers count by `webhook-id`: a delivery is a request they answered 2xx, and a second 2xx answer to the same id is
// a duplicate. Latency runs from the commit to the healthy receiver's 2xx answer, both on this process's clock.
// Still queued: an event a receiver does not have yet whose delivery the service still means to make (pending or
// retrying). Lost: an event a receiver does not have and will not get. The slow receiver gets at most the worker's
// DELIVERY_DESTINATION_CONCURRENCY (25) requests at once, so at 1 s an answer it takes about 400 s to drain 10,000
// events; until then they are still queued (BENCH_DRAIN=450 waits for all of them). The failing receiver's retries
// follow a shortened schedule (DELIVERY_RETRY_DELAYS_MS = BENCH_RETRY_MS, 20 times, ±20% jitter), so they end within
// the run: the production schedule (5 s … 6 h) would stretch it to hours. Everything else is the service's defaults.
// A markdown table goes to stdout, progress to stderr. Everything made is removed at the end, also on failure or
// Ctrl-C. Traffic goes to 127.0.0.1 only.
//
// Settings (environment):
//   BENCH_EVENTS=10000     events committed
//   BENCH_RATE=600         events committed per second
//   BENCH_MONITORS=500     monitors the events are about
//   BENCH_SLOW_MS=1000     how long the slow receiver takes to answer
//   BENCH_RETRY_MS=1000    the failing receiver's retry delay
//   BENCH_DRAIN=60         seconds to wait for the slow and failing receivers after the healthy one has everything
//   BENCH_WORKER_ENV       more settings for the worker, e.g. "DELIVERY_CONCURRENCY=1000 DELIVERY_DESTINATION_CONCURRENCY=50"
//   BENCH_PORT, BENCH_PG_URL, BENCH_REDIS_URL, BENCH_BUILD=1 (or --build), BENCH_STRICT=1 (exit 2 when a target
//   is missed), BENCH_NODE_OPTIONS: as in the other benchmarks.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import { ensureBuilt, fmt, HOST, intSetting, log, pct, percentile, serviceSettings, sleep } from './lib/common.mjs';
import { closeServer, listenLocal } from './lib/http.mjs';
import { cpuSeconds, machineTicks } from './lib/procfs.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const TARGET_RATE = 500;
const TARGET_P99_MS = 1000;
const COMMIT_EVERY_MS = 20;
const RETRIES = 20;
const HEALTHY_TIMEOUT_S = 120;

const settings = {
  ...serviceSettings(),
  events: intSetting('BENCH_EVENTS', 10_000, 1, 1_000_000),
  rate: intSetting('BENCH_RATE', 600, 1, 100_000),
  monitors: intSetting('BENCH_MONITORS', 500, 1, 100_000),
  slowMs: intSetting('BENCH_SLOW_MS', 1000, 0, 60_000),
  retryMs: intSetting('BENCH_RETRY_MS', 1000, 0, 60_000),
  drain: intSetting('BENCH_DRAIN', 60, 0, 3600),
  workerEnv: Object.fromEntries(
    (process.env.BENCH_WORKER_ENV ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  ),
};
const run = new BenchRun(settings);

// ---------------------------------------------------------------------------------------------------------------
// Receivers

/** A local webhook receiver that counts by webhook-id; `answer(reply)` decides each request's status, and when. */
class Receiver {
  constructor(name, answer) {
    this.name = name;
    this.answer = answer;
    this.deliveredAt = new Map(); // webhook-id → when it was first answered 2xx (performance.now())
    this.duplicates = 0;
    this.requests = 0;
    this.open = 0;
    this.mostOpen = 0;
    this.outOfOrder = 0;
    this.lastByMonitor = new Map(); // monitor id → the highest event number delivered
  }

  async start() {
    this.server = createServer((request, response) => {
      const chunks = [];
      this.open += 1;
      this.mostOpen = Math.max(this.mostOpen, this.open);
      response.on('close', () => (this.open -= 1));
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        this.requests += 1;
        this.answer((status) => {
          if (status >= 200 && status < 300) this.delivered(request.headers['webhook-id'], Buffer.concat(chunks));
          response.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
        });
      });
    });
    this.server.keepAliveTimeout = 120_000;
    this.url = `${await listenLocal(this.server)}/hook`;
    return this;
  }

  delivered(id, body) {
    if (this.deliveredAt.has(id)) {
      this.duplicates += 1;
      return;
    }
    this.deliveredAt.set(id, performance.now());
    const { monitor, n } = JSON.parse(body.toString()).data;
    const last = this.lastByMonitor.get(monitor.id) ?? -1;
    if (n < last) this.outOfOrder += 1;
    this.lastByMonitor.set(monitor.id, Math.max(n, last));
  }

  async stop() {
    await closeServer(this.server);
  }
}

const healthy = new Receiver('healthy', (reply) => reply(200));
const slow = new Receiver(`slow (answers after ${settings.slowMs} ms)`, (reply) =>
  setTimeout(() => reply(200), settings.slowMs),
);
const failing = new Receiver('failing (500 half the time)', (reply) => reply(Math.random() < 0.5 ? 500 : 200));
const receivers = [healthy, slow, failing];

// ---------------------------------------------------------------------------------------------------------------
// Events

/** The i-th event: about monitor i mod M, its down on even rounds and its recovery on odd ones. */
function eventOf(i, monitors) {
  const monitor = monitors[i % monitors.length];
  const down = Math.floor(i / monitors.length) % 2 === 0;
  return {
    id: randomUUID(),
    type: down ? 'monitor.down' : 'monitor.recovered',
    orderingKey: monitor.id,
    data: { monitor, n: i, reason: 'down', region: 'local', status_code: down ? 500 : 200 },
  };
}

/** Commits the events at `settings.rate` a second, in one transaction every 20 ms; each event's commit time by id. */
async function commitEvents(db, workspaceId) {
  const monitors = Array.from({ length: settings.monitors }, (_, n) => ({
    id: randomUUID(),
    name: `Bench monitor ${n}`,
    url: `https://example.com/${n}`,
  }));
  const committedAt = new Map();
  const started = performance.now();
  let committed = 0;
  while (committed < settings.events) {
    const due = Math.min(settings.events, Math.floor(((performance.now() - started) / 1000) * settings.rate) + 1);
    if (due > committed) {
      const batch = Array.from({ length: due - committed }, (_, k) => eventOf(committed + k, monitors));
      await db.query(
        `insert into events (id, workspace_id, type, data, destination_ids, ordering_key, created_at)
         select id, $1, type, data, '{}', ordering_key, now()
         from unnest($2::uuid[], $3::text[], $4::jsonb[], $5::text[]) as event(id, type, data, ordering_key)`,
        [
          workspaceId,
          batch.map((event) => event.id),
          batch.map((event) => event.type),
          batch.map((event) => JSON.stringify(event.data)),
          batch.map((event) => event.orderingKey),
        ],
      );
      const now = performance.now();
      for (const event of batch) committedAt.set(event.id, now);
      committed = due;
    }
    await sleep(COMMIT_EVERY_MS);
  }
  return { committedAt, seconds: (performance.now() - started) / 1000 };
}

/** Events each destination still has a pending or retrying delivery of: destination id → event ids. */
async function stillQueued(db) {
  const { rows } = await db.query(
    `select destination_id, array_agg(event_id) as events from webhook_deliveries
     where status in ('pending', 'retrying') group by destination_id`,
  );
  return new Map(rows.map((row) => [row.destination_id, new Set(row.events)]));
}

/** Polls `done` every 200 ms for up to `timeoutS`, logging progress every 10 s; whether it came true. */
async function waitFor(what, done, timeoutS) {
  const deadline = Date.now() + timeoutS * 1000;
  let lastLog = Date.now();
  while (!(await done())) {
    if (Date.now() > deadline) return false;
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(`waiting for ${what}: delivered ${receivers.map((receiver) => receiver.deliveredAt.size).join(' / ')}`);
    }
    await sleep(200);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------

async function startService() {
  const port = settings.port || (await freePort());
  const api = new ApiClient(`http://${HOST}:${port}`);
  const shared = {
    ALLOW_PRIVATE_TARGETS: 'true', // the receivers are on 127.0.0.1
    DELIVERY_RETRY_DELAYS_MS: Array(RETRIES).fill(settings.retryMs).join(','),
  };
  log(`starting the api process on port ${port} (database ${run.dbName}, Redis prefix ${run.redisPrefix})`);
  const apiProcess = run.start({ ...shared, ROLE: 'api', PORT: String(port) });
  await api.waitUntilReady(apiProcess);
  // The start-up line is at info level.
  const worker = run.start({ ...shared, LOG_LEVEL: 'info', ROLE: 'worker', ...settings.workerEnv });
  await worker.waitForLine(/vigil worker started/);
  worker.output.length = 0;
  return { api, services: [apiProcess, worker] };
}

/** The three destinations, through the API: receiver → destination id. */
async function createDestinations(api) {
  const { secret } = await api.adminKey(run, ['alerts:write']);
  const destinations = new Map();
  for (const receiver of receivers) {
    const created = await api.expect(201, 'POST', '/api/v1/alert-destinations', {
      apiKey: secret,
      body: {
        name: receiver.name,
        type: 'webhook',
        config: { url: receiver.url },
        events: ['monitor.down', 'monitor.recovered'],
      },
    });
    destinations.set(receiver, created.json.id);
  }
  return destinations;
}

function report({ committedAt, commitSeconds, queued, destinations, cpu, busy }) {
  const first = Math.min(...committedAt.values());
  const window = (Math.max(...healthy.deliveredAt.values()) - first) / 1000;
  const rate = healthy.deliveredAt.size / window;
  const latencies = Float64Array.from(healthy.deliveredAt, ([id, at]) => at - committedAt.get(id)).sort();
  const p99 = percentile(latencies, 99);
  const outcomes = receivers.map((receiver) => {
    const waiting = queued.get(destinations.get(receiver)) ?? new Set();
    const missing = [...committedAt.keys()].filter((id) => !receiver.deliveredAt.has(id));
    const queuedCount = missing.filter((id) => waiting.has(id)).length;
    return { receiver, queuedCount, lost: missing.length - queuedCount };
  });
  const verdict = (met) => (met ? 'met' : '**not met**');
  const healthyOutcome = outcomes[0];
  const met = {
    rate: rate >= TARGET_RATE,
    p99: p99 < TARGET_P99_MS,
    healthy: healthyOutcome.lost === 0 && healthy.duplicates === 0,
    noneLost: outcomes.every((outcome) => outcome.lost === 0),
    noDuplicates: receivers.every((receiver) => receiver.duplicates === 0),
    inOrder: receivers.every((receiver) => receiver.outOfOrder === 0),
  };

  console.log(
    `\n## Webhook deliveries: ${settings.events} events × 3 destinations, committed at ${settings.rate}/s ` +
      `(${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.versions.node}, ` +
      `${new Date().toISOString().slice(0, 10)})\n`,
  );
  console.log('| figure | value | target |\n| --- | ---: | --- |');
  const rows = [
    ['deliveries per second to the healthy receiver', fmt(rate, 0), `≥ ${TARGET_RATE}: ${verdict(met.rate)}`],
    ['commit → healthy receipt p50', `${fmt(percentile(latencies, 50), 0)} ms`, ''],
    ['commit → healthy receipt p99', `${fmt(p99, 0)} ms`, `< ${TARGET_P99_MS} ms: ${verdict(met.p99)}`],
    ['commit → healthy receipt max', `${fmt(latencies.at(-1), 0)} ms`, ''],
    ...outcomes.map(({ receiver, queuedCount, lost }) => [
      `${receiver.name}: delivered / still queued / lost / duplicated / out of order / most requests open at once`,
      `${receiver.deliveredAt.size} / ${queuedCount} / ${lost} / ${receiver.duplicates} / ${receiver.outOfOrder} / ` +
        `${receiver.mostOpen}`,
      receiver === healthy ? `0 lost, 0 duplicated: ${verdict(met.healthy)}` : '',
    ]),
  ];
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  const cpuParts = Object.entries(cpu)
    .sort(([, a], [, b]) => b - a)
    .map(([name, share]) => `${name} ${pct(share)}`)
    .join(', ');
  console.log(
    `\nEvents committed in ${fmt(commitSeconds, 1)} s; the healthy receiver's window (first commit → last receipt) ` +
      `${fmt(window, 1)} s. Requests answered: ${receivers.map((r) => `${r.name} ${r.requests}`).join(', ')}.` +
      `\nCPU over the commits and the healthy receiver's deliveries, share of one core: ${cpuParts}; the machine was ` +
      `${pct(busy)} busy.` +
      `\nNothing lost anywhere: ${verdict(met.noneLost)}; no duplicates anywhere: ${verdict(met.noDuplicates)}; ` +
      `each monitor's events in order at every receiver: ${verdict(met.inOrder)}.\n`,
  );
  return Object.values(met).every(Boolean);
}

async function main() {
  ensureBuilt(settings.build);
  for (const receiver of receivers) await receiver.start();
  const { api, services } = await startService();
  const destinations = await createDestinations(api);
  const db = await run.database();
  try {
    const { rows } = await db.query('select workspace_id from alert_destinations limit 1');
    log(`committing ${settings.events} events at ${settings.rate}/s about ${settings.monitors} monitors`);
    const cpuBefore = cpuSeconds(services);
    const machineBefore = machineTicks();
    const { committedAt, seconds: commitSeconds } = await commitEvents(db, rows[0].workspace_id);
    log(`committed in ${fmt(commitSeconds, 1)} s; waiting for the healthy receiver`);
    const complete = await waitFor(
      'the healthy receiver',
      () => healthy.deliveredAt.size >= settings.events,
      HEALTHY_TIMEOUT_S,
    );
    if (!complete) log(`the healthy receiver did not get every event within ${HEALTHY_TIMEOUT_S} s`);
    const seconds = (performance.now() - Math.min(...committedAt.values())) / 1000;
    const cpuAfter = cpuSeconds(services);
    const machineAfter = machineTicks();
    log(`waiting up to ${settings.drain} s for the slow and failing receivers to drain`);
    await waitFor('the slow and failing receivers', async () => (await stillQueued(db)).size === 0, settings.drain);
    const queued = await stillQueued(db);
    const crashed = services.find((service) => service.exit);
    if (crashed) throw new Error(`the ${crashed.role} process exited during the run`);

    const met = report({
      committedAt,
      commitSeconds,
      queued,
      destinations,
      cpu: Object.fromEntries(
        Object.keys(cpuAfter).map((name) => [name, (cpuAfter[name] - cpuBefore[name]) / seconds]),
      ),
      busy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
    });
    const warnings = services.flatMap((service) =>
      service.output.filter((line) => /"level":(4|5)0/.test(line)).map((line) => `${service.role}: ${line}`),
    );
    if (warnings.length) {
      log(`the services logged ${warnings.length} warning(s) or error(s) (last 10):`);
      for (const line of warnings.slice(-10)) console.error(line);
    }
    console.log('Repeat with: `npm run build && npm run bench:webhooks`');
    return settings.strict && !met ? 2 : 0;
  } finally {
    await db.end();
  }
}

await runBench(
  main,
  async () => {
    await run.cleanup();
    await Promise.all(receivers.map((receiver) => receiver.stop()));
  },
  {
    budgetMs: (settings.events / settings.rate + HEALTHY_TIMEOUT_S + settings.drain + 300) * 1000,
    onFailure: () => run.printOutput(),
  },
);
