import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { HoldingSite } from '../support/holding-site';
import { waitForCollection } from '../support/release-checks';
import { startTestApp, type TestApp } from '../support/test-app';
import { page } from '../support/test-site';
import { startWorkerProcess } from '../support/worker-process';
import { FULL_CHROMIUM_PATH, HEADLESS_SHELL_PATH } from '../../libs/capture/chromium-path';
import { CaptureEngineProvider } from '../../src/capture/capture-engine.provider';
import { MetricsService } from '../../src/metrics/metrics.service';
import { MonitorQueues } from '../../src/monitors/monitor-queues';
import { QUEUES } from '../../src/queues/jobs';

/** `promise`'s value, or an error with `failure()` as its message after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, failure: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(failure())), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Chromium dying under a worker is the service's failure, never the site's: the captures it was running are retried
 * on a new browser at once, and no missing evidence or failed check describes the crash.
 */
describe('a browser killed mid-capture', () => {
  let api: TestApp;
  let site: HoldingSite;
  let key: IssuedKey;
  // Set in the worker's environment, so its processes (Node and the Chromium it launches) can be told from others'.
  const marker = randomUUID();
  let worker: ReturnType<typeof startWorkerProcess>;
  /** Jobs that failed an attempt in any worker: a crash the engine absorbed never shows up here. */
  const failedJobs: string[] = [];

  beforeAll(async () => {
    site = await new HoldingSite().start();
    api = await startTestApp({ ROLE: 'api' });
    const person = await createAccount(new ApiClient(api.baseUrl));
    key = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(api.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    const queues = [
      api.app.get<Queue>(getQueueToken(QUEUES.releaseCaptures), { strict: false }),
      api.app.get(MonitorQueues, { strict: false }).queue('local'),
    ];
    for (const queue of queues) {
      queue.on('global:failed', (jobId: string, reason: string) => failedJobs.push(`${jobId}: ${reason}`));
      await queue.isReady();
    }
    worker = startWorkerProcess({ VIGIL_CRASH_TEST: marker });
  });
  afterAll(async () => {
    worker?.kill();
    await api.close();
    await site.stop();
  });

  /** Waits until the held paths have all been requested (the captures are in flight), then SIGKILLs the worker's Chromium. */
  async function killBrowserWhenRequested(arrived: Promise<void>): Promise<number> {
    // A worker process compiles the service as it starts: slow on a busy machine.
    await within(arrived, 150_000, () => `the worker never requested the held pages:\n${worker.output()}`);
    const browsers = browserProcesses(marker);
    expect(browsers).toHaveLength(1);
    process.kill(browsers[0], 'SIGKILL');
    return Date.now();
  }

  it('while a release check is collecting: both captures are retried on a new browser and the check completes with full evidence, well before the capture timeout', async () => {
    site.set('/prod/pricing', page());
    site.set('/preview/pricing', page());
    const arrived = site.hold(['/prod/pricing', '/preview/pricing']);
    const created = await key.client.post('/release-checks', {
      name: 'crash',
      production_url: `${site.origin}/prod`,
      preview_url: `${site.origin}/preview`,
      request_key: `crash-${Date.now()}`,
      pages: [{ production_path: '/pricing', preview_path: '/pricing' }],
      viewports: ['desktop'],
    });
    expect(created.status).toBe(201);

    const killedAt = await killBrowserWhenRequested(arrived);
    site.release();
    const check = await waitForCollection(key.client, created.body.id as string, 60_000);
    const tookMs = Date.now() - killedAt;

    expect(check).toMatchObject({
      collection_status: 'completed',
      gate: 'pending',
      summary: { pairs: 1, captured: 1, missing: 0 },
    });
    const [artifact] = check.artifacts;
    expect(artifact.state).toBe('compared');
    for (const side of [artifact.production, artifact.preview]) {
      expect(side).toMatchObject({ state: 'captured', status: 200, missing: null });
    }
    expect(JSON.stringify(check)).not.toContain('timeout');
    // A capture that waited for its 60 s deadline, or for a queue retry, would take far longer.
    expect(tookMs).toBeLessThan(30_000);
    // Each held page was asked for again, by the new browser, within the same job: no job failed an attempt.
    expect(site.requests('/prod/pricing')).toBe(2);
    expect(site.requests('/preview/pricing')).toBe(2);
    expect(failedJobs).toEqual([]);
  }, 240_000);

  it('while a browser monitor is checked: the check is retried on a new browser and records the site as up', async () => {
    site.set('/app', page({ title: 'App', body: '<h1>Dashboard</h1><p>All systems normal.</p>' }));
    const monitor = await key.client.post('/monitors', {
      name: 'App',
      url: `${site.origin}/app`,
      mode: 'browser',
      keyword: 'All systems normal',
    });
    expect(monitor.status).toBe(201);

    const arrived = site.hold(['/app']);
    const run = key.client.post(`/monitors/${monitor.body.id}/check`);
    const killedAt = await killBrowserWhenRequested(arrived);
    site.release();
    const result = await run;
    const tookMs = Date.now() - killedAt;

    expect(result.status).toBe(200);
    expect(result.body.results).toHaveLength(1);
    expect(result.body.results[0]).toMatchObject({ ok: true, status_code: 200, failure: null, message: null });
    expect(result.body.monitor.status).toBe('up');
    expect(tookMs).toBeLessThan(30_000);
    expect(site.requests('/app')).toBe(2);
    expect(failedJobs).toEqual([]);
  }, 240_000);

  it("counts captures by outcome on the app's metrics registry, a relaunch after a crash included", async () => {
    site.set('/metered', page());
    const engine = api.app.get(CaptureEngineProvider).engine;
    const registry = api.app.get(MetricsService).registry;
    const count = async (outcome: string): Promise<number> => {
      const metric = await registry.getSingleMetric('vigil_captures_total')?.get();
      return metric?.values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
    };

    const arrived = site.hold(['/metered']);
    const capture = engine.capture({ url: `${site.origin}/metered`, viewport: 'desktop', priority: 'release' });
    await arrived;
    const pid = engine.browserProcessId();
    expect(pid).toEqual(expect.any(Number));
    process.kill(pid as number, 'SIGKILL');
    site.release();
    const result = await capture;

    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(await count('browser_relaunch')).toBe(1);
    expect(await count('captured')).toBe(1);
    expect(await count('missing_evidence')).toBe(0);
    expect(await count('infrastructure_error')).toBe(0);
  }, 120_000);
});

/** The live Chromium browser processes (not its renderers or helpers) started by the process marked `marker`. */
const BROWSERS = [basename(HEADLESS_SHELL_PATH), basename(FULL_CHROMIUM_PATH)];

function browserProcesses(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0');
      // The browser process is the Chromium binary (the headless shell, or the full browser) without a --type=
      // switch (renderers, zygotes, GPU have one).
      if (!BROWSERS.includes(basename(args[0])) || args.some((arg) => arg.startsWith('--type='))) continue;
      if (!readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(`VIGIL_CRASH_TEST=${marker}`)) {
        continue;
      }
      found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}
