#!/usr/bin/env node
// Release-check benchmark: one release check of 20 page pairs × 2 viewports (80 page-viewport-side captures, each
// with an axe-core scan, and 40 comparisons) against local pages, end to end through the API, next to the same 80
// captures by a bare Playwright loop (the ceiling).
//
//   npm run bench:release            (node bench/release.mjs; builds first only when dist/ lacks what it needs)
//
// Phases, in one run:
//   1. Vigil: starts the built service (dist/src/main.js, ROLE=all: API + queue workers in one process) against a
//      throw-away PostgreSQL database and Redis prefix, signs in as a bench administrator, creates an API key (its
//      rate-limit ceiling raised), counts the idle service's CPU for 5 s (ROLE=all's pollers, reported beside the
//      run's), POSTs the check and polls GET /api/v1/release-checks/{id} every 2 s (the gate
//      client polls every 5 s) until the collection is completed or incomplete; the wall time ends at the check's
//      completed_at (the server's clock, which is this machine's), not at the poll that saw it. Meanwhile it samples every 200 ms, from /proc, the RSS of the service's
//      Node process and the summed RSS of its Chromium processes, and counts the CPU time of both.
//      The service is then stopped and its database and Redis keys removed before the next phase.
//   2. Bare loop: playwright-core with the same Chromium and concurrency; per capture a new context, goto (load),
//      full-page screenshot, innerText('body'), close. Browser launch included, like Vigil's first capture. Run
//      twice: with STACK.md's launch (Playwright's default switches, the issue's ceiling), then with the switches
//      Vigil's capture engine gives Chromium (the stricter ceiling: same browser setup; BENCH_STRICT uses it).
//   3. Vigil's own capture engine (dist/libs/capture) in this process, no API, queue, database or comparison, with
//      each Playwright call timed: where a capture's time goes. Skip with BENCH_ENGINE=0.
//   4. resemblejs: compareScreenshots (dist/libs/compare, resemblejs in a worker thread, as the service runs it) on
//      two 1440×900 screenshots that differ a little, BENCH_RESEMBLE_RUNS times after one warm-up; median.
// A markdown table with the figures and targets goes to stdout; progress to stderr. Everything made (service,
// browsers, page server, database, Redis keys, artifact directory) is removed at the end, also on failure or Ctrl-C.
// Traffic goes to 127.0.0.1 only.
//
// Settings (environment):
//   BENCH_CONCURRENCY=2     captures at once: the service's CAPTURE_CONCURRENCY and the loops' concurrency
//   BENCH_PAGES=20          page pairs (× 2 viewports × 2 sides = captures)
//   BENCH_RESEMBLE_RUNS=10  timed comparisons
//   BENCH_POLL_MS=2000      pause between polls of the release check
//   BENCH_TIMEOUT=240       seconds the release check may take before the bench gives up
//   BENCH_ENGINE=1          0 skips phase 3
//   BENCH_VIGIL_ONLY=0      1 runs phase 1 alone and prints one line (wall, CPU, peak PSS): quick checks of a change
//   BENCH_PSS_MS=5000       how often PSS is read (a finer peak costs the sampler more CPU)
//   BENCH_PORT              port for the service (default: a free one)
//   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres   server where the bench database is created/dropped
//   BENCH_REDIS_URL=redis://127.0.0.1:6379
//   BENCH_CHROMIUM=/usr/bin/chromium
//   BENCH_BUILD=1 or --build   run `npm run build` first (otherwise only when dist/ lacks the service or libs)
//   BENCH_STRICT=1          exit 2 when a target (1.0× the same-switches loop, 1.5 GB RSS) is missed (else reported)
//   BENCH_PROFILE=DIR       CPU-profile the service's main thread during the release check only (through the
//                           inspector, on 127.0.0.1), write DIR/vigil-release-<id>.cpuprofile and summarize it
//   BENCH_NODE_OPTIONS      NODE_OPTIONS for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/relprof"; profiles
//                           found in --cpu-prof-dir afterwards are summarized too (Node writes them only on a clean
//                           exit; a process ended by a signal writes none)

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createRequire } from 'node:module';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import {
  ensureBuilt,
  fmt,
  HOST,
  intSetting,
  log,
  MAIN,
  mb,
  pct,
  percentile,
  ROOT,
  runPool,
  serviceSettings,
  sleep,
} from './lib/common.mjs';
import { CLK_TCK, descendantsOf, machineTicks, processTable, pssOf, statusField, statusFields } from './lib/procfs.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const require = createRequire(import.meta.url);
const COMPARE_LIB = join(ROOT, 'dist', 'libs', 'compare', 'index.js');
const CAPTURE_LIB = join(ROOT, 'dist', 'libs', 'capture', 'index.js');
/** The Chromium switches Vigil's capture engine launches with (after Playwright's defaults). */
const captureBrowserArgs = () => require(CAPTURE_LIB).captureBrowserArgs();
const TARGET_RATIO = 1.5;
const STRETCH_RATIO = 1.3;
/** Against the loop with Vigil's own switches: no slower than a loop that takes only the screenshot and the text. */
const TARGET_RATIO_SAME = 1.0;
const TARGET_RSS_BYTES = 1.5 * 1024 ** 3;
const SAMPLE_MS = 200;
const IDLE_SAMPLE_MS = 5000;
// Samples between PSS reads (smaps_rollup costs 3–10 ms per Chromium process): every 5 s unless BENCH_PSS_MS says.
const PSS_EVERY = Math.max(1, Math.round(intSetting('BENCH_PSS_MS', 5000, SAMPLE_MS, 60_000) / SAMPLE_MS));
const VIEWPORTS = { desktop: { width: 1440, height: 900 }, mobile: { width: 390, height: 844 } };
/** STACK.md's launch: Playwright's default switches plus these. The issue's bare loop. */
const STACK_BROWSER_ARGS = ['--disable-gpu', '--disable-quic'];
const NO_SIGNAL_HANDLERS = { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false };

const settings = {
  ...serviceSettings(),
  concurrency: intSetting('BENCH_CONCURRENCY', 2, 1, 32),
  pages: intSetting('BENCH_PAGES', 20, 1, 100),
  pollMs: intSetting('BENCH_POLL_MS', 2000, 50, 10_000),
  resembleRuns: intSetting('BENCH_RESEMBLE_RUNS', 10, 1, 100),
  timeoutS: intSetting('BENCH_TIMEOUT', 240, 10, 3600),
  engine: intSetting('BENCH_ENGINE', 1, 0, 1) === 1,
  vigilOnly: intSetting('BENCH_VIGIL_ONLY', 0, 0, 1) === 1,
  enginePages: intSetting('BENCH_ENGINE_PAGES', 6, 1, 100),
  chromiumPath: process.env.BENCH_CHROMIUM?.trim() || '/usr/bin/chromium',
  profileDir: process.env.BENCH_PROFILE?.trim() ? resolve(process.env.BENCH_PROFILE.trim()) : null,
};

const run = new BenchRun(settings);
const captureCount = settings.pages * 2 * 2;

const nowMs = () => performance.now();

// ---------------------------------------------------------------------------------------------------------------
// Local pages: /prod/page-N and /preview/page-N, 3–10 KB each, different per page; some previews differ a little.

