// Memory of a process tree over time: peak RSS and PSS of a process and its descendants (a service or a tool and the
// Chromium it starts), read from /proc on a timer while a bench phase runs (Linux only).

import { readFileSync } from 'node:fs';
import { descendantsOf, processTable, pssOf, statusFields } from './procfs.mjs';

const renderers = new Map(); // pid → whether it is a Chromium renderer (its command line says --type=renderer)

function isRenderer(pid) {
  if (!renderers.has(pid)) {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
    } catch {
      // exited
    }
    renderers.set(pid, cmdline.includes('--type=renderer'));
  }
  return renderers.get(pid);
}

/**
 * Samples every `everyMs`: the root's VmRSS (unless `includeRoot` is false, e.g. when the root is this process,
 * which is not the subject), the summed RSS of its descendants and how many of them are Chromium renderers (about
 * one per open page, so the peak shows how many captures ran at once); PSS, costlier to read (smaps_rollup), every
 * `pssEvery` samples. The first sample is taken at once unless `sampleAtStart` is false; `stop()` takes a last one
 * (with PSS) unless told `{ finalSample: false }`. The peaks are in `stats`, also while it runs:
 * totalPeak / pssPeak are the tree's (root + descendants), rootPeak / childPeak and rootPssPeak / childPssPeak
 * its parts.
 */
export function startTreeSampler(root, { everyMs, pssEvery = 1, includeRoot = true, sampleAtStart = true }) {
  const stats = {
    samples: 0,
    rootPeak: 0,
    childPeak: 0,
    totalPeak: 0,
    pssPeak: 0,
    rootPssPeak: 0,
    childPssPeak: 0,
    rootPeakAt: null, // seconds after the start, and the VmRSS breakdown then
    rootPeakParts: null,
    maxProcesses: 0,
    maxRenderers: 0,
    costMs: 0,
  };
  const startedAt = performance.now();
  const sample = (forcePss = false) => {
    const started = performance.now();
    const table = processTable();
    const pids = descendantsOf(table, root);
    const status = includeRoot ? statusFields(root) : {};
    const rootRss = includeRoot ? (status.VmRSS ?? NaN) : 0;
    const childRss = pids.reduce((sum, pid) => sum + table.get(pid).rss, 0);
    if (Number.isFinite(rootRss) && rootRss > stats.rootPeak) {
      stats.rootPeak = rootRss;
      stats.rootPeakAt = (started - startedAt) / 1000;
      stats.rootPeakParts = { anon: status.RssAnon, file: status.RssFile, shmem: status.RssShmem };
    }
    stats.childPeak = Math.max(stats.childPeak, childRss);
    stats.totalPeak = Math.max(stats.totalPeak, (rootRss || 0) + childRss);
    stats.maxProcesses = Math.max(stats.maxProcesses, pids.length);
    stats.maxRenderers = Math.max(stats.maxRenderers, pids.filter(isRenderer).length);
    if (forcePss || stats.samples % pssEvery === 0) {
      const rootPss = includeRoot ? pssOf(root) : 0;
      const childPss = pids.reduce((sum, pid) => sum + pssOf(pid), 0);
      stats.rootPssPeak = Math.max(stats.rootPssPeak, rootPss);
      stats.childPssPeak = Math.max(stats.childPssPeak, childPss);
      stats.pssPeak = Math.max(stats.pssPeak, rootPss + childPss);
    }
    stats.samples += 1;
    stats.costMs += performance.now() - started;
  };
  if (sampleAtStart) sample();
  const timer = setInterval(sample, everyMs);
  return {
    stats,
    stop({ finalSample = true } = {}) {
      clearInterval(timer);
      if (finalSample) sample(true);
      return stats;
    },
  };
}
