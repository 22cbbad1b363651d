// bench:release phase 2: the bare Playwright loop, the ceiling Vigil is held to. playwright-core with the same
// Chromium and concurrency; per capture a new context, goto (load), full-page screenshot, innerText('body'), close.
// Browser launch included, like Vigil's first capture. Its memory and CPU are sampled as phase 1's are.

import { chromium } from 'playwright-core';
import { percentile, runPool } from '../lib/common.mjs';
import { CLK_TCK, machineTicks, treeCpuSeconds } from '../lib/procfs.mjs';
import { startTreeSampler } from '../lib/sampler.mjs';
import { previewChange } from './pages.mjs';
import { captureList, NO_SIGNAL_HANDLERS, PSS_EVERY, SAMPLE_MS, settings, VIEWPORTS } from './settings.mjs';
import { addStep, STEP } from './steps.mjs';

let browser = null;

/** Closes the loop's browser if a failure left it open (cleanup). */
export const closeBareBrowser = () => browser?.close().catch(() => undefined);

/**
 * Two 1440×900 screenshots that differ a little (the page whose preview has a changed word), for phase 4, and
 * Playwright's prototypes for phase 3 (when it runs); untimed.
 */
async function keepForLaterPhases(pagesBase) {
  const pair = [];
  let prototypes = null;
  const changed = [...Array(settings.pages).keys()].map((i) => i + 1).find((n) => previewChange(n) === 'text') ?? 1;
  for (const side of ['prod', 'preview']) {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await page.goto(`${pagesBase}/${side}/page-${changed}`, { waitUntil: 'load' });
    pair.push(await page.screenshot({ fullPage: false }));
    if (settings.engine && !prototypes) {
      prototypes = {
        browser: Object.getPrototypeOf(browser),
        context: Object.getPrototypeOf(context),
        page: Object.getPrototypeOf(page),
        frame: Object.getPrototypeOf(page.mainFrame()),
        cdpSession: Object.getPrototypeOf(await context.newCDPSession(page)),
      };
    }
    await context.close();
  }
  return { pair, prototypes };
}

/**
 * The bare loop over every capture at `pagesBase` with the given Chromium switches. With `keep`, also the pair of
 * screenshots for phase 4 and Playwright's prototypes for phase 3, as `kept`.
 */
export async function runBare(pagesBase, browserArgs, { keep = false } = {}) {
  const list = captureList(
    pagesBase,
    Array.from({ length: settings.pages }, (_, i) => i + 1),
  );
  const sampler = startTreeSampler(process.pid, { everyMs: SAMPLE_MS, pssEvery: PSS_EVERY, includeRoot: false });
  const cpuBefore = treeCpuSeconds(process.pid);
  const ownBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  const startedAt = performance.now();
  browser = await chromium.launch({
    executablePath: settings.chromiumPath,
    args: browserArgs,
    ...NO_SIGNAL_HANDLERS,
  });
  const launchMs = performance.now() - startedAt;
  const steps = new Map();
  const timed = async (label, work) => {
    const began = performance.now();
    try {
      return await work();
    } finally {
      addStep(steps, label, performance.now() - began);
    }
  };
  const durations = await runPool(list, settings.concurrency, async ({ url, viewport }) => {
    const began = performance.now();
    const context = await timed(STEP.newContext, () => browser.newContext({ viewport: VIEWPORTS[viewport] }));
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
    return performance.now() - began;
  });
  const captureMs = durations.reduce((sum, value) => sum + value, 0);
  const wallMs = performance.now() - startedAt;
  const cpuAfter = treeCpuSeconds(process.pid);
  const ownAfter = process.cpuUsage(ownBefore);
  const machineAfter = machineTicks();
  const memory = sampler.stop();

  const kept = keep ? await keepForLaterPhases(pagesBase) : null;
  await browser.close();
  browser = null;

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
    kept,
  };
}