const WORDS = (
  'release preview production monitor capture screenshot latency budget customer account invoice report ' +
  'dashboard service region cluster deploy rollback feature flag checkout search catalog shipping payment ' +
  'support ticket status incident uptime alert webhook schedule team project milestone roadmap pricing plan ' +
  'storage backup archive export import analytics audience campaign newsletter partner integration ' +
  'security privacy compliance policy session token gateway network cache edge origin latency throughput'
).split(' ');

function seeded(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(rand) {
  const length = 8 + Math.floor(rand() * 9);
  const words = Array.from({ length }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(' ')}.`;
}

/** How the preview of page n differs from production: text, layout height, navigation label, or not at all. */
function previewChange(n) {
  if (n % 4 === 1) return 'text';
  if (n % 5 === 2) return 'list-item';
  if (n % 7 === 3) return 'nav-label';
  return null;
}

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function pageHtml(n, side) {
  const rand = seeded(n * 7919 + 17);
  const change = side === 'preview' ? previewChange(n) : null;
  const title = `${WORDS[n % WORDS.length][0].toUpperCase()}${WORDS[n % WORDS.length].slice(1)} overview`;
  const nav = ['Home', 'Products', 'Pricing', 'Docs', 'Blog', change === 'nav-label' ? 'Talk to us' : 'Contact'];
  const paragraphs = Array.from({ length: 4 + (n % 9) }, () =>
    Array.from({ length: 3 + Math.floor(rand() * 4) }, () => sentence(rand)).join(' '),
  );
  if (change === 'text') paragraphs[1] = paragraphs[1].replace(/\b(\w+)\.$/, 'rollout.');
  const items = Array.from({ length: 4 + (n % 5) }, () => sentence(rand));
  if (change === 'list-item') items.push('New in this release: a faster dashboard and fewer clicks.');
  const sidebar = Array.from({ length: 3 + (n % 3) }, () => sentence(rand));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — Example Co (${n})</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: "Liberation Sans", Arial, sans-serif; color: #1d2733; background: #fff; line-height: 1.55; }
  header { background: #123c69; color: #fff; padding: 16px 32px; display: flex; justify-content: space-between; align-items: center; }
  header .brand { font-size: 22px; font-weight: bold; }
  nav ul { list-style: none; display: flex; gap: 20px; margin: 0; padding: 0; flex-wrap: wrap; }
  nav a { color: #fff; text-decoration: none; }
  .layout { display: grid; grid-template-columns: minmax(0, 1fr) 280px; gap: 32px; max-width: 1180px; margin: 0 auto; padding: 32px; }
  main h1 { font-size: 34px; margin: 0 0 16px; }
  main h2 { font-size: 22px; margin: 28px 0 8px; }
  aside { background: #f3f6f9; border-radius: 8px; padding: 20px; font-size: 15px; }
  .card { border: 1px solid #d5dde5; border-radius: 6px; padding: 12px 16px; margin: 0 0 12px; }
  .note { color: #9aa5b1; font-size: 13px; }
  footer { border-top: 1px solid #d5dde5; padding: 24px 32px; font-size: 14px; color: #4b5866; }
  @media (max-width: 700px) {
    header { flex-direction: column; align-items: flex-start; gap: 8px; padding: 12px 16px; }
    .layout { grid-template-columns: 1fr; padding: 16px; }
    main h1 { font-size: 26px; }
  }
</style>
</head>
<body>
<header>
  <div class="brand">Example Co</div>
  <nav aria-label="Main"><ul>${nav.map((label) => `<li><a href="#${label.toLowerCase().replace(/ /g, '-')}">${label}</a></li>`).join('')}</ul></nav>
</header>
<div class="layout">
  <main>
    <h1>${escapeHtml(title)} (page ${n})</h1>
    ${paragraphs.map((text, index) => `${index % 3 === 2 ? `<h2>Section ${index}</h2>\n    ` : ''}<p>${escapeHtml(text)}</p>`).join('\n    ')}
    <h2>Highlights</h2>
    <ul>
      ${items.map((text) => `<li>${escapeHtml(text)}</li>`).join('\n      ')}
    </ul>
  </main>
  <aside>
    <h2>Related</h2>
    ${sidebar.map((text) => `<div class="card">${escapeHtml(text)}</div>`).join('\n    ')}
    <p class="note">Last reviewed by the content team.</p>
  </aside>
</div>
<footer>© Example Co · <a href="#privacy">Privacy</a> · <a href="#terms">Terms</a></footer>
</body>
</html>
`;
}

let pageServer = null;
let pagesBase = '';

async function startPageServer() {
  const pages = new Map();
  for (let n = 1; n <= settings.pages; n++) {
    pages.set(`/prod/page-${n}`, Buffer.from(pageHtml(n, 'prod')));
    pages.set(`/preview/page-${n}`, Buffer.from(pageHtml(n, 'preview')));
  }
  pageServer = createHttpServer((request, response) => {
    const body = pages.get(request.url);
    if (!body || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  pageServer.keepAliveTimeout = 5000;
  await new Promise((resolveListen, reject) => {
    pageServer.once('error', reject);
    pageServer.listen(0, HOST, resolveListen);
  });
  pagesBase = `http://${HOST}:${pageServer.address().port}`;
  const sizes = [...pages.values()].map((body) => body.length);
  const differing = [...Array(settings.pages).keys()].filter((i) => previewChange(i + 1)).length;
  log(
    `serving ${pages.size} pages on ${pagesBase} (${(Math.min(...sizes) / 1024).toFixed(1)}–` +
      `${(Math.max(...sizes) / 1024).toFixed(1)} KB; ${differing} of ${settings.pages} previews differ)`,
  );
}

/** The captures of the release check, in the order the service queues them: page × viewport × side. */
function captureList(pageNumbers = Array.from({ length: settings.pages }, (_, i) => i + 1)) {
  const list = [];
  for (const n of pageNumbers) {
    for (const viewport of Object.keys(VIEWPORTS)) {
      for (const side of ['prod', 'preview']) list.push({ url: `${pagesBase}/${side}/page-${n}`, viewport });
    }
  }
  return list;
}

// ---------------------------------------------------------------------------------------------------------------
// /proc: RSS and CPU time of a process and its descendants

/**
 * CPU seconds so far of `root` (its own threads) and of its descendants. A descendant that exited and was reaped
 * by another descendant (Chromium's zygote reaps renderers) is in that one's childTicks.
 */
function cpuOf(root) {
  const table = processTable();
  const own = table.get(root);
  let children = 0;
  for (const pid of descendantsOf(table, root)) {
    const entry = table.get(pid);
    children += entry.ticks + entry.childTicks;
  }
  let stores = 0;
  for (const entry of table.values()) {
    if (entry.comm === 'postgres' || entry.comm.startsWith('redis-server')) stores += entry.ticks + entry.childTicks;
  }
  return {
    root: own ? own.ticks / CLK_TCK : NaN,
    descendants: children / CLK_TCK,
    stores: stores / CLK_TCK,
    bench: (table.get(process.pid)?.ticks ?? 0) / CLK_TCK,
  };
}

const renderers = new Map(); // pid → whether it is a Chromium renderer (its command line says --type=renderer)

function isRenderer(pid) {
  if (!renderers.has(pid)) {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
    } catch {
      // exited
    }
    renderers.set(pid, cmdline.includes('--type=renderer'));
  }
  return renderers.get(pid);
}

/**
 * Samples every SAMPLE_MS: the root's VmRSS (unless `root` is this process, which is not the subject), the summed
 * RSS of its descendants (Chromium) and how many of them are renderers (about one per open page, so the peak shows
 * how many captures ran at once); PSS, costlier to read, every PSS_EVERY samples.
 */
function startSampler(root, { includeRoot }) {
  const stats = {
    samples: 0,
    rootPeak: 0,
    childPeak: 0,
    totalPeak: 0,
    pssPeak: 0,
    rootPssPeak: 0,
    childPssPeak: 0,
    rootPeakAt: null, // seconds after the start, and the VmRSS breakdown then
    rootPeakParts: null,
    maxProcesses: 0,
    maxRenderers: 0,
    costMs: 0,
  };
  const startedAt = nowMs();
  const sample = (forcePss = false) => {
    const started = nowMs();
    const table = processTable();
    const pids = descendantsOf(table, root);
    const status = includeRoot ? statusFields(root) : {};
    const rootRss = includeRoot ? (status.VmRSS ?? NaN) : 0;
    const childRss = pids.reduce((sum, pid) => sum + table.get(pid).rss, 0);
    if (Number.isFinite(rootRss) && rootRss > stats.rootPeak) {
      stats.rootPeak = rootRss;
      stats.rootPeakAt = (started - startedAt) / 1000;
      stats.rootPeakParts = { anon: status.RssAnon, file: status.RssFile, shmem: status.RssShmem };
    }
    stats.childPeak = Math.max(stats.childPeak, childRss);
    stats.totalPeak = Math.max(stats.totalPeak, (rootRss || 0) + childRss);
    stats.maxProcesses = Math.max(stats.maxProcesses, pids.length);
    stats.maxRenderers = Math.max(stats.maxRenderers, pids.filter(isRenderer).length);
    if (forcePss || stats.samples % PSS_EVERY === 0) {
      const rootPss = includeRoot ? pssOf(root) : 0;
      const childPss = pids.reduce((sum, pid) => sum + pssOf(pid), 0);
      stats.rootPssPeak = Math.max(stats.rootPssPeak, rootPss);
      stats.childPssPeak = Math.max(stats.childPssPeak, childPss);
      stats.pssPeak = Math.max(stats.pssPeak, rootPss + childPss);
    }
    stats.samples += 1;
    stats.costMs += nowMs() - started;
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stats,
    stop() {
      clearInterval(timer);
      sample(true);
      return stats;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The service under test (phase 1)

let service = null;

// ---------------------------------------------------------------------------------------------------------------
// CPU profile of the service's main thread through the inspector (BENCH_PROFILE)

async function openInspector(port) {
  const deadline = Date.now() + 10_000;
  let target = null;
  while (!target && Date.now() < deadline) {
    try {
      const list = await (await fetch(`http://${HOST}:${port}/json/list`)).json();
      target = list.find((entry) => entry.webSocketDebuggerUrl);
    } catch {
      await sleep(200);
    }
  }
  if (!target) throw new Error(`the service's inspector on port ${port} did not answer`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolveOpen, reject) => {
    socket.addEventListener('open', resolveOpen, { once: true });
    socket.addEventListener('error', () => reject(new Error('could not connect to the inspector')), { once: true });
  });
  let nextId = 1;
  const pending = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`inspector: ${message.error.message}`));
    else waiter.resolve(message.result);
  });
  return {
    send(method, params = {}) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolveSend, reject) => pending.set(id, { resolve: resolveSend, reject }));
    },
    close() {
      socket.close();
    },
  };
}

