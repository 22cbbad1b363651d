#!/usr/bin/env node
// Noise benchmark: false differences and real changes found on a site whose pages move on their own (clocks,
// animations, rotating content: test/support/moving-site.ts), for Vigil's release check and for BackstopJS 6.3.25
// on the same pages, viewports and Chromium.
//
//   npm run build && npm run bench:noise      (node bench/noise.mjs; builds first only when dist/ lacks the service)
//
// Three copies of the moving site run on 127.0.0.1: A (production), B (a second deployment of the same code) and
// C (a preview with the site's REAL_CHANGES). Every MOVING_PAGES path is compared with itself at desktop (1440 × 900)
// and mobile (390 × 844):
//   1. Vigil: starts the built service (ROLE=all, CAPTURE_CONCURRENCY=BENCH_CONCURRENCY, ALLOW_PRIVATE_TARGETS=true)
//      on a throw-away database and Redis prefix, creates an API key, and runs two release checks through the API
//      with its defaults (no mask selectors, mismatch threshold 0), one after the other: A vs B ("same code") and
//      A vs C ("real changes"), each polled until collection_status is completed or incomplete. A pair (page ×
//      viewport) whose comparison has has_differences is a false difference, except on a REAL_CHANGES path in A vs C,
//      where it is a real change found (the "changed dimension" figure also asks that a dimension the change shows in
//      differed). Pairs whose comparison.unstable holds evidence (lines, regions, robots, canonical or findings that
//      differed between two looks at one side) are counted as "shown apart as moving", when the service reports it
//      (n/a otherwise). The service's pages load A twice (once per check). The service is stopped before phase 2.
//   2. BackstopJS 6.3.25 (installed on first use into .tmp/bench-tools, no browser download; puppeteer engine driving
//      the same Debian Chromium): one scenario per path, the same two viewports, its defaults for dynamic pages
//      (misMatchThreshold 0.1 %, requireSameDimensions, full-page "document" capture) with a delay of
//      BENCH_BACKSTOP_DELAY ms; asyncCaptureLimit=BENCH_CONCURRENCY. `backstop reference` against A, then `backstop
//      test` against B and against C; the pairs are read from its JSON report (status fail = a difference), not from
//      its exit code. Its only evidence is pixels, so it cannot see a findings-, robots- or canonical-only change; a
//      moving page that fails on such a path still counts as "found" (but not "in the changed dimension").
// A readable report and a markdown table (one row per tool) go to stdout, progress to stderr, and the same figures
// with every pair to .tmp/bench-noise.json. Exit 0 when both tools ran (the bench measures, it does not judge), 1 when
// something failed to run. Wall time: Vigil from the first POST to the second check's completed_at (4 captures per
// pair, each with an axe scan, plus any second looks); BackstopJS reference + two tests (3 captures per pair, each
// in a browser of its own). Everything made (sites, service, database, Redis keys, BackstopJS's output under
// .tmp/bench-noise-<id>/) is removed at the end, also on failure or Ctrl-C.
//
// Settings (environment):
//   BENCH_CONCURRENCY=2          Vigil's CAPTURE_CONCURRENCY and BackstopJS's asyncCaptureLimit
//   BENCH_BACKSTOP_DELAY=1000    BackstopJS's per-scenario delay after load, ms
//   BENCH_POLL_MS=1000           pause between polls of a release check
//   BENCH_TIMEOUT=600            seconds each release check and each BackstopJS command may take
//   BENCH_ONLY=vigil|backstop    run one tool only (default: both)
//   BENCH_KEEP=1                 keep BackstopJS's output (bitmaps, reports) under .tmp/bench-noise-<id>/
//   BENCH_CHROMIUM          the Chromium captured with; default: the service's (the headless shell when installed)
//   BENCH_NOISE_SITE=FILE        another module with moving-site.ts's exports (default test/support/moving-site.ts)
//   BENCH_PG_URL, BENCH_REDIS_URL, BENCH_PORT, BENCH_BUILD=1 or --build (as the other benchmarks)

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromiumSetting, chromiumVersion, pollReleaseCheck, startCaptureService } from './lib/capture.mjs';
import { ensureBuilt, flagSetting, fmt, HOST, intSetting, log, ROOT, serviceSettings } from './lib/common.mjs';
import { descendantsOf, processTable } from './lib/procfs.mjs';
import { ApiClient, BenchRun, freePort, runBench } from './lib/service.mjs';

