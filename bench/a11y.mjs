#!/usr/bin/env node
// Accessibility-scan benchmark: the same local pages scanned by Vigil through its API (both viewports) and, in the
// same run, by pa11y-ci with its axe runner (one viewport, concurrency 1 and 2).
//
//   npm run bench:a11y            (node bench/a11y.mjs; builds first only when dist/ lacks the service)
//
// Phases, in one run:
//   1. Vigil: starts the built service (ROLE=all: API + workers in one process, CAPTURE_CONCURRENCY=BENCH_CONCURRENCY)
//      against a throw-away database and Redis prefix, creates one monitor per page, then starts every scan at once
//      (POST /monitors/{id}/a11y-scan, desktop and mobile) and polls GET /a11y-scans until all have ended. The wall
//      time runs from the first POST to the last scan's completed_at. The service is stopped before phase 2.
//   2. pa11y-ci 4.1.1 (installed on first use into .tmp/bench-tools, no browser download: it drives the same Debian
//      Chromium), runner axe, WCAG2AA, 1440 × 900, concurrency 1 and then 2, over the same pages.
// Every 500 ms the summed RSS (and every 2.5 s the summed PSS) of each tool's process tree (Node and its Chromium
// processes) is read from /proc; the peaks are reported. A markdown table goes to stdout, progress to stderr.
// Everything made (service, page server, database, Redis keys) is removed at the end, also on failure.
//
// Settings (environment):
//   BENCH_PAGES=20           pages (Vigil scans each at 2 viewports; pa11y-ci at 1)
//   BENCH_CONCURRENCY=2      the service's CAPTURE_CONCURRENCY
//   BENCH_TIMEOUT=300        seconds each phase may take
//   BENCH_CHROMIUM          the Chromium captured with; default: the service's (the headless shell when installed)
//   BENCH_PG_URL, BENCH_REDIS_URL, BENCH_PORT, BENCH_BUILD=1 (as the other benchmarks)
//   BENCH_STRICT=1           exit 2 when Vigil's page-viewports take longer than pa11y-ci's pages

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { chromiumSetting, startCaptureService } from './lib/capture.mjs';
import { ensureBuilt, fmt, HOST, intSetting, log, mb, ROOT, serviceSettings, sleep } from './lib/common.mjs';
import { closeServer, listenLocal } from './lib/http.mjs';
import { startTreeSampler } from './lib/sampler.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const PA11Y_CI_VERSION = '4.1.1';
const TOOLS = join(ROOT, '.tmp', 'bench-tools');
const PA11Y_CI = join(TOOLS, 'node_modules', '.bin', 'pa11y-ci');

const settings = {
  ...serviceSettings(),
  pages: intSetting('BENCH_PAGES', 20, 1, 200),
  concurrency: intSetting('BENCH_CONCURRENCY', 2, 1, 16),
  timeoutS: intSetting('BENCH_TIMEOUT', 300, 10, 3600),
  chromiumPath: chromiumSetting(),
};
const run = new BenchRun(settings);
let pageServer = null;

/** Page n: a few paragraphs and a list, different per page; some lack alt text, some have low-contrast notes. */
function pageHtml(n) {
  const paragraphs = Array.from(
    { length: 3 + (n % 5) },
    (_, index) =>
      `<p>Section ${index + 1} of page ${n}: monitoring, release checks and reports for the team's sites.</p>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${n}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:"Liberation Sans",Arial,sans-serif;margin:2rem} .note{color:#aaa}</style></head>
<body><header><nav aria-label="Main"><a href="/page-1">Home</a> <a href="/page-2">Pricing</a></nav></header>
<main><h1>Page ${n}</h1>${paragraphs.join('')}
${n % 3 === 0 ? '<img src="/logo.png">' : '<img src="/logo.png" alt="Example Co">'}
${n % 4 === 1 ? '<p class="note">Prices exclude tax.</p>' : '<p>Prices exclude tax.</p>'}
<ul>${Array.from({ length: 4 + (n % 4) }, (_, index) => `<li>Item ${index + 1}</li>`).join('')}</ul>
</main></body></html>`;
}

async function startPages() {
  pageServer = createServer((request, response) => {
    const match = /^\/page-(\d+)$/.exec(request.url ?? '');
    if (!match) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(Number(match[1])));
  });
  const base = await listenLocal(pageServer);
  return Array.from({ length: settings.pages }, (_, index) => `${base}/page-${index + 1}`);
}

/** Peak summed RSS and PSS of a process and its descendants, read from /proc every 500 ms (PSS 2.5 s) while `work` runs. */
async function measured(rootPid, work) {
  const sampler = startTreeSampler(rootPid, { everyMs: 500, pssEvery: 5 });
  let result;
  try {
    result = await work();
  } finally {
    sampler.stop({ finalSample: false });
  }
  return { result, peaks: { rss: sampler.stats.totalPeak, pss: sampler.stats.pssPeak } };
}

