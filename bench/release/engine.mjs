// bench:release phase 3: Vigil's own capture engine (dist/libs/capture) in this process, no API, queue, database or
// comparison, with every Playwright call it makes timed (through the prototypes phase 2 kept): where a capture's time
// goes.

import { chromium } from 'playwright-core';
import { percentile, runPool } from '../lib/common.mjs';
import { CAPTURE_LIB, captureList, NO_SIGNAL_HANDLERS, require, settings } from './settings.mjs';
import { addStep, STEP } from './steps.mjs';

let engine = null;
const restorers = [];

/** Wraps the Playwright methods the engine calls so that each call's time is added to `steps`. */
function instrument(prototypes, steps) {
  const wrap = (proto, method, label) => {
    const original = proto[method];
    if (typeof original !== 'function') return;
    proto[method] = async function (...args) {
      const name = typeof label === 'function' ? label(...args) : label;
      if (name === null) return original.apply(this, args);
      const began = performance.now();
      try {
        return await original.apply(this, args);
      } finally {
        addStep(steps, name, performance.now() - began);
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

/** Restores Playwright's methods and closes the engine if a failure left it open (cleanup). */
export async function stopEngine() {
  uninstrument();
  await engine?.close().catch(() => undefined);
}

/** Phase 3 over BENCH_ENGINE_PAGES pages spread over the fixture at `pagesBase`, timed through `prototypes`. */
export async function runEngine(pagesBase, prototypes) {
  const { CaptureEngine } = require(CAPTURE_LIB);
  const steps = new Map();
  instrument(prototypes, steps);
  // The engine launches through this same playwright-core; keep Playwright's own signal handlers out of the way of
  // this script's cleanup.
  const launch = chromium.launch;
  chromium.launch = (options) => launch.call(chromium, { ...options, ...NO_SIGNAL_HANDLERS });
  try {
    const count = Math.min(settings.enginePages, settings.pages);
    const pageNumbers = Array.from({ length: count }, (_, i) => 1 + Math.floor((i * settings.pages) / count));
    const list = captureList(pagesBase, pageNumbers);
    engine = new CaptureEngine({ executablePath: settings.chromiumPath, allowPrivateTargets: true });
    const startedAt = performance.now();
    const durations = await runPool(list, settings.concurrency, async ({ url, viewport }) => {
      const began = performance.now();
      // As the service asks: release priority, and one scan shared between documents in the same state.
      const result = await engine.capture({ url, viewport, priority: 'release', scanScope: `bench/${viewport}` });
      if (!result.ok)
        throw new Error(`capture engine: ${url} ${viewport} is missing: ${result.reason} ${result.message}`);
      return performance.now() - began;
    });
    const wallMs = performance.now() - startedAt;
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
