#!/usr/bin/env node
// Report benchmark: a 30-day uptime PDF for BENCH_MONITORS monitors, rendered by a worker's Chromium.
//
//   npm run bench:reports           (node bench/reports.mjs; builds first only when dist/ lacks the service)
//
// Starts a ROLE=api and a ROLE=worker process on a throw-away PostgreSQL database and Redis prefix, creates the
// monitors through the API, writes 30 days of hourly rollups for each straight into monitor_check_rollups (as the
// recorder writes them), creates an uptime report (last_30_days, pdf) and generates it BENCH_RUNS times through
// `POST /reports/{id}/generate`. The first run includes Chromium's start; later runs reuse the browser. Reported per
// run: wall time of the request (it answers when the file is stored), the file's size and pages; and the worker's peak
// memory over the runs (its Node process plus its Chromium processes: RSS summed, and PSS, which counts shared pages
// once), sampled every 50 ms. The CSV of the same report is timed too, for comparison. A markdown table goes to
// stdout, progress to stderr. Everything made is removed at the end, also on failure or Ctrl-C.
//
// Settings (environment):
//   BENCH_MONITORS=100     monitors
//   BENCH_RUNS=3           generations of the PDF
//   BENCH_PG_URL, BENCH_REDIS_URL, BENCH_BUILD=1 (or --build), BENCH_STRICT=1 (exit 2 when the target is missed),
//   BENCH_NODE_OPTIONS: as in the other benchmarks.

import { cpus } from 'node:os';
import { ensureBuilt, fmt, HOST, intSetting, log, mb, serviceSettings } from './lib/common.mjs';
import { startTreeSampler } from './lib/sampler.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const TARGET_SECONDS = 5;
const DAYS = 30;

const settings = {
  ...serviceSettings(),
  monitors: intSetting('BENCH_MONITORS', 100, 1, 10_000),
  runs: intSetting('BENCH_RUNS', 3, 1, 50),
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

async function setUp(api, db) {
  const { secret } = await api.adminKey(run, ['monitors:read', 'monitors:write', 'reports:read', 'reports:write']);
  const ids = [];
  log(`creating ${settings.monitors} monitors`);
  for (let index = 0; index < settings.monitors; index++) {
    const created = await api.expect(201, 'POST', '/api/v1/monitors', {
      apiKey: secret,
      body: { name: `Service ${index}`, url: `http://127.0.0.1/service-${index}`, regions: ['local'] },
    });
    ids.push(created.json.id);
  }
  await db.query('update monitors set paused = true, next_check_at = null');
  log(`writing ${DAYS} days of hourly rollups (${(settings.monitors * DAYS * 24).toLocaleString()} rows)`);
  await db.query(
    `insert into monitor_check_rollups (monitor_id, region, hour, checks, passed, response_ms_sum)
     select m, 'local', h, 60, case when random() < 0.02 then 50 else 60 end, 60 * (100 + (random() * 300)::int)
     from unnest($1::uuid[]) as m,
          generate_series(date_trunc('hour', now()) - interval '${DAYS * 24 - 1} hours',
                          date_trunc('hour', now()), interval '1 hour') as h`,
    [ids],
  );
  await db.query('vacuum analyze monitor_check_rollups');
  const report = (format) =>
    api.expect(201, 'POST', '/api/v1/reports', {
      apiKey: secret,
      body: { name: `Uptime ${format}`, type: 'uptime', period: { preset: 'last_30_days' }, format },
    });
  return { secret, pdf: (await report('pdf')).json.id, csv: (await report('csv')).json.id };
}

async function generate(api, secret, reportId) {
  const started = performance.now();
  const response = await api.call('POST', `/api/v1/reports/${reportId}/generate`, { apiKey: secret });
  const seconds = (performance.now() - started) / 1000;
  if (response.status !== 200 || response.json?.status !== 'ready') {
    throw new Error(`generate answered ${response.status}: ${response.text.slice(0, 300)}`);
  }
  const file = await fetch(`${api.baseUrl}${response.json.download_url}`, { headers: { 'x-api-key': secret } });
  const data = Buffer.from(await file.arrayBuffer());
  const pages = (data.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  return { seconds, size: data.length, pages };
}

async function main() {
  ensureBuilt(settings.build);
  const port = settings.port || (await freePort());
  const api = new ApiClient(`http://${HOST}:${port}`);
  log(`starting the api and worker processes (database ${run.dbName})`);
  const apiProcess = run.start({ ...roomyPlan(), ROLE: 'api', PORT: String(port) });
  await api.waitUntilReady(apiProcess);
  const worker = run.start({ ROLE: 'worker', LOG_LEVEL: 'info' });
  await worker.waitForLine(/vigil worker started/);
  const db = await run.database();
  try {
    const { secret, pdf, csv } = await setUp(api, db);
    // The worker's memory (Node and its Chromium processes) every 50 ms over the PDF runs.
    const memory = startTreeSampler(worker.pid, { everyMs: 50, sampleAtStart: false });
    const runs = [];
    for (let index = 0; index < settings.runs; index++) {
      log(`PDF run ${index + 1} of ${settings.runs}`);
      runs.push({
        label: `PDF, run ${index + 1}${index === 0 ? ' (browser starts)' : ''}`,
        ...(await generate(api, secret, pdf)),
      });
    }
    const { totalPeak, pssPeak } = memory.stop({ finalSample: false });
    log('CSV run');
    runs.push({ label: 'CSV, same report', ...(await generate(api, secret, csv)), pages: null });
    return report(runs, { rss: totalPeak, pss: pssPeak });
  } finally {
    await db.end();
  }
}

function report(runs, peak) {
  const pdfRuns = runs.filter((entry) => entry.label.startsWith('PDF'));
  const worst = Math.max(...pdfRuns.map((entry) => entry.seconds));
  const met = worst < TARGET_SECONDS;
  console.log(
    [
      `Vigil report benchmark: 30-day uptime report of ${settings.monitors} monitors (${DAYS * 24} hourly rollups ` +
        `each), generated through the API by one ROLE=worker process; Node ${process.versions.node}, ` +
        `${cpus().length} CPU(s) (${cpus()[0]?.model.trim() ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}.`,
      '',
      '| Run | Wall time (s) | File size | Pages |',
      '| --- | ---: | ---: | ---: |',
      ...runs.map(
        (entry) =>
          `| ${entry.label} | ${fmt(entry.seconds)} | ${fmt(entry.size / 1024, 0)} KiB | ${entry.pages ?? '—'} |`,
      ),
      '',
      `Worker peak memory over the PDF runs (Node + Chromium): RSS summed ${mb(peak.rss)}, PSS ${mb(peak.pss)}.`,
      `Target: every PDF under ${TARGET_SECONDS} s: ${met ? 'met' : '**not met**'} (slowest ${fmt(worst)} s).`,
      '',
    ].join('\n'),
  );
  return met || !settings.strict ? 0 : 2;
}

await runBench(main, () => run.cleanup(), { budgetMs: 15 * 60_000, onFailure: () => run.printOutput() });