const BACKSTOP_VERSION = '6.3.25';
const TOOLS = join(ROOT, '.tmp', 'bench-tools');
const BACKSTOP = join(TOOLS, 'node_modules', '.bin', 'backstop');
const SITE_MODULE = process.env.BENCH_NOISE_SITE?.trim()
  ? resolve(process.env.BENCH_NOISE_SITE.trim())
  : join(ROOT, 'test', 'support', 'moving-site.ts');
const RESULT_FILE = join(ROOT, '.tmp', 'bench-noise.json');
const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'mobile', width: 390, height: 844 },
];
/** BackstopJS's default misMatchThreshold: a percentage of pixels. */
const BACKSTOP_MISMATCH_THRESHOLD = 0.1;
const OUTPUT_LINES = 200;

const only = process.env.BENCH_ONLY?.trim() || '';
if (!['', 'vigil', 'backstop'].includes(only)) {
  console.error(`bench: BENCH_ONLY=${JSON.stringify(only)} must be vigil or backstop`);
  process.exit(64);
}
const settings = {
  ...serviceSettings(),
  concurrency: intSetting('BENCH_CONCURRENCY', 2, 1, 16),
  backstopDelayMs: intSetting('BENCH_BACKSTOP_DELAY', 1000, 0, 60_000),
  pollMs: intSetting('BENCH_POLL_MS', 1000, 50, 10_000),
  timeoutS: intSetting('BENCH_TIMEOUT', 600, 10, 7200),
  keep: flagSetting('BENCH_KEEP'),
  chromiumPath: chromiumSetting(),
  vigil: only !== 'backstop',
  backstop: only !== 'vigil',
};

const run = new BenchRun(settings);
const backstopDir = join(ROOT, '.tmp', `bench-noise-${run.id}`);
const sites = [];
let service = null;
let backstopChild = null;
let stopping = false;

const baseOf = (site) => site.url.replace(/\/+$/, '');

// ---------------------------------------------------------------------------------------------------------------
// Counting

/**
 * What a comparison's `unstable` value (UnstableEvidence in openapi.yaml: lines, regions, robots, canonical,
 * findings; null when nobody looked twice) shows moved on its own, as a list of dimensions; empty when nothing did.
 */
function unstableDimensions(value) {
  if (!value || typeof value !== 'object') return [];
  const dimensions = [];
  const count = (items, noun) => `${items.length} ${noun}${items.length === 1 ? '' : 's'}`;
  if (value.lines?.length) dimensions.push(`text (${count(value.lines, 'line')})`);
  if (value.regions?.length) dimensions.push(`screenshot (${count(value.regions, 'region')})`);
  if (value.findings?.length) dimensions.push(`findings (${value.findings.length})`);
  if (value.robots === true) dimensions.push('robots');
  if (value.canonical === true) dimensions.push('canonical');
  return dimensions;
}

/** The dimensions in which a Vigil comparison saw a difference. */
function vigilDimensions(comparison) {
  const dimensions = [];
  if (comparison.text?.changed) dimensions.push('text');
  if (comparison.screenshot?.changed) dimensions.push('screenshot');
  if (comparison.findings?.new?.length || comparison.findings?.fixed?.length) dimensions.push('findings');
  if (comparison.robots?.changed) dimensions.push('robots');
  if (comparison.canonical?.changed) dimensions.push('canonical');
  return dimensions;
}

/**
 * The figures of one tool from its pairs: { comparison: 'same' | 'changed', path, viewport, error, different,
 * unstable (true/false, or null when the tool has no such notion) }.
 */