async function vigil(urls) {
  const port = settings.port || (await freePort());
  const api = new ApiClient(`http://${HOST}:${port}`);
  log(`Vigil: starting the service on ${api.baseUrl} (CAPTURE_CONCURRENCY=${settings.concurrency})`);
  const service = await startCaptureService(run, api, {
    port,
    concurrency: settings.concurrency,
    chromiumPath: settings.chromiumPath,
  });
  const { secret } = await api.adminKey(run, ['monitors:read', 'monitors:write']);
  const call = (method, path, body) =>
    api.expect(method === 'POST' ? (body ? 201 : 202) : 200, method, path, { apiKey: secret, body });
  const monitors = [];
  for (const [index, url] of urls.entries()) {
    // A day's interval: the monitors' own checks stay out of the way.
    monitors.push(
      (await call('POST', '/api/v1/monitors', { name: `page ${index + 1}`, url, interval_seconds: 86_400 })).json.id,
    );
  }
  const { result, peaks } = await measured(service.pid, async () => {
    const startedAt = Date.now();
    await Promise.all(
      monitors.map((id) => api.expect(202, 'POST', `/api/v1/monitors/${id}/a11y-scan`, { apiKey: secret, body: {} })),
    );
    const deadline = Date.now() + settings.timeoutS * 1000;
    for (;;) {
      const { json } = await call('GET', '/api/v1/a11y-scans?per_page=100');
      const ended = json.data.filter((scan) => scan.status === 'completed' || scan.status === 'failed');
      if (ended.length === monitors.length) {
        const last = Math.max(...ended.map((scan) => Date.parse(scan.completed_at)));
        return {
          wallS: (last - startedAt) / 1000,
          failed: ended.filter((scan) => scan.status === 'failed').length,
          findings: ended.reduce((sum, scan) => sum + (scan.summary?.violations ?? 0), 0),
        };
      }
      if (Date.now() > deadline) throw new Error(`scans did not end within ${settings.timeoutS} s`);
      await sleep(250);
    }
  });
  await service.stop();
  return { label: 'Vigil (API, queue, both viewports)', pageViewports: urls.length * 2, ...result, peaks };
}

function ensurePa11yCi() {
  if (existsSync(PA11Y_CI)) return;
  log(`installing pa11y-ci ${PA11Y_CI_VERSION} into ${TOOLS} (once; no browser download)`);
  mkdirSync(TOOLS, { recursive: true });
  if (!existsSync(join(TOOLS, 'package.json'))) writeFileSync(join(TOOLS, 'package.json'), '{"private":true}\n');
  const install = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', `pa11y-ci@${PA11Y_CI_VERSION}`],
    {
      cwd: TOOLS,
      stdio: 'inherit',
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: 'true' },
    },
  );
  if (install.status !== 0) throw new Error(`installing pa11y-ci failed (exit ${install.status ?? install.signal})`);
}

async function pa11yCi(urls, concurrency) {
  const config = join(run.dir, `pa11y-ci-${concurrency}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      defaults: {
        runners: ['axe'],
        standard: 'WCAG2AA',
        concurrency,
        timeout: 60_000,
        viewport: { width: 1440, height: 900 },
        chromeLaunchConfig: {
          executablePath: settings.chromiumPath,
          args: ['--no-sandbox', '--disable-gpu', '--disable-quic'],
        },
      },
      urls,
    }),
  );
  log(`pa11y-ci: ${urls.length} pages, concurrency ${concurrency}`);
  const child = spawn(PA11Y_CI, ['--config', config, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const { result, peaks } = await measured(child.pid, async () => {
    const startedAt = Date.now();
    // pa11y-ci exits 2 when it finds issues, which these pages have.
    const code = await new Promise((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    if (code !== 0 && code !== 2) throw new Error(`pa11y-ci exited ${code}: ${output.slice(-800)}`);
    return { wallS: (Date.now() - startedAt) / 1000 };
  });
  const report = JSON.parse(output.slice(output.indexOf('{')));
  return {
    label: `pa11y-ci ${PA11Y_CI_VERSION}, axe runner, concurrency ${concurrency}`,
    pageViewports: urls.length,
    failed: 0,
    findings: report.errors,
    ...result,
    peaks,
  };
}

async function main() {
  ensureBuilt(settings.build);
  ensurePa11yCi();
  const urls = await startPages();
  const rows = [await vigil(urls), await pa11yCi(urls, 1), await pa11yCi(urls, 2)];
  console.log(
    `\n## Accessibility scans: ${urls.length} local pages (Node ${process.versions.node}, ${new Date().toISOString().slice(0, 10)})\n`,
  );
  console.log(
    '| tool | page-viewports | wall (s) | page-viewports/s | errors found | peak RSS (tree) | peak PSS (tree) |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    console.log(
      `| ${row.label} | ${row.pageViewports}${row.failed ? ` (${row.failed} failed)` : ''} | ${fmt(row.wallS, 1)} | ` +
        `${fmt(row.pageViewports / row.wallS, 2)} | ${row.findings} | ${mb(row.peaks.rss)} | ${mb(row.peaks.pss)} |`,
    );
  }
  const [ours, ...theirs] = rows;
  const fastest = Math.min(...theirs.map((row) => row.wallS));
  const met = ours.wallS < fastest;
  console.log(
    `\nVigil's ${ours.pageViewports} page-viewports took ${fmt(ours.wallS, 1)} s; pa11y-ci's ${urls.length} pages ` +
      `${fmt(fastest, 1)} s at best (target: less: ${met ? 'met' : 'not met'}).`,
  );
  console.log('\nRepeat with: `npm run build && npm run bench:a11y`');
  return settings.strict && !met ? 2 : 0;
}

await runBench(
  main,
  async () => {
    await closeServer(pageServer);
    await run.cleanup();
  },
  { budgetMs: (settings.timeoutS * 3 + 120) * 1000, onFailure: () => run.printOutput() },
);
