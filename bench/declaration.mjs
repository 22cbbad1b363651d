#!/usr/bin/env node
// Declaration benchmark (issue #30): planning and applying a declaration of BENCH_MONITORS monitors, each with a rule,
// on an empty workspace, then planning it again unchanged.
//
//   npm run bench:declaration       (node bench/declaration.mjs; builds first only when dist/ lacks the service)
//
// Starts one ROLE=api process on a throw-away PostgreSQL database and Redis prefix (no worker or scheduler: no
// check runs, the bench measures the declaration's path), makes a document of BENCH_MONITORS monitors (every one with
// a `down` rule notifying one of 3 webhook destinations) and one status page showing the first 50, and times, each
// as the client sees it (one HTTP request):
//   1. plan on the empty workspace (every resource a creation);
//   2. apply of that plan (one transaction);
//   3. plan again, unchanged (no change expected);
//   4. apply of the unchanged plan (nothing to do);
//   5. plan after one monitor's interval changed in the file (one change expected).
// A markdown table goes to stdout, progress to stderr. Everything made is removed at the end, also on failure or
// Ctrl-C. Targets: apply under 60 s and plan under 5 s at 5,000 monitors.
//
// Settings (environment):
//   BENCH_MONITORS=5000     monitors in the document (each with one rule)
//   BENCH_PORT, BENCH_PG_URL, BENCH_REDIS_URL, BENCH_BUILD=1 (or --build), BENCH_STRICT=1 (exit 2 when a target
//   is missed), BENCH_NODE_OPTIONS: as in the other benchmarks.

import { cpus } from 'node:os';
import { ensureBuilt, fmt, HOST, intSetting, log, serviceSettings } from './lib/common.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const TARGET_APPLY_S = 60;
const TARGET_PLAN_S = 5;
const DESTINATIONS = 3;

const settings = { ...serviceSettings(), monitors: intSetting('BENCH_MONITORS', 5000, 1, 20_000) };
const run = new BenchRun(settings);

function document(changedInterval = false) {
  const destinations = Object.fromEntries(
    Array.from({ length: DESTINATIONS }, (_, index) => [
      `hook-${index}`,
      { name: `Hook ${index}`, type: 'webhook', config: { url: `http://127.0.0.1:9/hook-${index}` } },
    ]),
  );
  const key = (index) => `page-${index}`;
  const monitors = Object.fromEntries(
    Array.from({ length: settings.monitors }, (_, index) => [
      key(index),
      {
        name: `Page ${index}`,
        url: `http://127.0.0.1:9/page-${index}`,
        interval_seconds: changedInterval && index === 0 ? 600 : 300,
        paused: true,
        rules: { down: { event: 'down', destinations: [`hook-${index % DESTINATIONS}`] } },
      },
    ]),
  );
  const shown = Array.from({ length: Math.min(50, settings.monitors) }, (_, index) => key(index));
  return {
    version: 1,
    alert_destinations: destinations,
    monitors,
    status_pages: {
      status: { slug: `bench-${run.id}`, title: 'Bench', components: [{ name: 'Pages', monitors: shown }] },
    },
  };
}

/** One timed request (the service's own timeouts apply, not the bench client's 10 s). */
async function timed(baseUrl, apiKey, method, path, body) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await response.text();
  const seconds = (performance.now() - started) / 1000;
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return { seconds, body: JSON.parse(text), bytes: Buffer.byteLength(JSON.stringify(body)) };
}

async function main() {
  ensureBuilt(settings.build);
  const port = settings.port || (await freePort());
  const api = new ApiClient(`http://${HOST}:${port}`);
  log(`starting an api process on port ${port} (database ${run.dbName})`);
  const service = run.start({
    ROLE: 'api',
    PORT: String(port),
    ALLOW_PRIVATE_TARGETS: 'true',
    PLANS: JSON.stringify({
      free: { monitors: settings.monitors + 10, checks_per_month: 1e12, release_checks_per_month: 500 },
    }),
  });
  await api.waitUntilReady(service);
  const { token, secret } = await api.adminKey(run, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
  const workspaces = await api.expect(200, 'GET', '/api/v1/workspaces', { token });
  const base = `/api/v1/workspaces/${workspaces.json.data[0].id}/declaration`;
  const steps = [];
  const step = async (label, path, body, expected) => {
    log(`${label}`);
    const result = await timed(api.baseUrl, secret, 'POST', `${base}${path}`, body);
    const changes = result.body.changes.length;
    if (expected !== undefined && changes !== expected) {
      throw new Error(`${label}: ${changes} changes, expected ${expected}`);
    }
    steps.push({ label, seconds: result.seconds, changes, bytes: result.bytes });
    return result.body;
  };

  const resources = DESTINATIONS + settings.monitors * 2 + 1;
  const first = await step('plan, empty workspace', '/plan', { document: document() }, resources);
  await step('apply', '/apply', { document: document(), fingerprint: first.fingerprint }, resources);
  const again = await step('plan again, unchanged', '/plan', { document: document() }, 0);
  await step('apply, unchanged', '/apply', { document: document(), fingerprint: again.fingerprint }, 0);
  await step('plan, one field changed', '/plan', { document: document(true) }, 1);
  return report(steps);
}

function report(steps) {
  const plans = steps.filter((entry) => entry.label.startsWith('plan'));
  const apply = steps.find((entry) => entry.label === 'apply');
  const met = apply.seconds < TARGET_APPLY_S && plans.every((entry) => entry.seconds < TARGET_PLAN_S);
  console.log(
    [
      `Vigil declaration benchmark: ${settings.monitors.toLocaleString('en')} monitors with a rule each, ` +
        `${DESTINATIONS} destinations, a status page; one ROLE=api process; Node ${process.versions.node}, ` +
        `${cpus().length} CPU(s) (${cpus()[0]?.model.trim() ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}.`,
      '',
      '| Step | Seconds | Changes | Request body |',
      '| --- | ---: | ---: | ---: |',
      ...steps.map(
        (entry) =>
          `| ${entry.label} | ${fmt(entry.seconds)} | ${entry.changes.toLocaleString('en')} | ` +
          `${fmt(entry.bytes / 1024 ** 2, 1)} MB |`,
      ),
      '',
      `Targets: apply < ${TARGET_APPLY_S} s and every plan < ${TARGET_PLAN_S} s: ${met ? 'met' : '**not met**'}.`,
      '',
    ].join('\n'),
  );
  return met || !settings.strict ? 0 : 2;
}

await runBench(main, () => run.cleanup(), { budgetMs: 20 * 60_000, onFailure: () => run.printOutput() });