function score(pairs, realChanges) {
  const realPaths = new Set(realChanges.map((change) => change.path));
  const changeDimensions = new Map(realChanges.map((change) => [change.path, change.dimensions]));
  const ofRun = (name) => pairs.filter((pair) => pair.comparison === name);
  const compared = (list) => list.filter((pair) => !pair.error);
  const same = ofRun('same');
  const changed = ofRun('changed');
  const changedElsewhere = changed.filter((pair) => !realPaths.has(pair.path));
  const changedReal = changed.filter((pair) => realPaths.has(pair.path));
  // Pairs on pages without a real change that were reported as different.
  const falseDifferences = [
    ...compared(same).filter((pair) => pair.different),
    ...compared(changedElsewhere).filter((pair) => pair.different),
  ];
  const reportsUnstable = pairs.some((pair) => pair.unstable !== null);
  const unstable = pairs.filter((pair) => pair.unstable);
  return {
    pairsPerComparison: same.length || changed.length,
    errors: { same: same.length - compared(same).length, changed: changed.length - compared(changed).length },
    falseSame: { count: compared(same).filter((pair) => pair.different).length, of: compared(same).length },
    falseChanged: {
      count: compared(changedElsewhere).filter((pair) => pair.different).length,
      of: compared(changedElsewhere).length,
    },
    realFound: {
      count: compared(changedReal).filter((pair) => pair.different).length,
      of: changedReal.length,
      // Found in a dimension the change shows in (a screenshot difference from motion on a page whose real change
      // is a robots tag does not count here).
      inItsDimension: compared(changedReal).filter(
        (pair) =>
          pair.different &&
          pair.dimensions.some((dimension) => changeDimensions.get(pair.path).includes(dimension.split(' ')[0])),
      ).length,
    },
    shownApart: reportsUnstable
      ? {
          pairs: unstable.length,
          of: pairs.length,
          sameCode: same.filter((pair) => pair.unstable).length,
          withChangesElsewhere: changedElsewhere.filter((pair) => pair.unstable).length,
          onRealChanges: changedReal.filter((pair) => pair.unstable).length,
          alsoFalseDifferences: falseDifferences.filter((pair) => pair.unstable).length,
        }
      : null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Phase 1: Vigil

async function vigil(site, pages) {
  const port = settings.port || (await freePort());
  const api = new ApiClient(`http://${HOST}:${port}`);
  const serviceTmp = join(run.dir, 'tmp');
  mkdirSync(serviceTmp, { recursive: true });
  log(`Vigil: starting the service on ${api.baseUrl} (CAPTURE_CONCURRENCY=${settings.concurrency})`);
  service = await startCaptureService(run, api, {
    port,
    concurrency: settings.concurrency,
    chromiumPath: settings.chromiumPath,
    env: { TMPDIR: serviceTmp }, // Chromium's and the service's temporary files, removed with the run's directory
  });
  service.output.length = 0; // start-up went fine; keep only what follows
  const { secret } = await api.adminKey(run, ['monitors:read', 'monitors:write']);

  const checks = {};
  const startedAt = Date.now();
  for (const [comparison, preview] of [
    ['same', site.B],
    ['changed', site.C],
  ]) {
    checks[comparison] = await releaseCheck(api, secret, comparison, site.A, preview, pages);
  }
  const wallS = (Math.max(...Object.values(checks).map((check) => check.endedAt)) - startedAt) / 1000;
  const serviceOutput = [...service.output];
  await service.stop();

  const pairs = [];
  for (const [comparison, check] of Object.entries(checks)) {
    for (const artifact of check.artifacts ?? []) {
      const result = artifact.comparison;
      const unstableValue = result && Object.hasOwn(result, 'unstable') ? result.unstable : undefined;
      pairs.push({
        comparison,
        path: artifact.production_path,
        viewport: artifact.viewport,
        error:
          artifact.state === 'compared' && result
            ? null
            : `state ${artifact.state}: ${JSON.stringify(artifact.production?.missing ?? artifact.preview?.missing ?? null)}`,
        different: result?.has_differences === true,
        dimensions: result ? vigilDimensions(result) : [],
        screenshotMismatch: result?.screenshot?.mismatch_ratio ?? null,
        textAdded: result?.text?.added?.slice(0, 3) ?? [],
        textRemoved: result?.text?.removed?.slice(0, 3) ?? [],
        // null: the service does not report what moved on its own (before comparison.unstable existed).
        unstable: unstableValue === undefined ? null : unstableDimensions(unstableValue).length > 0,
        unstableDimensions: unstableDimensions(unstableValue),
        unstableDetail: unstableValue ?? null,
      });
    }
  }
  return {
    tool: 'Vigil',
    label: 'Vigil release check (defaults: threshold 0, no masks)',
    wallS,
    checks: Object.fromEntries(
      Object.entries(checks).map(([name, check]) => [
        name,
        { id: check.id, collection_status: check.collection_status, summary: check.summary, wallS: check.wallS },
      ]),
    ),
    pairs,
    unstableNote: 'not reported (the comparisons of this build have no `unstable` field)',
    serviceOutput: serviceOutput.slice(-20),
  };
}

async function releaseCheck(api, apiKey, comparison, production, preview, pages) {
  const body = {
    name: `bench noise ${comparison} ${run.id}`,
    production_url: baseOf(production),
    preview_url: baseOf(preview),
    request_key: `bench-noise-${comparison}-${run.id}`,
    pages: pages.map(({ path }) => ({ production_path: path, preview_path: path })),
    viewports: VIEWPORTS.map((viewport) => viewport.name),
  };
  const startedAt = Date.now();
  const posted = await api.expect(201, 'POST', '/api/v1/release-checks', { apiKey, body });
  const id = posted.json?.id;
  if (!id) throw new Error(`the release check has no id: ${posted.text.slice(0, 300)}`);
  log(`Vigil: release check ${comparison === 'same' ? 'A vs B (same code)' : 'A vs C (real changes)'} ${id}`);
  const check = await pollReleaseCheck(api, apiKey, posted.json, {
    service,
    pollMs: settings.pollMs,
    timeoutS: settings.timeoutS,
    describe: (polled) =>
      `${(polled.artifacts ?? []).filter((artifact) => artifact.state !== 'collecting').length}/` +
      `${polled.summary?.pairs ?? '?'} pairs done`,
  });
  const endedAt = check.completed_at ? Date.parse(check.completed_at) : Date.now();
  log(
    `Vigil: ${check.collection_status} in ${fmt((endedAt - startedAt) / 1000, 1)} s, summary ` +
      JSON.stringify(check.summary),
  );
  return { ...check, endedAt, wallS: (endedAt - startedAt) / 1000 };
}

// ---------------------------------------------------------------------------------------------------------------
// Phase 2: BackstopJS

function ensureBackstop() {
  const installed = join(TOOLS, 'node_modules', 'backstopjs', 'package.json');
  if (existsSync(BACKSTOP) && existsSync(installed)) {
    const { version } = JSON.parse(readFileSync(installed, 'utf8'));
    if (version === BACKSTOP_VERSION) return;
  }
  log(`installing backstopjs ${BACKSTOP_VERSION} into ${TOOLS} (once; no browser download)`);
  mkdirSync(TOOLS, { recursive: true });
  if (!existsSync(join(TOOLS, 'package.json'))) writeFileSync(join(TOOLS, 'package.json'), '{"private":true}\n');
  const install = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--save-exact', '--loglevel=error', `backstopjs@${BACKSTOP_VERSION}`],
    {
      cwd: TOOLS,
      stdio: 'inherit',
      env: {
        ...process.env,
        PUPPETEER_SKIP_DOWNLOAD: 'true',
        PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: 'true',
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      },
    },
  );
  if (install.status !== 0) throw new Error(`installing backstopjs failed (exit ${install.status ?? install.signal})`);
}

/** The BackstopJS configuration comparing A (reference) with `target`; `name` keeps each test's output apart. */
function backstopConfig(name, reference, target, pages) {
  return {
    id: 'noise',
    viewports: VIEWPORTS.map(({ name: label, width, height }) => ({ label, width, height })),
    scenarios: pages.map(({ path }) => ({
      label: path,
      url: `${baseOf(target)}${path}`,
      referenceUrl: `${baseOf(reference)}${path}`,
      delay: settings.backstopDelayMs,
      misMatchThreshold: BACKSTOP_MISMATCH_THRESHOLD,
      requireSameDimensions: true,
    })),
    paths: {
      bitmaps_reference: join(backstopDir, 'bitmaps_reference'),
      bitmaps_test: join(backstopDir, `bitmaps_test-${name}`),
      engine_scripts: join(backstopDir, 'engine_scripts'),
      html_report: join(backstopDir, `html_report-${name}`),
      ci_report: join(backstopDir, `ci_report-${name}`),
      json_report: join(backstopDir, `json_report-${name}`),
    },
    report: ['json'],
    openReport: false,
    engine: 'puppeteer',
    engineOptions: { executablePath: settings.chromiumPath, args: ['--no-sandbox', '--disable-gpu'] },
    asyncCaptureLimit: settings.concurrency,
    asyncCompareLimit: 50,
    debug: false,
    debugWindow: false,
  };
}

/** Runs `backstop <command>` in its own process group (so cleanup can end it and its Chromium); resolves its exit. */
async function runBackstop(command, configFile) {
  if (stopping) throw new Error(`not starting backstop ${command}: the bench is stopping`);
  const output = [];
  const startedAt = Date.now();
  backstopChild = spawn(BACKSTOP, [command, `--config=${configFile}`], {
    cwd: backstopDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // BackstopJS and Chromium write temporary files (capture configs, profiles) to TMPDIR: keep them in its folder.
    env: { ...process.env, TMPDIR: join(backstopDir, 'tmp') },
  });
  const child = backstopChild;
  const remember = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      output.push(line);
      if (output.length > OUTPUT_LINES) output.shift();
    }
  };
  child.stdout.on('data', remember);
  child.stderr.on('data', remember);
  const exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
  const timer = new Promise((resolveTimer) =>
    setTimeout(() => resolveTimer('timeout'), settings.timeoutS * 1000).unref(),
  );
  const result = await Promise.race([exited, timer]);
  if (result === 'timeout') {
    await stopBackstop();
    throw new Error(`backstop ${command} did not end within ${settings.timeoutS} s:\n${output.slice(-30).join('\n')}`);
  }
  backstopChild = null;
  return { ...result, output, seconds: (Date.now() - startedAt) / 1000 };
}