/** Where a profile frame's code comes from: an npm package, Vigil's own code, Node's internals, or V8's buckets. */
function packageOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native/V8 builtins)';
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (path.startsWith('node:') || !path.startsWith('/')) return '(node internals)';
  if (path.includes('/dist/libs/')) return `vigil libs/${path.split('/dist/libs/')[1].split('/')[0]}`;
  if (path.includes('/dist/src/')) return `vigil src/${path.split('/dist/src/')[1].split('/')[0]}`;
  return path;
}

/** Self time per package and per function of a .cpuprofile, optionally only within [fromUs, toUs]. */
function summarizeProfile(profile, window) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  let time = profile.startTime;
  let inWindow = 0;
  const selfByNode = new Map();
  const useWindow = window && window.fromUs < profile.endTime && window.toUs > profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    const duration = profile.timeDeltas[i + 1] ?? 0;
    if (useWindow && (time < window.fromUs || time > window.toUs)) continue;
    inWindow += duration;
    selfByNode.set(profile.samples[i], (selfByNode.get(profile.samples[i]) ?? 0) + duration);
  }
  const byPackage = new Map();
  const byFunction = new Map();
  for (const [id, micros] of selfByNode) {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const name = functionName || '(anonymous)';
    const pkg = packageOf(url, name);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
    const where = url
      ? `${url
          .replace(/^file:\/\//, '')
          .replace(/^.*node_modules\//, '')
          .replace(`${ROOT}/`, '')}:${lineNumber + 1}`
      : '';
    const key = where ? `${name} (${where})` : name;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  const idle = byPackage.get('(idle)') ?? 0;
  const busy = inWindow - idle;
  const top = (map, count) =>
    [...map.entries()]
      .filter(([key]) => key !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, micros]) => ({ key, ms: micros / 1000, share: busy > 0 ? micros / busy : 0 }));
  return {
    windowMs: inWindow / 1000,
    busyMs: busy / 1000,
    idleMs: idle / 1000,
    windowed: Boolean(useWindow),
    packages: top(byPackage, 10),
    functions: top(byFunction, 12),
  };
}

function printProfileSummary(label, summary) {
  console.log('');
  console.log(
    `${label}: ${fmt(summary.windowMs / 1000, 1)} s profiled${summary.windowed ? ' (the release check only)' : ''}, ` +
      `main thread busy ${fmt(summary.busyMs / 1000, 1)} s, idle ${fmt(summary.idleMs / 1000, 1)} s.`,
  );
  console.log('');
  console.log('| Self time by package | ms | share of busy |');
  console.log('| --- | ---: | ---: |');
  for (const row of summary.packages) console.log(`| ${row.key} | ${fmt(row.ms, 0)} | ${pct(row.share)} |`);
  console.log('');
  console.log('| Self time by function | ms | share of busy |');
  console.log('| --- | ---: | ---: |');
  for (const row of summary.functions)
    console.log(`| \`${row.key.slice(0, 110)}\` | ${fmt(row.ms, 0)} | ${pct(row.share)} |`);
}

/** .cpuprofile files a --cpu-prof-dir in BENCH_NODE_OPTIONS received since `sinceMs`. */
function cpuProfFiles(sinceMs) {
  const match = settings.nodeOptions.match(/--cpu-prof-dir[= ](\S+)/);
  if (!/--cpu-prof\b/.test(settings.nodeOptions)) return [];
  const dir = resolve(ROOT, match ? match[1] : '.');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).mtimeMs >= sinceMs)
    .sort((a, b) => statSync(b).size - statSync(a).size);
}

// ---------------------------------------------------------------------------------------------------------------
// Phase 1: the release check through the API

