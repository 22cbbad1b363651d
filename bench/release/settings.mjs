// bench:release's settings (environment; listed in index.mjs), targets and fixed figures, the run (database, Redis
// prefix, artifact directory) its service uses, and the built libraries it loads from dist/.

import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromiumSetting } from '../lib/capture.mjs';
import { intSetting, ROOT, serviceSettings } from '../lib/common.mjs';
import { BenchRun } from '../lib/service.mjs';

export const require = createRequire(import.meta.url);
export const COMPARE_LIB = join(ROOT, 'dist', 'libs', 'compare', 'index.js');
export const CAPTURE_LIB = join(ROOT, 'dist', 'libs', 'capture', 'index.js');
/** The Chromium switches Vigil's capture engine launches with (after Playwright's defaults). */
export const captureBrowserArgs = () => require(CAPTURE_LIB).captureBrowserArgs();

export const TARGET_RATIO = 1.5;
export const STRETCH_RATIO = 1.3;
/**
 * Against the loop with Vigil's own switches on the same browser (the headless shell by default): a capture with
 * its axe-core scan, the comparisons, the second look and the service cost at most 60% more than a loop that takes
 * only the screenshot and the text (issue 26; 2.2× before captures moved to the shell).
 */
export const TARGET_RATIO_SAME = 1.6;
export const TARGET_RSS_BYTES = 1.5 * 1024 ** 3;
export const SAMPLE_MS = 200;
export const IDLE_SAMPLE_MS = 5000;
// Samples between PSS reads (smaps_rollup costs 3–10 ms per Chromium process): every 5 s unless BENCH_PSS_MS says.
export const PSS_EVERY = Math.max(1, Math.round(intSetting('BENCH_PSS_MS', 5000, SAMPLE_MS, 60_000) / SAMPLE_MS));
export const VIEWPORTS = { desktop: { width: 1440, height: 900 }, mobile: { width: 390, height: 844 } };
/** STACK.md's launch: Playwright's default switches plus these. The bare loop. */
export const STACK_BROWSER_ARGS = ['--disable-gpu', '--disable-quic'];
export const NO_SIGNAL_HANDLERS = { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false };

export const settings = {
  ...serviceSettings(),
  concurrency: intSetting('BENCH_CONCURRENCY', 2, 1, 32),
  pages: intSetting('BENCH_PAGES', 20, 1, 100),
  pollMs: intSetting('BENCH_POLL_MS', 2000, 50, 10_000),
  resembleRuns: intSetting('BENCH_RESEMBLE_RUNS', 10, 1, 100),
  timeoutS: intSetting('BENCH_TIMEOUT', 240, 10, 3600),
  engine: intSetting('BENCH_ENGINE', 1, 0, 1) === 1,
  vigilOnly: intSetting('BENCH_VIGIL_ONLY', 0, 0, 1) === 1,
  enginePages: intSetting('BENCH_ENGINE_PAGES', 6, 1, 100),
  chromiumPath: chromiumSetting(),
  profileDir: process.env.BENCH_PROFILE?.trim() ? resolve(process.env.BENCH_PROFILE.trim()) : null,
};

export const run = new BenchRun(settings);
/** Page-viewport-side captures of the release check: pages × 2 viewports × 2 sides. */
export const captureCount = settings.pages * 2 * 2;

/** The captures of the release check, in the order the service queues them: page × viewport × side. */
export function captureList(base, pageNumbers) {
  const list = [];
  for (const n of pageNumbers) {
    for (const viewport of Object.keys(VIEWPORTS)) {
      for (const side of ['prod', 'preview']) list.push({ url: `${base}/${side}/page-${n}`, viewport });
    }
  }
  return list;
}
