#!/usr/bin/env node
// Release-check benchmark: one release check of 20 page pairs × 2 viewports (80 page-viewport-side captures, each
// with an axe-core scan, and 40 comparisons) against local pages, end to end through the API, next to the same 80
// captures by a bare Playwright loop (the ceiling).
//
//   npm run bench:release            (node bench/release/index.mjs; builds first only when dist/ lacks what it needs)
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
//      twice: with STACK.md's launch (Playwright's default switches, the ceiling), then with the switches
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
//   BENCH_ENGINE_PAGES=6    pages (spread over the BENCH_PAGES) phase 3 captures, × 2 viewports × 2 sides
//   BENCH_VIGIL_ONLY=0      1 runs phase 1 alone and prints one line (wall, CPU, peak PSS): quick checks of a change
//   BENCH_PSS_MS=5000       how often PSS is read (a finer peak costs the sampler more CPU)
//   BENCH_PORT              port for the service (default: a free one)
//   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres   server where the bench database is created/dropped
//   BENCH_REDIS_URL=redis://127.0.0.1:6379
//   BENCH_CHROMIUM          the Chromium captured with; default: the service's (the headless shell when installed)
//   BENCH_BUILD=1 or --build   run `npm run build` first (otherwise only when dist/ lacks the service or libs)
//   BENCH_STRICT=1          exit 2 when a target (1.6× the same-switches loop, 1.5 GB RSS) is missed (else reported)
//   BENCH_PROFILE=DIR       CPU-profile the service's main thread during the release check only (through the
//                           inspector, on 127.0.0.1), write DIR/vigil-release-<id>.cpuprofile and summarize it
//   BENCH_NODE_OPTIONS      NODE_OPTIONS for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/relprof"; profiles
//                           found in --cpu-prof-dir afterwards are summarized too (Node writes them only on a clean
//                           exit; a process ended by a signal writes none)
//
// The parts, one module each under bench/release/: settings.mjs (the settings above, targets, the run), pages.mjs
// (the page fixture), vigil.mjs (phase 1), bare.mjs (phase 2), engine.mjs and steps.mjs (phase 3), resemble.mjs
// (phase 4), profile.mjs (BENCH_PROFILE and --cpu-prof), report.mjs (the markdown); /proc readers, the memory
// sampler, the service and the local HTTP server are bench/lib's, shared with the other benchmarks.

import { ensureBuilt, fmt, log, MAIN, mb } from '../lib/common.mjs';
import { chromiumVersion } from '../lib/capture.mjs';
import { runBench } from '../lib/service.mjs';
import { closeBareBrowser, runBare } from './bare.mjs';
import { runEngine, stopEngine } from './engine.mjs';
import { startPageServer } from './pages.mjs';
import { printProfiles } from './profile.mjs';
import { report, reportVigilOnly } from './report.mjs';
import { closeCompareWorker, runResemble } from './resemble.mjs';
import {
  CAPTURE_LIB,
  captureBrowserArgs,
  captureCount,
  COMPARE_LIB,
  require,
  run,
  settings,
  STACK_BROWSER_ARGS,
} from './settings.mjs';
import { runVigil } from './vigil.mjs';

let pages = null;

async function main() {
  ensureBuilt(settings.build, [MAIN, COMPARE_LIB, CAPTURE_LIB]);
  // Loaded now, so a rebuild of dist/ during the run (nest build empties it first) cannot pull them away later.
  require(CAPTURE_LIB);
  require(COMPARE_LIB);
  const version = `${chromiumVersion(settings.chromiumPath)} (${settings.chromiumPath})`;

  pages = await startPageServer(settings.pages);
  const benchStartedMs = Date.now();

  log('phase 1: the release check through the API');
  const vigil = await runVigil(pages.base);
  log(
    `phase 1: ${fmt(vigil.wallMs / 1000)} s, ${fmt(captureCount / (vigil.wallMs / 1000))} captures/s, ` +
      `peak RSS node ${mb(vigil.memory.rootPeak)} + chromium ${mb(vigil.memory.childPeak)}`,
  );
  const serviceOutput = vigil.service.output.filter(
    (line) => !/^Debugger (attached|listening)|^For help, see/.test(line),
  );
  await run.cleanup(); // stops the service and drops its database and Redis keys: they do not compete with phase 2
  if (settings.vigilOnly) {
    reportVigilOnly(vigil);
    return 0;
  }

  log("phase 2: the bare Playwright loop, STACK.md's launch (Playwright's default switches)");
  const bare = await runBare(pages.base, STACK_BROWSER_ARGS, { keep: true });
  log(`phase 2: ${fmt(bare.wallMs / 1000)} s, ${fmt(captureCount / (bare.wallMs / 1000))} captures/s`);
  log("phase 2b: the bare Playwright loop with Vigil's Chromium switches");
  const bareSame = await runBare(pages.base, captureBrowserArgs());
  log(`phase 2b: ${fmt(bareSame.wallMs / 1000)} s, ${fmt(captureCount / (bareSame.wallMs / 1000))} captures/s`);

  let engineRun = null;
  if (settings.engine && bare.kept.prototypes) {
    log("phase 3: Vigil's capture engine in process, Playwright calls timed");
    engineRun = await runEngine(pages.base, bare.kept.prototypes);
    log(`phase 3: ${fmt(engineRun.wallMs / 1000)} s`);
  }

  log('phase 4: resemblejs on a 1440×900 pair');
  const resembleRun = await runResemble(bare.kept.pair);

  console.log('');
  const met = report({ vigil, bare, bareSame, engineRun, resembleRun, chromiumVersion: version });
  printProfiles(vigil, settings.nodeOptions, benchStartedMs);
  if (serviceOutput.length) {
    log(`the service logged ${serviceOutput.length} line(s) at LOG_LEVEL=warn during the run (last 10):`);
    for (const line of serviceOutput.slice(-10)) console.error(line);
  }
  if (!met && settings.strict) return 2;
  return 0;
}

// The service's resources as soon as phase 1 ends (run.cleanup runs once), everything else at the end; always.
let cleanedUp = null;
const cleanup = () =>
  (cleanedUp ??= (async () => {
    await run.cleanup();
    await stopEngine();
    await closeBareBrowser();
    await closeCompareWorker();
    await pages?.close();
  })());

await runBench(main, cleanup, {
  budgetMs: 60_000 + settings.timeoutS * 1000 + 300_000,
  onFailure: () => run.printOutput(),
});