async function runVigil() {
  const port = settings.port || (await freePort());
  const inspectPort = settings.profileDir ? await freePort() : 0;
  const api = new ApiClient(`http://${HOST}:${port}`);
  log(
    `starting the service on ${api.baseUrl} (database ${run.dbName}, Redis prefix ${run.redisPrefix}, ROLE=all, ` +
      `CAPTURE_CONCURRENCY=${settings.concurrency})`,
  );
  const serviceStartedAt = Date.now();
  const nodeOptions = [settings.nodeOptions, inspectPort ? `--inspect=${HOST}:${inspectPort}` : '']
    .filter(Boolean)
    .join(' ');
  service = run.start(
    {
      ROLE: 'all',
      PORT: String(port),
      ALLOW_PRIVATE_TARGETS: 'true', // the pages are on 127.0.0.1
      CAPTURE_CONCURRENCY: String(settings.concurrency),
      CHROMIUM_PATH: settings.chromiumPath,
    },
    { nodeOptions },
  );
  await api.waitUntilReady(service);
  log(`ready after ${((Date.now() - serviceStartedAt) / 1000).toFixed(1)} s`);
  service.output.length = 0; // start-up went fine (its migration lines ignore LOG_LEVEL); keep only what follows
  const { secret } = await api.adminKey(run, ['monitors:read', 'monitors:write']);

  let inspector = null;
  if (settings.profileDir) {
    inspector = await openInspector(inspectPort);
    await inspector.send('Profiler.enable');
    await inspector.send('Profiler.setSamplingInterval', { interval: 1000 });
  }

  const body = {
    name: `bench ${run.id}`,
    production_url: `${pagesBase}/prod`,
    preview_url: `${pagesBase}/preview`,
    request_key: `bench-release-${run.id}`,
    pages: Array.from({ length: settings.pages }, (_, i) => ({
      production_path: `/page-${i + 1}`,
      preview_path: `/page-${i + 1}`,
    })),
    viewports: ['desktop', 'mobile'],
  };

  const pid = service.pid;
  // What the service spends doing nothing for this check (ROLE=all: the scheduler, outbox and delivery pollers).
  const idleBefore = cpuOf(pid);
  await sleep(IDLE_SAMPLE_MS);
  const idleAfter = cpuOf(pid);
  const idlePerSecond = {
    node: (idleAfter.root - idleBefore.root) / (IDLE_SAMPLE_MS / 1000),
    stores: (idleAfter.stores - idleBefore.stores) / (IDLE_SAMPLE_MS / 1000),
  };
  const sampler = startSampler(pid, { includeRoot: true });
  if (inspector) await inspector.send('Profiler.start');
  const cpuBefore = cpuOf(pid);
  const machineBefore = machineTicks();
  const monotonicFromUs = Number(process.hrtime.bigint() / 1000n);
  const startedAt = nowMs();
  const startedWall = Date.now();

  const posted = await api.expect(201, 'POST', '/api/v1/release-checks', { apiKey: secret, body });
  const id = posted.json?.id;
  if (!id) throw new Error(`the release check has no id: ${posted.text.slice(0, 300)}`);
  log(`release check ${id}: ${captureCount} captures queued; polling every ${settings.pollMs} ms`);

  const deadline = startedAt + settings.timeoutS * 1000;
  const progress = { firstComparedS: null };
  let check = posted.json;
  let polls = 0;
  let pollBytes = 0;
  const pollTimes = [];
  let lastLogged = 0;
  while (!['completed', 'incomplete'].includes(check.collection_status)) {
    if (service.exit) throw new Error(`the service exited during the release check (code ${service.exit.code})`);
    if (nowMs() > deadline) {
      throw new Error(
        `the release check was still ${check.collection_status} after ${settings.timeoutS} s ` +
          `(${describeProgress(check)})`,
      );
    }
    await sleep(settings.pollMs);
    const pollStarted = nowMs();
    const result = await api.call('GET', `/api/v1/release-checks/${id}`, { apiKey: secret });
    pollTimes.push(nowMs() - pollStarted);
    pollBytes = result.text.length;
    polls += 1;
    if (result.status !== 200)
      throw new Error(`GET /api/v1/release-checks/${id} answered ${result.status}: ${result.text.slice(0, 300)}`);
    check = result.json;
    const counts = countProgress(check);
    if (progress.firstComparedS === null && counts.compared > 0) progress.firstComparedS = (nowMs() - startedAt) / 1000;
    if (nowMs() - lastLogged > 10_000) {
      lastLogged = nowMs();
      log(`  ${((nowMs() - startedAt) / 1000).toFixed(0)} s: ${describeProgress(check)}`);
    }
  }
  const observedMs = nowMs() - startedAt;
  const monotonicToUs = Number(process.hrtime.bigint() / 1000n);
  const cpuAfter = cpuOf(pid);
  const machineAfter = machineTicks();
  const memory = sampler.stop();
  const hwm = statusField(pid, 'VmHWM');
  const nodeMemory = {
    rssAnon: statusField(pid, 'RssAnon'),
    rssFile: statusField(pid, 'RssFile'),
    heap: null,
  };

  let profileSummary = null;
  if (inspector) {
    nodeMemory.heap = await inspector.send('Runtime.getHeapUsage').catch(() => null);
    const { profile } = await inspector.send('Profiler.stop');
    inspector.close();
    mkdirSync(settings.profileDir, { recursive: true });
    const file = join(settings.profileDir, `vigil-release-${run.id}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    profileSummary = { file, summary: summarizeProfile(profile, null) };
    log(`wrote the service's CPU profile of the release check to ${file}`);
  }

  const summary = check.summary ?? {};
  const expectedPairs = settings.pages * 2;
  if (check.collection_status !== 'completed' || summary.pairs !== expectedPairs || summary.missing !== 0) {
    for (const artifact of check.artifacts ?? []) {
      for (const side of ['production', 'preview']) {
        const missing = artifact[side]?.missing;
        if (missing) log(`  missing: ${artifact[side].url} ${artifact.viewport}: ${JSON.stringify(missing)}`);
      }
    }
    throw new Error(
      `the release check ended ${check.collection_status} with summary ${JSON.stringify(summary)}; ` +
        `expected pairs == ${expectedPairs} and missing == 0`,
    );
  }

  // Timeline from the server's own timestamps: first and last capture, completion.
  const capturedAt = (check.artifacts ?? [])
    .flatMap((artifact) => [artifact.production?.captured_at, artifact.preview?.captured_at])
    .filter(Boolean)
    .map((value) => Date.parse(value))
    .sort((a, b) => a - b);
  const completedAt = Date.parse(check.completed_at);
  const timeline = {
    firstCaptureS: (capturedAt[0] - startedWall) / 1000,
    lastCaptureS: (capturedAt.at(-1) - startedWall) / 1000,
    completedS: (completedAt - startedWall) / 1000,
    firstComparedS: progress.firstComparedS,
  };
  // The server's completion time, not when a poll saw it: the poll interval then neither adds to the figure nor,
  // polled as seldom as a CI client does, takes CPU from the captures.
  const wallMs = completedAt - startedWall;
  const screenshotsChanged = (check.artifacts ?? []).filter(
    (artifact) => artifact.comparison?.screenshot?.changed,
  ).length;

  return {
    id,
    wallMs,
    observedMs,
    polls,
    pollP50: percentile(
      pollTimes.sort((a, b) => a - b),
      50,
    ),
    pollP90: percentile(pollTimes, 90),
    pollBytes,
    summary,
    screenshotsChanged,
    memory,
    hwm,
    nodeMemory,
    cpu: {
      node: cpuAfter.root - cpuBefore.root,
      chromium: cpuAfter.descendants - cpuBefore.descendants,
      stores: cpuAfter.stores - cpuBefore.stores,
      bench: cpuAfter.bench - cpuBefore.bench,
      machineBusy: (machineAfter.busy - machineBefore.busy) / CLK_TCK,
      machineTotal: (machineAfter.total - machineBefore.total) / CLK_TCK,
    },
    timeline,
    idlePerSecond,
    window: { fromUs: monotonicFromUs, toUs: monotonicToUs },
    profileSummary,
  };
}

function countProgress(check) {
  let sides = 0;
  let compared = 0;
  for (const artifact of check.artifacts ?? []) {
    for (const side of ['production', 'preview']) if (artifact[side] && artifact[side].state !== 'pending') sides += 1;
    if (artifact.state !== 'collecting') compared += 1;
  }
  return { sides, compared };
}

function describeProgress(check) {
  const { sides, compared } = countProgress(check);
  return `${check.collection_status}, ${sides}/${captureCount} sides captured, ${compared}/${settings.pages * 2} pairs done`;
}

// ---------------------------------------------------------------------------------------------------------------
// Phase 2: the bare Playwright loop

let bareBrowser = null;
let resemblePair = null;

/**
 * The bare loop with the given Chromium switches. The first run also keeps a pair of screenshots for phase 4 and
 * Playwright's prototypes for phase 3.
 */
async function runBare(browserArgs) {
  const list = captureList();
  const sampler = startSampler(process.pid, { includeRoot: false });
  const cpuBefore = cpuOf(process.pid);
  const ownBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  const startedAt = nowMs();
  bareBrowser = await chromium.launch({
    executablePath: settings.chromiumPath,
    args: browserArgs,
    ...NO_SIGNAL_HANDLERS,
  });
  const launchMs = nowMs() - startedAt;
  const steps = new Map();
  const timed = async (label, work) => {
    const began = nowMs();
    try {
      return await work();
    } finally {
      addStep(steps, label, nowMs() - began);
    }
  };
  const durations = await runPool(list, settings.concurrency, async ({ url, viewport }) => {
    const began = nowMs();
    const context = await timed(STEP.newContext, () => bareBrowser.newContext({ viewport: VIEWPORTS[viewport] }));
    try {
      const page = await timed(STEP.newPage, () => context.newPage());
      const response = await timed(STEP.goto, () => page.goto(url, { waitUntil: 'load', timeout: 30_000 }));
      if (!response?.ok()) throw new Error(`bare loop: ${url} answered ${response?.status()}`);
      const png = await timed(STEP.screenshot, () => page.screenshot({ fullPage: true }));
      const text = await timed('page.innerText(body)', () => page.innerText('body'));
      if (!png.length || !text.length) throw new Error(`bare loop: ${url} gave an empty screenshot or text`);
    } finally {
      await timed(STEP.close, () => context.close());
    }
    return nowMs() - began;
  });
  const captureMs = durations.reduce((sum, value) => sum + value, 0);
  const wallMs = nowMs() - startedAt;
  const cpuAfter = cpuOf(process.pid);
  const ownAfter = process.cpuUsage(ownBefore);
  const machineAfter = machineTicks();
  const memory = sampler.stop();

  // Two 1440×900 screenshots that differ a little (the page whose preview has a changed word) for phase 4; untimed.
  const pair = [];
  const changed = [...Array(settings.pages).keys()].map((i) => i + 1).find((n) => previewChange(n) === 'text') ?? 1;
  for (const side of resemblePair ? [] : ['prod', 'preview']) {
    const context = await bareBrowser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await page.goto(`${pagesBase}/${side}/page-${changed}`, { waitUntil: 'load' });
    pair.push(await page.screenshot({ fullPage: false }));
    if (settings.engine && !prototypes) {
      prototypes = {
        browser: Object.getPrototypeOf(bareBrowser),
        context: Object.getPrototypeOf(context),
        page: Object.getPrototypeOf(page),
        frame: Object.getPrototypeOf(page.mainFrame()),
        cdpSession: Object.getPrototypeOf(await context.newCDPSession(page)),
      };
    }
    await context.close();
  }
  await bareBrowser.close();
  bareBrowser = null;
  resemblePair ??= pair;

  durations.sort((a, b) => a - b);
  return {
    wallMs,
    launchMs,
    p50: percentile(durations, 50),
    p90: percentile(durations, 90),
    captureMs,
    steps,
    memory,
    cpu: {
      node: (ownAfter.user + ownAfter.system) / 1e6, // this process: the Playwright client (and the page server)
      chromium: cpuAfter.descendants - cpuBefore.descendants,
      stores: cpuAfter.stores - cpuBefore.stores,
      bench: 0, // the Node column is this process
      machineBusy: (machineAfter.busy - machineBefore.busy) / CLK_TCK,
      machineTotal: (machineAfter.total - machineBefore.total) / CLK_TCK,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Phase 3: Vigil's capture engine in process, every Playwright call it makes timed

let prototypes = null;
let engine = null;
const restorers = [];

const STEP = {
  newContext: 'browser.newContext',
  newPage: 'context.newPage',
  close: 'context.close',
  goto: "page.goto (waitUntil 'load')",
  screenshot: 'page.screenshot (full page)',
};

function addStep(steps, name, ms) {
  const entry = steps.get(name) ?? { ms: 0, calls: 0 };
  entry.ms += ms;
  entry.calls += 1;
  steps.set(name, entry);
}

function instrument(steps) {
  const wrap = (proto, method, label) => {
    const original = proto[method];
    if (typeof original !== 'function') return;
    proto[method] = async function (...args) {
      const name = typeof label === 'function' ? label(...args) : label;
      if (name === null) return original.apply(this, args);
      const began = nowMs();
      try {
        return await original.apply(this, args);
      } finally {
        addStep(steps, name, nowMs() - began);
      }
    };
    restorers.push(() => {
      proto[method] = original;
    });
  };
  wrap(prototypes.browser, 'newContext', STEP.newContext);
  wrap(prototypes.context, 'newPage', STEP.newPage);
  wrap(prototypes.context, 'close', STEP.close);
  wrap(prototypes.page, 'goto', STEP.goto);
  wrap(prototypes.page, 'waitForLoadState', (state) => `page.waitForLoadState('${state}')`);
  wrap(prototypes.page, 'screenshot', STEP.screenshot);
  wrap(prototypes.page, 'evaluate', (fn) => `page.evaluate(${fn?.name || 'other'})`);
  // page.evaluate goes through Frame.evaluate too; only the axe-core source (a string) is timed here.
  wrap(prototypes.frame, 'evaluate', (fn) => (typeof fn === 'string' ? 'frame.evaluate(axe-core source)' : null));
  // axe-core's load overlaps the network settle, so its time is not all added to the capture's. The engine's other
  // work in the page is one function per evaluation (reading the page, preparing the screenshot, digests).
  wrap(prototypes.cdpSession, 'send', (method, params) => {
    if (method !== 'Runtime.evaluate') return `CDP ${method}`;
    const expression = params?.expression ?? '';
    if (expression.length > 100_000) return 'CDP Runtime.evaluate(axe-core source, during the settle)';
    if (expression.includes('axe.run(')) return 'CDP Runtime.evaluate(axe.run)';
    const name = /^\((?:async )?function (\w+)/.exec(expression)?.[1];
    return `CDP Runtime.evaluate(${name ?? 'other'})`;
  });
}

function uninstrument() {
  while (restorers.length) restorers.pop()();
}

async function runEngine() {
  const { CaptureEngine } = require(CAPTURE_LIB);
  const steps = new Map();
  instrument(steps);
  // The engine launches through this same playwright-core; keep Playwright's own signal handlers out of the way of
  // this script's cleanup.
  const launch = chromium.launch;
  chromium.launch = (options) => launch.call(chromium, { ...options, ...NO_SIGNAL_HANDLERS });
  try {
    const count = Math.min(settings.enginePages, settings.pages);
    const pageNumbers = Array.from({ length: count }, (_, i) => 1 + Math.floor((i * settings.pages) / count));
    const list = captureList(pageNumbers);
    engine = new CaptureEngine({ executablePath: settings.chromiumPath, allowPrivateTargets: true });
    const startedAt = nowMs();
    const durations = await runPool(list, settings.concurrency, async ({ url, viewport }) => {
      const began = nowMs();
      // As the service asks: release priority, and one scan shared between documents in the same state.
      const result = await engine.capture({ url, viewport, priority: 'release', scanScope: `bench/${viewport}` });
      if (!result.ok)
        throw new Error(`capture engine: ${url} ${viewport} is missing: ${result.reason} ${result.message}`);
      return nowMs() - began;
    });
    const wallMs = nowMs() - startedAt;
    await engine.close();
    engine = null;
    const captureMs = durations.reduce((sum, value) => sum + value, 0);
    durations.sort((a, b) => a - b);
    return { wallMs, p50: percentile(durations, 50), captureMs, steps, count: list.length, pageNumbers };
  } finally {
    chromium.launch = launch;
    uninstrument();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Phase 4: resemblejs on a 1440×900 pair

async function runResemble(pair) {
  const { createCanvas, loadImage } = require('canvas');
  const resemble = require('resemblejs');
  const { compareScreenshots, closeScreenshotWorker, readPngSize } = require(COMPARE_LIB);
  let [production, preview] = pair ?? [];
  if (!production || !preview) {
    // Fallback: draw two 1440×900 images with canvas that differ in one line of text.
    const draw = (extra) => {
      const canvas = createCanvas(1440, 900);
      const context = canvas.getContext('2d');
      context.fillStyle = '#fff';
      context.fillRect(0, 0, 1440, 900);
      context.fillStyle = '#1d2733';
      context.font = '18px sans-serif';
      for (let line = 0; line < 40; line++)
        context.fillText(`${sentence(seeded(line + 1))}${line === 7 ? extra : ''}`, 40, 40 + line * 21);
      return canvas.toBuffer('image/png');
    };
    [production, preview] = [draw(''), draw(' (changed)')];
  }
  const size = readPngSize(production);
  await loadImage(production); // the images decode
  try {
    const warm = await compareScreenshots(production, preview);
    const times = [];
    for (let run = 0; run < settings.resembleRuns; run++) {
      const began = nowMs();
      await compareScreenshots(production, preview);
      times.push(nowMs() - began);
    }
    // For reference: resemblejs called directly on this thread, same options, no worker hop.
    const direct = [];
    const options = { output: { errorType: 'movement', largeImageThreshold: 0 }, ignore: 'antialiasing' };
    for (let run = 0; run < Math.min(5, settings.resembleRuns); run++) {
      const began = nowMs();
      await new Promise((resolveCompare, reject) =>
        resemble.compare(production, preview, options, (error, data) => {
          if (error) reject(error);
          else {
            data.getBuffer(false);
            resolveCompare();
          }
        }),
      );
      direct.push(nowMs() - began);
      await new Promise((resolveTurn) => setImmediate(resolveTurn)); // canvas frees memory after a turn
    }
    times.sort((a, b) => a - b);
    direct.sort((a, b) => a - b);
    return {
      size,
      mismatch: warm.mismatch_ratio,
      median: percentile(times, 50),
      min: times[0],
      max: times.at(-1),
      directMedian: percentile(direct, 50),
    };
  } finally {
    await closeScreenshotWorker();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Cleanup: the service's resources as soon as phase 1 ends, everything else at the end; always, once each

let cleanedUp = null;

function cleanupService() {
  return run.cleanup();
}

function cleanup() {
  cleanedUp ??= (async () => {
    await cleanupService();
    uninstrument();
    await bareBrowser?.close().catch(() => undefined);
    await engine?.close().catch(() => undefined);
    try {
      const { closeScreenshotWorker } = require(COMPARE_LIB);
      await closeScreenshotWorker();
    } catch {
      // never loaded
    }
    if (pageServer) {
      pageServer.closeAllConnections();
      await new Promise((resolveClose) => pageServer.close(resolveClose));
    }
  })();
  return cleanedUp;
}

// ---------------------------------------------------------------------------------------------------------------
// Report

/**
 * `bare` is the issue's bare loop (STACK.md's launch); `bareSame` gives Chromium Vigil's switches, so it is the
 * stricter ceiling and the one BENCH_STRICT holds Vigil to.
 */
function report(vigil, bare, bareSame, engineRun, resembleRun) {
  const ratio = vigil.wallMs / bare.wallMs;
  const ratioSame = vigil.wallMs / bareSame.wallMs;
  const rssTotal = vigil.memory.totalPeak;
  const verdict = (value) =>
    value <= TARGET_RATIO ? `met${value <= STRETCH_RATIO ? ', stretch met' : ', stretch not met'}` : '**not met**';
  const rssMet = rssTotal < TARGET_RSS_BYTES;
  const cps = (ms) => captureCount / (ms / 1000);
  const cpuShare = (cpu) =>
    `Node ${fmt(cpu.node, 1)} s, Chromium ${fmt(cpu.chromium, 1)} s, PostgreSQL + Redis ${fmt(cpu.stores, 1)} s, ` +
    (cpu.bench ? `bench process ${fmt(cpu.bench, 1)} s, ` : '') +
    `anything else ${fmt(cpu.machineBusy - cpu.node - cpu.chromium - cpu.stores - cpu.bench, 1)} s; machine busy ` +
    `${fmt(cpu.machineBusy, 1)} of ${fmt(cpu.machineTotal, 1)} CPU-s (${pct(cpu.machineBusy / cpu.machineTotal)})`;
  const ownCpu = (cpu) => cpu.node + cpu.chromium + cpu.stores;
  const foreign = (cpu) => (cpu.machineBusy - ownCpu(cpu) - cpu.bench) / cpu.machineTotal;
  const disturbed = [
    ['Vigil run', vigil.cpu],
    ['bare loop', bare.cpu],
    ["bare loop with Vigil's switches", bareSame.cpu],
  ].filter(([, cpu]) => foreign(cpu) > 0.08);
  const lines = [
    `Vigil release-check benchmark: ${settings.pages} page pairs × 2 viewports = ${captureCount} page-viewport-side ` +
      `captures (axe + comparison in Vigil), concurrency ${settings.concurrency}; Node ${process.versions.node}, ` +
      `${cpus().length} CPU(s) (${cpus()[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 1024 ** 3).toFixed(0)} GB, ` +
      `Chromium ${chromiumVersion}, service ROLE=all LOG_LEVEL=warn, ${new Date().toISOString().slice(0, 16)}Z.`,
    '',
    "| Figure | Vigil (API, end to end) | Bare loop, STACK.md launch | Bare loop, Vigil's switches | Target | Result |",
    '| --- | ---: | ---: | ---: | --- | --- |',
    `| Wall time | ${fmt(vigil.wallMs / 1000)} s | ${fmt(bare.wallMs / 1000)} s | ${fmt(bareSame.wallMs / 1000)} s | | |`,
    `| Captures/s | ${fmt(cps(vigil.wallMs))} | ${fmt(cps(bare.wallMs))} | ${fmt(cps(bareSame.wallMs))} | | |`,
    `| Wall-time ratio Vigil / bare loop, STACK.md launch (the issue's) | **${fmt(ratio)}×** | 1.00× | | ` +
      `≤ ${TARGET_RATIO}× (stretch ≤ ${STRETCH_RATIO}×) | ${verdict(ratio)} |`,
    `| Wall-time ratio Vigil / bare loop, Vigil's switches (same browser setup) | **${fmt(ratioSame)}×** | | 1.00× | ` +
      `≤ ${TARGET_RATIO_SAME}× | ${ratioSame <= TARGET_RATIO_SAME ? 'met' : '**not met**'} |`,
    `| Peak RSS, Node process (sampled VmRSS / VmHWM) | ${mb(vigil.memory.rootPeak)} / ${mb(vigil.hwm)} | ` +
      `(client, n/a) | (client, n/a) | | |`,
    `| Peak RSS, Chromium processes (sum) | ${chromiumMemory(vigil.memory)} | ${chromiumMemory(bare.memory)} | ` +
      `${chromiumMemory(bareSame.memory)} | | |`,
    `| Peak RSS, worker total (Node + Chromium) | **${mb(rssTotal)}** | ${mb(bare.memory.childPeak)} | ` +
      `${mb(bareSame.memory.childPeak)} | < 1.5 GB | ${rssMet ? 'met' : '**not met**'} |`,
    `| Peak PSS, same processes (shared pages split; Node + Chromium) | ${mb(vigil.memory.pssPeak)} ` +
      `(${mb(vigil.memory.rootPssPeak)} + ${mb(vigil.memory.childPssPeak)}) | ${mb(bare.memory.pssPeak)} | ` +
      `${mb(bareSame.memory.pssPeak)} | | |`,
    `| resemblejs, one 1440×900 comparison (median of ${settings.resembleRuns}) | ` +
      `${fmt(resembleRun.median, 0)} ms | | | | |`,
    '',
    `- Vigil: check ${vigil.id}, summary ${JSON.stringify(vigil.summary)}, ${vigil.screenshotsChanged} pair(s) with ` +
      `screenshot differences. ${vigil.polls} polls every ${settings.pollMs} ms (the wall time ends at the ` +
      `check's completed_at; the client saw it ${fmt((vigil.observedMs - vigil.wallMs) / 1000, 1)} s later): GET p50 ${fmt(vigil.pollP50, 0)} ms, p90 ${fmt(vigil.pollP90, 0)} ms, ` +
      `last body ${fmt(vigil.pollBytes / 1024, 0)} KB. Server timestamps from POST: first capture stored at ` +
      `${fmt(vigil.timeline.firstCaptureS, 1)} s (includes Chromium launch), last at ` +
      `${fmt(vigil.timeline.lastCaptureS, 1)} s; first pair compared (seen by polling) at ` +
      `${fmt(vigil.timeline.firstComparedS, 1)} s; check completed at ${fmt(vigil.timeline.completedS, 1)} s ` +
      `(${fmt(vigil.timeline.completedS - vigil.timeline.lastCaptureS, 1)} s after the last capture).`,
    `- CPU during the Vigil run: ${cpuShare(vigil.cpu)}. The idle service (ROLE=all: scheduler, outbox and ` +
      `delivery pollers), measured for ${IDLE_SAMPLE_MS / 1000} s before the POST, spends ` +
      `${fmt(vigil.idlePerSecond.node * 1000, 0)} ms of Node and ${fmt(vigil.idlePerSecond.stores * 1000, 0)} ms of ` +
      `PostgreSQL + Redis CPU per second: about ${fmt((vigil.idlePerSecond.node + vigil.idlePerSecond.stores) * (vigil.wallMs / 1000), 1)} ` +
      `CPU-s of this run.`,
    `- CPU-time ratio (Vigil's Node + Chromium + PostgreSQL/Redis over the bare loop's Node + Chromium): ` +
      `${fmt(ownCpu(vigil.cpu) / ownCpu(bare.cpu))}× the STACK.md launch's, ` +
      `${fmt(ownCpu(vigil.cpu) / ownCpu(bareSame.cpu))}× the same switches' — less sensitive than wall time to ` +
      'other load on the machine.',
    `- The service's Node process: peak VmRSS at ${fmt(vigil.memory.rootPeakAt, 1)} s = RssAnon ` +
      `${mb(vigil.memory.rootPeakParts?.anon)} + RssFile ${mb(vigil.memory.rootPeakParts?.file)} + RssShmem ` +
      `${mb(vigil.memory.rootPeakParts?.shmem)}; at the end RssAnon ${mb(vigil.nodeMemory.rssAnon)}, RssFile ` +
      `${mb(vigil.nodeMemory.rssFile)}` +
      (vigil.nodeMemory.heap
        ? `; main-thread JS heap used ${mb(vigil.nodeMemory.heap.usedSize)} of ${mb(vigil.nodeMemory.heap.totalSize)}` +
          (vigil.nodeMemory.heap.embedderHeapUsedSize
            ? `, embedder heap ${mb(vigil.nodeMemory.heap.embedderHeapUsedSize)}`
            : '')
        : ' (BENCH_PROFILE also reports its JS heap)') +
      '.',
    ...[
      ['STACK.md launch', bare],
      ["Vigil's switches", bareSame],
    ].map(
      ([label, loop]) =>
        `- Bare loop, ${label}: Chromium launch ${fmt(loop.launchMs, 0)} ms (included), per capture p50 ` +
        `${fmt(loop.p50, 0)} ms, p90 ${fmt(loop.p90, 0)} ms. CPU: ${cpuShare(loop.cpu)} (Node = this process: ` +
        'Playwright client and page server).',
    ),
    `- Vigil's switches: \`${captureBrowserArgs().join(' ')}\` after Playwright's defaults.`,
    `- resemblejs: ${resembleRun.size.width}×${resembleRun.size.height} pair, mismatch ratio ${resembleRun.mismatch.toPrecision(3)}; ` +
      `compareScreenshots (worker thread) median ${fmt(resembleRun.median, 0)} ms (min ${fmt(resembleRun.min, 0)}, ` +
      `max ${fmt(resembleRun.max, 0)}); resemblejs.compare on the main thread, median ${fmt(resembleRun.directMedian, 0)} ms.`,
    `- Sampling cost: ${vigil.memory.samples} samples, ${fmt(vigil.memory.costMs / vigil.memory.samples, 1)} ms each.`,
  ];
  if (disturbed.length) {
    lines.push(
      '',
      `**Warning: other processes used ${disturbed
        .map(([label, cpu]) => `${pct(foreign(cpu))} of the machine's CPU during the ${label}`)
        .join(' and ')}; the wall times and their ratio are distorted. Repeat on a quiet machine.**`,
    );
  }
  if (engineRun) {
    const outside = (steps, total, count) => {
      const rest = total - [...steps.values()].reduce((sum, entry) => sum + entry.ms, 0);
      return `${fmt(rest / count, 0)} | ${pct(rest / total)}`;
    };
    const perEngineCapture = engineRun.captureMs / engineRun.count;
    const perBareCapture = bareSame.captureMs / captureCount;
    lines.push(
      '',
      `Where a capture's time goes: Vigil's CaptureEngine (dist/libs/capture) in this process, ${engineRun.count} ` +
        `captures (pages ${engineRun.pageNumbers.join(', ')} × 2 viewports × 2 sides), same concurrency, no ` +
        `API/queue/database/comparison: per capture mean ${fmt(perEngineCapture, 0)} ms, p50 ` +
        `${fmt(engineRun.p50, 0)} ms (bare loop with the same switches: mean ${fmt(perBareCapture, 0)} ms, ` +
        `${fmt(perEngineCapture / perBareCapture)}×). Each Playwright call timed (overlapping calls of concurrent ` +
        'captures each count in full):',
      '',
      '| Playwright call (mean per capture) | Vigil engine ms | share | bare loop ms | share |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...[...new Set([...engineRun.steps.keys(), ...bareSame.steps.keys()])]
        .sort((a, b) => (engineRun.steps.get(b)?.ms ?? 0) - (engineRun.steps.get(a)?.ms ?? 0))
        .map((name) => {
          const ours = engineRun.steps.get(name);
          const theirs = bareSame.steps.get(name);
          const cell = (entry, total, count) =>
            entry ? `${fmt(entry.ms / count, 0)} | ${pct(entry.ms / total)}` : '– | –';
          const engineCell = cell(ours, engineRun.captureMs, engineRun.count);
          return `| \`${name}\` | ${engineCell} | ${cell(theirs, bareSame.captureMs, captureCount)} |`;
        }),
      `| (outside Playwright calls: the network settle, Node's own work) | ${outside(engineRun.steps, engineRun.captureMs, engineRun.count)} | ${outside(bareSame.steps, bareSame.captureMs, captureCount)} |`,
      `| (whole capture) | ${fmt(perEngineCapture, 0)} | 100% | ${fmt(perBareCapture, 0)} | 100% |`,
    );
  }
  lines.push(
    '',
    `Repeat with: \`npm run bench:release\` (= \`node bench/release.mjs\`; \`--build\` rebuilds dist/ first; ` +
      `\`BENCH_CONCURRENCY=${settings.concurrency}\` to change the concurrency, ` +
      '`BENCH_PROFILE=/tmp/relprof` to profile the service).',
  );
  console.log(lines.join('\n'));
  return ratioSame <= TARGET_RATIO_SAME && rssMet;
}

function chromiumMemory(memory) {
  return `${mb(memory.childPeak)} (≤ ${memory.maxProcesses} procs, ≤ ${memory.maxRenderers} renderers)`;
}

// ---------------------------------------------------------------------------------------------------------------

let chromiumVersion = 'unknown';

async function main() {
  ensureBuilt(settings.build, [MAIN, COMPARE_LIB, CAPTURE_LIB]);
  // Loaded now, so a rebuild of dist/ during the run (nest build empties it first) cannot pull them away later.
  require(CAPTURE_LIB);
  require(COMPARE_LIB);
  chromiumVersion =
    spawnSync(settings.chromiumPath, ['--version'], { encoding: 'utf8' })
      .stdout?.trim()
      .replace(/^Chromium\s*/, '') || 'unknown';

  await startPageServer();
  const benchStartedMs = Date.now();

  log('phase 1: the release check through the API');
  const vigil = await runVigil();
  log(
    `phase 1: ${fmt(vigil.wallMs / 1000)} s, ${fmt(captureCount / (vigil.wallMs / 1000))} captures/s, ` +
      `peak RSS node ${mb(vigil.memory.rootPeak)} + chromium ${mb(vigil.memory.childPeak)}`,
  );
  const serviceOutput = service.output.filter((line) => !/^Debugger (attached|listening)|^For help, see/.test(line));
  await cleanupService(); // stopped before the bare loop, so they do not compete
  if (settings.vigilOnly) {
    console.log(
      `Vigil alone: ${fmt(vigil.wallMs / 1000)} s; CPU Node ${fmt(vigil.cpu.node, 1)} s, Chromium ` +
        `${fmt(vigil.cpu.chromium, 1)} s, PostgreSQL + Redis ${fmt(vigil.cpu.stores, 1)} s (idle service: ` +
        `${fmt(vigil.idlePerSecond.node * 1000, 0)} + ${fmt(vigil.idlePerSecond.stores * 1000, 0)} ms/s); machine busy ` +
        `${pct(vigil.cpu.machineBusy / vigil.cpu.machineTotal)}; peak PSS ${mb(vigil.memory.pssPeak)} ` +
        `(${mb(vigil.memory.rootPssPeak)} + ${mb(vigil.memory.childPssPeak)}); summary ${JSON.stringify(vigil.summary)}`,
    );
    return 0;
  }

  log("phase 2: the bare Playwright loop, STACK.md's launch (Playwright's default switches)");
  const bare = await runBare(STACK_BROWSER_ARGS);
  log(`phase 2: ${fmt(bare.wallMs / 1000)} s, ${fmt(captureCount / (bare.wallMs / 1000))} captures/s`);
  log("phase 2b: the bare Playwright loop with Vigil's Chromium switches");
  const bareSameSwitches = await runBare(captureBrowserArgs());
  log(
    `phase 2b: ${fmt(bareSameSwitches.wallMs / 1000)} s, ` +
      `${fmt(captureCount / (bareSameSwitches.wallMs / 1000))} captures/s`,
  );

  let engineRun = null;
  if (settings.engine && prototypes) {
    log("phase 3: Vigil's capture engine in process, Playwright calls timed");
    engineRun = await runEngine();
    log(`phase 3: ${fmt(engineRun.wallMs / 1000)} s`);
  }

  log('phase 4: resemblejs on a 1440×900 pair');
  const resembleRun = await runResemble(resemblePair);

  console.log('');
  const met = report(vigil, bare, bareSameSwitches, engineRun, resembleRun);

  if (vigil.profileSummary)
    printProfileSummary(`Service CPU profile (${vigil.profileSummary.file})`, vigil.profileSummary.summary);
  for (const file of cpuProfFiles(benchStartedMs)) {
    try {
      printProfileSummary(`--cpu-prof ${file}`, summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), vigil.window));
    } catch (error) {
      log(`could not summarize ${file}: ${error.message}`);
    }
  }
  if (settings.nodeOptions.includes('--cpu-prof') && !cpuProfFiles(benchStartedMs).length) {
    log('no .cpuprofile was written by the service (Node writes one only on a clean exit); use BENCH_PROFILE=DIR');
  }
  if (serviceOutput.length) {
    log(`the service logged ${serviceOutput.length} line(s) at LOG_LEVEL=warn during the run (last 10):`);
    for (const line of serviceOutput.slice(-10)) console.error(line);
  }
  if (!met && settings.strict) return 2;
  return 0;
}

await runBench(main, cleanup, {
  budgetMs: 60_000 + settings.timeoutS * 1000 + 300_000,
  onFailure: () => service?.printOutput(),
});
