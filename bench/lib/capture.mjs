// What the benches that capture pages share: the Chromium they drive (BENCH_CHROMIUM and its version), the service
// started as one ROLE=all process that captures the bench's pages on 127.0.0.1, and a release check polled until its
// collection ends.

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { log, ROOT, sleep } from './common.mjs';

const require = createRequire(import.meta.url);

/** BENCH_CHROMIUM, or the service's default: Debian's headless shell when installed, else its Chromium. */
export function chromiumSetting() {
  const chosen = process.env.BENCH_CHROMIUM?.trim();
  if (chosen) return chosen;
  try {
    // As the service chooses (libs/capture/chromium-path.ts, built into dist/).
    return require(join(ROOT, 'dist', 'libs', 'capture', 'chromium-path.js')).defaultChromiumPath();
  } catch {
    return '/usr/bin/chromium';
  }
}

/** What `chromium --version` says after "Chromium" (without " built on …" when `buildInfo` is false). */
export function chromiumVersion(executablePath, { buildInfo = true } = {}) {
  const version = spawnSync(executablePath, ['--version'], { encoding: 'utf8' })
    .stdout?.trim()
    .replace(/^Chromium\s*/, '');
  return (buildInfo ? version : version?.replace(/ built on .*/, '')) || 'unknown';
}

/**
 * Starts the service as one ROLE=all process (API and queue workers) on `port` that captures with `chromiumPath`,
 * `concurrency` captures at once, and may reach 127.0.0.1 (where the bench's pages are); `env` adds to that.
 * Resolves with the process once `api` (a client for that port) finds it ready.
 */
export async function startCaptureService(run, api, { port, concurrency, chromiumPath, env = {}, nodeOptions }) {
  const service = run.start(
    {
      ROLE: 'all',
      PORT: String(port),
      ALLOW_PRIVATE_TARGETS: 'true', // the pages are on 127.0.0.1
      CAPTURE_CONCURRENCY: String(concurrency),
      CHROMIUM_PATH: chromiumPath,
      ...env,
    },
    { nodeOptions },
  );
  await api.waitUntilReady(service);
  return service;
}

/**
 * Polls GET /api/v1/release-checks/{id} of the release check `posted` (the POST's answer) every `pollMs` until its
 * collection is completed or incomplete; resolves with the last answer. Throws when `service` exits or `timeoutS`
 * passes. `describe(check)` says how far the check got, in the log every 10 s and in the timeout's message;
 * `onPoll({ check, ms, bytes })` sees each answer and how long its request took.
 */
export async function pollReleaseCheck(api, apiKey, posted, { service, pollMs, timeoutS, describe, onPoll }) {
  const startedAt = performance.now();
  const deadline = startedAt + timeoutS * 1000;
  const path = `/api/v1/release-checks/${posted.id}`;
  let check = posted;
  let lastLogged = startedAt;
  while (!['completed', 'incomplete'].includes(check.collection_status)) {
    if (service.exit) throw new Error(`the service exited during the release check (code ${service.exit.code})`);
    if (performance.now() > deadline) {
      throw new Error(
        `the release check ${posted.id} was still ${check.collection_status} after ${timeoutS} s (${describe(check)})`,
      );
    }
    await sleep(pollMs);
    const requested = performance.now();
    const result = await api.call('GET', path, { apiKey });
    const ms = performance.now() - requested;
    if (result.status !== 200) throw new Error(`GET ${path} answered ${result.status}: ${result.text.slice(0, 300)}`);
    check = result.json;
    onPoll?.({ check, ms, bytes: result.text.length });
    if (performance.now() - lastLogged > 10_000) {
      lastLogged = performance.now();
      log(`  ${((lastLogged - startedAt) / 1000).toFixed(0)} s: ${describe(check)}`);
    }
  }
  return check;
}
