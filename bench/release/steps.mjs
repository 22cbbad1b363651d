// bench:release's timing of Playwright calls, shared by the bare loop (phase 2) and the capture engine (phase 3):
// the calls' names, and time and calls added up per name.

export const STEP = {
  newContext: 'browser.newContext',
  newPage: 'context.newPage',
  close: 'context.close',
  goto: "page.goto (waitUntil 'load')",
  screenshot: 'page.screenshot (full page)',
};

/** Adds a call of `ms` to `steps` (name → { ms, calls }). */
export function addStep(steps, name, ms) {
  const entry = steps.get(name) ?? { ms: 0, calls: 0 };
  entry.ms += ms;
  entry.calls += 1;
  steps.set(name, entry);
}
