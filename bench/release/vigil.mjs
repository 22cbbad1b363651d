// bench:release phase 1: the release check through the API. Starts the service (ROLE=all), measures the idle
// service's CPU for IDLE_SAMPLE_MS, POSTs the check and polls it until its collection ends, sampling the memory and
// CPU of the service's Node process and its Chromium meanwhile; the figures, timed by the server's own clock.

import { HOST, log, percentile, sleep } from '../lib/common.mjs';
import { pollReleaseCheck, startCaptureService } from '../lib/capture.mjs';
import { CLK_TCK, machineTicks, statusField, treeCpuSeconds } from '../lib/procfs.mjs';
import { startTreeSampler } from '../lib/sampler.mjs';
import { ApiClient, freePort } from '../lib/service.mjs';
import { connectProfiler, stopProfile } from './profile.mjs';
import { captureCount, IDLE_SAMPLE_MS, PSS_EVERY, run, SAMPLE_MS, settings } from './settings.mjs';

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

/** Starts the service (its inspector open when BENCH_PROFILE asks); the process, a client, an API key, inspector. */
async function startService() {
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
  const service = await startCaptureService(run, api, {
    port,
    concurrency: settings.concurrency,
    chromiumPath: settings.chromiumPath,
    nodeOptions,
  });
  log(`ready after ${((Date.now() - serviceStartedAt) / 1000).toFixed(1)} s`);
  service.output.length = 0; // start-up went fine (its migration lines ignore LOG_LEVEL); keep only what follows
  const { secret } = await api.adminKey(run, ['monitors:read', 'monitors:write']);
  const inspector = settings.profileDir ? await connectProfiler(inspectPort) : null;
  return { service, api, secret, inspector };
}

/** Throws, naming the sides that are missing, unless every pair of the check was collected. */
function expectComplete(check) {
  const summary = check.summary ?? {};
  const expectedPairs = settings.pages * 2;
  if (check.collection_status === 'completed' && summary.pairs === expectedPairs && summary.missing === 0) return;
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

/** Phase 1 against the pages at `pagesBase`; its figures, and the service (still running) as `service`. */
export async function runVigil(pagesBase) {
  const { service, api, secret, inspector } = await startService();
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
  const idleBefore = treeCpuSeconds(pid);
  await sleep(IDLE_SAMPLE_MS);
  const idleAfter = treeCpuSeconds(pid);
  const idlePerSecond = {
    node: (idleAfter.root - idleBefore.root) / (IDLE_SAMPLE_MS / 1000),
    stores: (idleAfter.stores - idleBefore.stores) / (IDLE_SAMPLE_MS / 1000),
  };
  const sampler = startTreeSampler(pid, { everyMs: SAMPLE_MS, pssEvery: PSS_EVERY, includeRoot: true });
  if (inspector) await inspector.send('Profiler.start');
  const cpuBefore = treeCpuSeconds(pid);
  const machineBefore = machineTicks();
  const monotonicFromUs = Number(process.hrtime.bigint() / 1000n);
  const startedAt = performance.now();
  const startedWall = Date.now();

  const posted = await api.expect(201, 'POST', '/api/v1/release-checks', { apiKey: secret, body });
  const id = posted.json?.id;
  if (!id) throw new Error(`the release check has no id: ${posted.text.slice(0, 300)}`);
  log(`release check ${id}: ${captureCount} captures queued; polling every ${settings.pollMs} ms`);

  let firstComparedS = null;
  let pollBytes = 0;
  const pollTimes = [];
  const check = await pollReleaseCheck(api, secret, posted.json, {
    service,
    pollMs: settings.pollMs,
    timeoutS: settings.timeoutS,
    describe: describeProgress,
    onPoll: ({ check: polled, ms, bytes }) => {
      pollTimes.push(ms);
      pollBytes = bytes;
      if (firstComparedS === null && countProgress(polled).compared > 0) {
        firstComparedS = (performance.now() - startedAt) / 1000;
      }
    },
  });
  const observedMs = performance.now() - startedAt;
  const monotonicToUs = Number(process.hrtime.bigint() / 1000n);
  const cpuAfter = treeCpuSeconds(pid);
  const machineAfter = machineTicks();
  const memory = sampler.stop();
  const hwm = statusField(pid, 'VmHWM');
  const nodeMemory = { rssAnon: statusField(pid, 'RssAnon'), rssFile: statusField(pid, 'RssFile'), heap: null };
  let profileSummary = null;
  if (inspector)
    ({ heap: nodeMemory.heap, profileSummary } = await stopProfile(inspector, settings.profileDir, run.id));
  expectComplete(check);

  // Timeline from the server's own timestamps: first and last capture, completion.
  const capturedAt = (check.artifacts ?? [])
    .flatMap((artifact) => [artifact.production?.captured_at, artifact.preview?.captured_at])
    .filter(Boolean)
    .map((value) => Date.parse(value))
    .sort((a, b) => a - b);
  const completedAt = Date.parse(check.completed_at);
  return {
    id,
    // The server's completion time, not when a poll saw it: the poll interval then neither adds to the figure nor,
    // polled as seldom as a CI client does, takes CPU from the captures.
    wallMs: completedAt - startedWall,
    observedMs,
    timeline: {
      firstCaptureS: (capturedAt[0] - startedWall) / 1000,
      lastCaptureS: (capturedAt.at(-1) - startedWall) / 1000,
      completedS: (completedAt - startedWall) / 1000,
      firstComparedS,
    },
    polls: pollTimes.length,
    pollP50: percentile(
      pollTimes.sort((a, b) => a - b),
      50,
    ),
    pollP90: percentile(pollTimes, 90),
    pollBytes,
    summary: check.summary ?? {},
    screenshotsChanged: (check.artifacts ?? []).filter((artifact) => artifact.comparison?.screenshot?.changed).length,
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
    idlePerSecond,
    window: { fromUs: monotonicFromUs, toUs: monotonicToUs },
    profileSummary,
    service,
  };
}