/**
 * Ends the running `backstop` and every process under it: its process group, and the Chromium browsers puppeteer
 * starts in process groups of their own (found through /proc before the first signal).
 */
async function stopBackstop() {
  const child = backstopChild;
  backstopChild = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  const descendants = descendantsOf(processTable(), child.pid);
  const signal = (name) => {
    for (const target of [-child.pid, ...descendants]) {
      try {
        process.kill(target, name);
      } catch {
        // already gone
      }
    }
  };
  signal('SIGTERM');
  const timer = new Promise((resolveTimer) => setTimeout(() => resolveTimer('timeout'), 5000).unref());
  await Promise.race([exited, timer]);
  const table = processTable();
  if (descendants.some((pid) => table.has(pid)) || child.exitCode === null) signal('SIGKILL');
}

function readBackstopReport(config, comparison, test) {
  const file = join(config.paths.json_report, 'jsonReport.json');
  if (!existsSync(file)) {
    throw new Error(
      `backstop test (${comparison}) wrote no JSON report (exit ${test.code ?? test.signal}):\n` +
        test.output.slice(-30).join('\n'),
    );
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return report.tests.map(({ pair, status }) => ({
    comparison,
    path: pair.label,
    viewport: pair.viewportLabel,
    error: pair.error ?? null,
    different: status !== 'pass',
    dimensions: status !== 'pass' ? [pair.diff?.isSameDimensions === false ? 'screenshot size' : 'screenshot'] : [],
    screenshotMismatch: pair.diff
      ? Number(pair.diff.rawMisMatchPercentage ?? pair.diff.misMatchPercentage) / 100
      : null,
    sameDimensions: pair.diff?.isSameDimensions ?? null,
    unstable: null,
  }));
}

async function backstop(site, pages) {
  if (stopping) throw new Error('not starting BackstopJS: the bench is stopping');
  mkdirSync(join(backstopDir, 'tmp'), { recursive: true });
  const configs = {
    same: backstopConfig('same', site.A, site.B, pages),
    changed: backstopConfig('changed', site.A, site.C, pages),
  };
  const files = {};
  for (const [name, config] of Object.entries(configs)) {
    files[name] = join(backstopDir, `backstop-${name}.json`);
    writeFileSync(files[name], `${JSON.stringify(config, null, 2)}\n`);
  }
  const startedAt = Date.now();
  log(`BackstopJS: reference against A (${pages.length} scenarios × ${VIEWPORTS.length} viewports)`);
  const reference = await runBackstop('reference', files.same);
  log(`BackstopJS: reference exited ${reference.code ?? reference.signal} after ${fmt(reference.seconds, 1)} s`);
  if (reference.code !== 0) {
    log(`BackstopJS: reference did not exit 0; its last lines:\n${reference.output.slice(-15).join('\n')}`);
  }
  const pairs = [];
  const commands = { reference: { exit: reference.code, seconds: reference.seconds } };
  for (const [comparison, target] of [
    ['same', 'B'],
    ['changed', 'C'],
  ]) {
    log(`BackstopJS: test against ${target}`);
    const test = await runBackstop('test', files[comparison]);
    log(`BackstopJS: test against ${target} exited ${test.code ?? test.signal} after ${fmt(test.seconds, 1)} s`);
    commands[`test ${target}`] = { exit: test.code, seconds: test.seconds };
    pairs.push(...readBackstopReport(configs[comparison], comparison, test));
  }
  // What was configured (without the run's paths and URLs), for the JSON result.
  const { engine, engineOptions, viewports, asyncCaptureLimit, asyncCompareLimit, report: reports } = configs.same;
  const { delay, misMatchThreshold, requireSameDimensions } = configs.same.scenarios[0];
  const configuration = {
    engine,
    engineOptions,
    viewports,
    scenario: { delay, misMatchThreshold, requireSameDimensions, selectors: ['document (default: the full page)'] },
    asyncCaptureLimit,
    asyncCompareLimit,
    report: reports,
  };
  return {
    tool: `BackstopJS ${BACKSTOP_VERSION}`,
    label: `BackstopJS ${BACKSTOP_VERSION} (puppeteer, misMatchThreshold ${BACKSTOP_MISMATCH_THRESHOLD} %, delay ${settings.backstopDelayMs} ms)`,
    wallS: (Date.now() - startedAt) / 1000,
    commands,
    configuration,
    pairs,
    unstableNote: 'BackstopJS has no such notion (a pair passes or fails on its pixels alone)',
    output: settings.keep ? backstopDir : null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const ratio = ({ count, of }) => `${count} / ${of}`;

function shownApartCell(figures) {
  const shown = figures.shownApart;
  return shown ? `${shown.pairs} / ${shown.of}` : 'n/a';
}

function describePair(pair) {
  const parts = [];
  if (pair.error) parts.push(`error: ${pair.error.slice(0, 120)}`);
  else if (pair.dimensions.length) parts.push(pair.dimensions.join('+'));
  else if (!pair.unstable) parts.push('no difference');
  if (pair.screenshotMismatch !== null && pair.screenshotMismatch > 0) {
    parts.push(`${fmt(pair.screenshotMismatch * 100, 2)} % pixels`);
  }
  if (pair.sameDimensions === false) parts.push('sizes differ');
  const clip = (line) => JSON.stringify(line.length > 60 ? `${line.slice(0, 57)}...` : line);
  if (pair.textRemoved?.length) parts.push(`text - ${clip(pair.textRemoved[0])}`);
  if (pair.textAdded?.length) parts.push(`text + ${clip(pair.textAdded[0])}`);
  if (pair.unstable) parts.push(`shown apart as moving: ${pair.unstableDimensions.join(', ')}`);
  return parts.join(', ');
}

function report(rows, pages, realChanges, chromium) {
  const realPaths = new Set(realChanges.map((change) => change.path));
  const pairs = pages.length * VIEWPORTS.length;
  const realPairs = pages.filter((page) => realPaths.has(page.path)).length * VIEWPORTS.length;
  console.log(
    `\n## Noise: ${pages.length} moving pages × ${VIEWPORTS.length} viewports = ${pairs} pairs per comparison ` +
      `(Node ${process.versions.node}, Chromium ${chromium}, ${new Date().toISOString().slice(0, 10)})\n`,
  );
  console.log('Pages (what moves on its own):');
  for (const page of pages) console.log(`- ${page.path}: ${page.motion}`);
  console.log(`\nReal changes on C (${realPairs} pairs):`);
  for (const change of realChanges) console.log(`- ${change.path}: ${change.what} (${change.dimensions.join(', ')})`);

  for (const row of rows) {
    const { figures } = row;
    console.log(`\n### ${row.label}\n`);
    for (const [comparison, title] of [
      ['same', 'A vs B (same code)'],
      ['changed', 'A vs C (real changes)'],
    ]) {
      const ofRun = row.pairs.filter((pair) => pair.comparison === comparison);
      const differed = ofRun.filter((pair) => pair.different || pair.error).length;
      console.log(`${title}: ${differed} of ${pairs} pairs differed or failed`);
      for (const pair of ofRun.filter((each) => each.different || each.error || each.unstable)) {
        const kind = pair.error
          ? 'ERROR'
          : !pair.different
            ? 'moving only (not reported as a difference)'
            : comparison === 'changed' && realPaths.has(pair.path)
              ? 'real change'
              : 'FALSE';
        console.log(`  - ${kind}: ${pair.path} ${pair.viewport}: ${describePair(pair)}`);
      }
    }
    const missed = row.pairs.filter(
      (pair) => pair.comparison === 'changed' && realPaths.has(pair.path) && !pair.different && !pair.error,
    );
    for (const pair of missed) console.log(`  - MISSED real change: ${pair.path} ${pair.viewport}`);
    const shown = figures.shownApart;
    if (shown) {
      console.log(
        `Shown apart as moving: ${shown.pairs} of ${shown.of} pairs (A vs B ${shown.sameCode}; A vs C ` +
          `${shown.withChangesElsewhere} on pages without and ${shown.onRealChanges} on pages with a real change); ` +
          `${shown.alsoFalseDifferences} of them were also reported as different although their page had no real change.`,
      );
    } else {
      console.log(`Shown apart as moving: ${row.unstableNote}`);
    }
  }

  const table = [
    '| tool | pairs | false differences (same code) | false differences (with changes) | real changes found | ' +
      'shown apart as moving | wall time |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const { figures } = row;
    const errors = figures.errors.same + figures.errors.changed;
    table.push(
      `| ${row.label} | ${figures.pairsPerComparison} × 2${errors ? ` (${errors} errors)` : ''} | ` +
        `${ratio(figures.falseSame)} | ${ratio(figures.falseChanged)} | ` +
        `${ratio(figures.realFound)} (${figures.realFound.inItsDimension} in the changed dimension) | ` +
        `${shownApartCell(figures)} | ${fmt(row.wallS, 1)} s |`,
    );
  }
  console.log(`\n${table.join('\n')}`);
  console.log(
    '\n"pairs": page × viewport pairs per comparison, two comparisons (A vs B, A vs C). Real changes found counts ' +
      'pairs on REAL_CHANGES paths that differed (in brackets: those where a dimension the change shows in ' +
      'differed); differences on other paths are false.',
  );
  console.log('\nRepeat with: `npm run build && npm run bench:noise`');
  return table;
}

// ---------------------------------------------------------------------------------------------------------------

async function loadSiteModule() {
  if (!existsSync(SITE_MODULE)) throw new Error(`${SITE_MODULE} is missing: the bench needs the moving site`);
  return import(pathToFileURL(SITE_MODULE).href);
}

const requestCounts = (site, pages) => pages.reduce((sum, { path }) => sum + site.requests(path), 0);

async function main() {
  if (settings.vigil) ensureBuilt(settings.build);
  if (settings.backstop) ensureBackstop();
  const chromium = chromiumVersion(settings.chromiumPath, { buildInfo: false });
  const { startMovingSite, MOVING_PAGES, REAL_CHANGES } = await loadSiteModule();
  const pages = [...MOVING_PAGES];
  const realChanges = [...REAL_CHANGES];
  const realPaths = new Set(realChanges.map((change) => change.path));
  for (const path of realPaths) {
    if (!pages.some((page) => page.path === path)) log(`note: the real change on ${path} is not on a moving page`);
  }

  const site = {};
  for (const [name, options] of [
    ['A', undefined],
    ['B', undefined],
    ['C', { version: 'changed' }],
  ]) {
    site[name] = await startMovingSite(options);
    sites.push(site[name]);
  }
  log(`sites: A ${site.A.url} (production), B ${site.B.url} (same code), C ${site.C.url} (changed)`);

  const rows = [];
  const loads = {};
  const measure = async (name, work) => {
    const before = Object.fromEntries(Object.entries(site).map(([key, value]) => [key, requestCounts(value, pages)]));
    const row = await work();
    loads[name] = Object.fromEntries(
      Object.entries(site).map(([key, value]) => [key, requestCounts(value, pages) - before[key]]),
    );
    row.figures = score(row.pairs, realChanges);
    row.pageLoads = loads[name];
    rows.push(row);
    log(`${row.tool}: page loads per site ${JSON.stringify(loads[name])}`);
  };
  if (settings.vigil) await measure('vigil', () => vigil(site, pages));
  if (settings.backstop) await measure('backstop', () => backstop(site, pages));

  const table = report(rows, pages, realChanges, chromium);
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  writeFileSync(
    RESULT_FILE,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.versions.node,
        chromium,
        viewports: VIEWPORTS,
        settings: {
          concurrency: settings.concurrency,
          backstopDelayMs: settings.backstopDelayMs,
          backstopMisMatchThreshold: BACKSTOP_MISMATCH_THRESHOLD,
        },
        pages,
        realChanges,
        table,
        rows: rows.map((row) => ({
          tool: row.tool,
          label: row.label,
          pairs: row.figures.pairsPerComparison,
          errors: row.figures.errors,
          falseDifferencesSameCode: row.figures.falseSame,
          falseDifferencesWithChanges: row.figures.falseChanged,
          realChangesFound: row.figures.realFound,
          shownApartAsMoving: row.figures.shownApart,
          wallS: row.wallS,
          pageLoads: row.pageLoads,
          ...(row.checks ? { checks: row.checks } : {}),
          ...(row.commands ? { commands: row.commands } : {}),
          ...(row.configuration ? { configuration: row.configuration } : {}),
          details: row.pairs,
        })),
      },
      null,
      2,
    )}\n`,
  );
  log(`wrote ${RESULT_FILE}`);
  return 0;
}

let cleaned = null;
const cleanup = () =>
  (cleaned ??= (async () => {
    stopping = true;
    await stopBackstop().catch((error) => log(`cleanup: could not stop BackstopJS: ${error.message}`));
    await Promise.all(
      sites.map((site) => site.close().catch((error) => log(`cleanup: could not close a site: ${error.message}`))),
    );
    await run.cleanup();
    if (settings.keep && existsSync(backstopDir)) log(`cleanup: kept BackstopJS's output in ${backstopDir}`);
    else rmSync(backstopDir, { recursive: true, force: true });
  })());

await runBench(main, cleanup, {
  budgetMs: (settings.timeoutS * 5 + 300) * 1000,
  onFailure: () => run.printOutput(),
});
