// bench:release's report: the markdown table of phase 1 against both bare loops with the targets, the notes under it
// (timeline, CPU, memory, resemblejs), phase 3's table of Playwright calls, and the one-line BENCH_VIGIL_ONLY summary.

import { cpus, totalmem } from 'node:os';
import { fmt, mb, pct } from '../lib/common.mjs';
import {
  captureBrowserArgs,
  captureCount,
  IDLE_SAMPLE_MS,
  settings,
  STRETCH_RATIO,
  TARGET_RATIO,
  TARGET_RATIO_SAME,
  TARGET_RSS_BYTES,
} from './settings.mjs';

function chromiumMemory(memory) {
  return `${mb(memory.childPeak)} (≤ ${memory.maxProcesses} procs, ≤ ${memory.maxRenderers} renderers)`;
}

/**
 * `bare` is the issue's bare loop (STACK.md's launch); `bareSame` gives Chromium Vigil's switches, so it is the
 * stricter ceiling and the one BENCH_STRICT holds Vigil to.
 */
export function report({ vigil, bare, bareSame, engineRun, resembleRun, chromiumVersion }) {
  const ratio = vigil.wallMs / bare.wallMs;
  const ratioSame = vigil.wallMs / bareSame.wallMs;
  const rssTotal = vigil.memory.totalPeak;
  const verdict = (value) =>
    value <= TARGET_RATIO ? `met${value <= STRETCH_RATIO ? ', stretch met' : ', stretch not met'}` : '**not met**';
  const rssMet = rssTotal < TARGET_RSS_BYTES;
  const cps = (ms) => captureCount / (ms / 1000);
  const cpuShare = (cpu) =>
    `Node ${fmt(cpu.node, 1)} s, Chromium ${fmt(cpu.chromium, 1)} s, PostgreSQL + Redis ${fmt(cpu.stores, 1)} s, ` +
    (cpu.bench ? `bench process ${fmt(cpu.bench, 1)} s, ` : '') +
    `anything else ${fmt(cpu.machineBusy - cpu.node - cpu.chromium - cpu.stores - cpu.bench, 1)} s; machine busy ` +
    `${fmt(cpu.machineBusy, 1)} of ${fmt(cpu.machineTotal, 1)} CPU-s (${pct(cpu.machineBusy / cpu.machineTotal)})`;
  const ownCpu = (cpu) => cpu.node + cpu.chromium + cpu.stores;
  const foreign = (cpu) => (cpu.machineBusy - ownCpu(cpu) - cpu.bench) / cpu.machineTotal;
  const disturbed = [
    ['Vigil run', vigil.cpu],
    ['bare loop', bare.cpu],
    ["bare loop with Vigil's switches", bareSame.cpu],
  ].filter(([, cpu]) => foreign(cpu) > 0.08);
  const lines = [
    `Vigil release-check benchmark: ${settings.pages} page pairs × 2 viewports = ${captureCount} page-viewport-side ` +
      `captures (axe + comparison in Vigil), concurrency ${settings.concurrency}; Node ${process.versions.node}, ` +
      `${cpus().length} CPU(s) (${cpus()[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 1024 ** 3).toFixed(0)} GB, ` +
      `Chromium ${chromiumVersion}, service ROLE=all LOG_LEVEL=warn, ${new Date().toISOString().slice(0, 16)}Z.`,
    '',
    "| Figure | Vigil (API, end to end) | Bare loop, STACK.md launch | Bare loop, Vigil's switches | Target | Result |",
    '| --- | ---: | ---: | ---: | --- | --- |',
    `| Wall time | ${fmt(vigil.wallMs / 1000)} s | ${fmt(bare.wallMs / 1000)} s | ${fmt(bareSame.wallMs / 1000)} s | | |`,
    `| Captures/s | ${fmt(cps(vigil.wallMs))} | ${fmt(cps(bare.wallMs))} | ${fmt(cps(bareSame.wallMs))} | | |`,
    `| Wall-time ratio Vigil / bare loop, STACK.md launch (the issue's) | **${fmt(ratio)}×** | 1.00× | | ` +
      `≤ ${TARGET_RATIO}× (stretch ≤ ${STRETCH_RATIO}×) | ${verdict(ratio)} |`,
    `| Wall-time ratio Vigil / bare loop, Vigil's switches (same browser setup) | **${fmt(ratioSame)}×** | | 1.00× | ` +
      `≤ ${TARGET_RATIO_SAME}× | ${ratioSame <= TARGET_RATIO_SAME ? 'met' : '**not met**'} |`,
    `| Peak RSS, Node process (sampled VmRSS / VmHWM) | ${mb(vigil.memory.rootPeak)} / ${mb(vigil.hwm)} | ` +
      `(client, n/a) | (client, n/a) | | |`,
    `| Peak RSS, Chromium processes (sum) | ${chromiumMemory(vigil.memory)} | ${chromiumMemory(bare.memory)} | ` +
      `${chromiumMemory(bareSame.memory)} | | |`,
    `| Peak RSS, worker total (Node + Chromium) | **${mb(rssTotal)}** | ${mb(bare.memory.childPeak)} | ` +
      `${mb(bareSame.memory.childPeak)} | < 1.5 GB | ${rssMet ? 'met' : '**not met**'} |`,
    `| Peak PSS, same processes (shared pages split; Node + Chromium) | ${mb(vigil.memory.pssPeak)} ` +
      `(${mb(vigil.memory.rootPssPeak)} + ${mb(vigil.memory.childPssPeak)}) | ${mb(bare.memory.pssPeak)} | ` +
      `${mb(bareSame.memory.pssPeak)} | | |`,
    `| resemblejs, one 1440×900 comparison (median of ${settings.resembleRuns}) | ` +
      `${fmt(resembleRun.median, 0)} ms | | | | |`,
    '',
    `- Vigil: check ${vigil.id}, summary ${JSON.stringify(vigil.summary)}, ${vigil.screenshotsChanged} pair(s) with ` +
      `screenshot differences. ${vigil.polls} polls every ${settings.pollMs} ms (the wall time ends at the ` +
      `check's completed_at; the client saw it ${fmt((vigil.observedMs - vigil.wallMs) / 1000, 1)} s later): GET p50 ${fmt(vigil.pollP50, 0)} ms, p90 ${fmt(vigil.pollP90, 0)} ms, ` +
      `last body ${fmt(vigil.pollBytes / 1024, 0)} KB. Server timestamps from POST: first capture stored at ` +
      `${fmt(vigil.timeline.firstCaptureS, 1)} s (includes Chromium launch), last at ` +
      `${fmt(vigil.timeline.lastCaptureS, 1)} s; first pair compared (seen by polling) at ` +
      `${fmt(vigil.timeline.firstComparedS, 1)} s; check completed at ${fmt(vigil.timeline.completedS, 1)} s ` +
      `(${fmt(vigil.timeline.completedS - vigil.timeline.lastCaptureS, 1)} s after the last capture).`,
    `- CPU during the Vigil run: ${cpuShare(vigil.cpu)}. The idle service (ROLE=all: scheduler, outbox and ` +
      `delivery pollers), measured for ${IDLE_SAMPLE_MS / 1000} s before the POST, spends ` +
      `${fmt(vigil.idlePerSecond.node * 1000, 0)} ms of Node and ${fmt(vigil.idlePerSecond.stores * 1000, 0)} ms of ` +
      `PostgreSQL + Redis CPU per second: about ${fmt((vigil.idlePerSecond.node + vigil.idlePerSecond.stores) * (vigil.wallMs / 1000), 1)} ` +
      `CPU-s of this run.`,
    `- CPU-time ratio (Vigil's Node + Chromium + PostgreSQL/Redis over the bare loop's Node + Chromium): ` +
      `${fmt(ownCpu(vigil.cpu) / ownCpu(bare.cpu))}× the STACK.md launch's, ` +
      `${fmt(ownCpu(vigil.cpu) / ownCpu(bareSame.cpu))}× the same switches' — less sensitive than wall time to ` +
      'other load on the machine.',
    `- The service's Node process: peak VmRSS at ${fmt(vigil.memory.rootPeakAt, 1)} s = RssAnon ` +
      `${mb(vigil.memory.rootPeakParts?.anon)} + RssFile ${mb(vigil.memory.rootPeakParts?.file)} + RssShmem ` +
      `${mb(vigil.memory.rootPeakParts?.shmem)}; at the end RssAnon ${mb(vigil.nodeMemory.rssAnon)}, RssFile ` +
      `${mb(vigil.nodeMemory.rssFile)}` +
      (vigil.nodeMemory.heap
        ? `; main-thread JS heap used ${mb(vigil.nodeMemory.heap.usedSize)} of ${mb(vigil.nodeMemory.heap.totalSize)}` +
          (vigil.nodeMemory.heap.embedderHeapUsedSize
            ? `, embedder heap ${mb(vigil.nodeMemory.heap.embedderHeapUsedSize)}`
            : '')
        : ' (BENCH_PROFILE also reports its JS heap)') +
      '.',
    ...[
      ['STACK.md launch', bare],
      ["Vigil's switches", bareSame],
    ].map(
      ([label, loop]) =>
        `- Bare loop, ${label}: Chromium launch ${fmt(loop.launchMs, 0)} ms (included), per capture p50 ` +
        `${fmt(loop.p50, 0)} ms, p90 ${fmt(loop.p90, 0)} ms. CPU: ${cpuShare(loop.cpu)} (Node = this process: ` +
        'Playwright client and page server).',
    ),
    `- Vigil's switches: \`${captureBrowserArgs().join(' ')}\` after Playwright's defaults.`,
    `- resemblejs: ${resembleRun.size.width}×${resembleRun.size.height} pair, mismatch ratio ${resembleRun.mismatch.toPrecision(3)}; ` +
      `compareScreenshots (worker thread) median ${fmt(resembleRun.median, 0)} ms (min ${fmt(resembleRun.min, 0)}, ` +
      `max ${fmt(resembleRun.max, 0)}); resemblejs.compare on the main thread, median ${fmt(resembleRun.directMedian, 0)} ms.`,
    `- Sampling cost: ${vigil.memory.samples} samples, ${fmt(vigil.memory.costMs / vigil.memory.samples, 1)} ms each.`,
  ];
  if (disturbed.length) {
    lines.push(
      '',
      `**Warning: other processes used ${disturbed
        .map(([label, cpu]) => `${pct(foreign(cpu))} of the machine's CPU during the ${label}`)
        .join(' and ')}; the wall times and their ratio are distorted. Repeat on a quiet machine.**`,
    );
  }
  if (engineRun) {
    const outside = (steps, total, count) => {
      const rest = total - [...steps.values()].reduce((sum, entry) => sum + entry.ms, 0);
      return `${fmt(rest / count, 0)} | ${pct(rest / total)}`;
    };
    const perEngineCapture = engineRun.captureMs / engineRun.count;
    const perBareCapture = bareSame.captureMs / captureCount;
    lines.push(
      '',
      `Where a capture's time goes: Vigil's CaptureEngine (dist/libs/capture) in this process, ${engineRun.count} ` +
        `captures (pages ${engineRun.pageNumbers.join(', ')} × 2 viewports × 2 sides), same concurrency, no ` +
        `API/queue/database/comparison: per capture mean ${fmt(perEngineCapture, 0)} ms, p50 ` +
        `${fmt(engineRun.p50, 0)} ms (bare loop with the same switches: mean ${fmt(perBareCapture, 0)} ms, ` +
        `${fmt(perEngineCapture / perBareCapture)}×). Each Playwright call timed (overlapping calls of concurrent ` +
        'captures each count in full):',
      '',
      '| Playwright call (mean per capture) | Vigil engine ms | share | bare loop ms | share |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...[...new Set([...engineRun.steps.keys(), ...bareSame.steps.keys()])]
        .sort((a, b) => (engineRun.steps.get(b)?.ms ?? 0) - (engineRun.steps.get(a)?.ms ?? 0))
        .map((name) => {
          const ours = engineRun.steps.get(name);
          const theirs = bareSame.steps.get(name);
          const cell = (entry, total, count) =>
            entry ? `${fmt(entry.ms / count, 0)} | ${pct(entry.ms / total)}` : '– | –';
          const engineCell = cell(ours, engineRun.captureMs, engineRun.count);
          return `| \`${name}\` | ${engineCell} | ${cell(theirs, bareSame.captureMs, captureCount)} |`;
        }),
      `| (outside Playwright calls: the network settle, Node's own work) | ${outside(engineRun.steps, engineRun.captureMs, engineRun.count)} | ${outside(bareSame.steps, bareSame.captureMs, captureCount)} |`,
      `| (whole capture) | ${fmt(perEngineCapture, 0)} | 100% | ${fmt(perBareCapture, 0)} | 100% |`,
    );
  }
  lines.push(
    '',
    `Repeat with: \`npm run bench:release\` (= \`node bench/release/index.mjs\`; \`--build\` rebuilds dist/ first; ` +
      `\`BENCH_CONCURRENCY=${settings.concurrency}\` to change the concurrency, ` +
      '`BENCH_PROFILE=/tmp/relprof` to profile the service).',
  );
  console.log(lines.join('\n'));
  return ratioSame <= TARGET_RATIO_SAME && rssMet;
}

/** BENCH_VIGIL_ONLY's one line: phase 1's wall time, CPU and peak PSS. */
export function reportVigilOnly(vigil) {
  console.log(
    `Vigil alone: ${fmt(vigil.wallMs / 1000)} s; CPU Node ${fmt(vigil.cpu.node, 1)} s, Chromium ` +
      `${fmt(vigil.cpu.chromium, 1)} s, PostgreSQL + Redis ${fmt(vigil.cpu.stores, 1)} s (idle service: ` +
      `${fmt(vigil.idlePerSecond.node * 1000, 0)} + ${fmt(vigil.idlePerSecond.stores * 1000, 0)} ms/s); machine busy ` +
      `${pct(vigil.cpu.machineBusy / vigil.cpu.machineTotal)}; peak PSS ${mb(vigil.memory.pssPeak)} ` +
      `(${mb(vigil.memory.rootPssPeak)} + ${mb(vigil.memory.childPssPeak)}); summary ${JSON.stringify(vigil.summary)}`,
  );
}
