// bench:release's CPU profiles of the service: its main thread profiled through the inspector during the release check
// (BENCH_PROFILE), .cpuprofile files that --cpu-prof in BENCH_NODE_OPTIONS left, and their summary (self time by
// package and by function) as markdown.

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fmt, HOST, log, pct, ROOT, sleep } from '../lib/common.mjs';

/** Connects to the service's inspector on `port`; { send(method, params), close() }. */
async function openInspector(port) {
  const deadline = Date.now() + 10_000;
  let target = null;
  while (!target && Date.now() < deadline) {
    try {
      const list = await (await fetch(`http://${HOST}:${port}/json/list`)).json();
      target = list.find((entry) => entry.webSocketDebuggerUrl);
    } catch {
      await sleep(200);
    }
  }
  if (!target) throw new Error(`the service's inspector on port ${port} did not answer`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolveOpen, reject) => {
    socket.addEventListener('open', resolveOpen, { once: true });
    socket.addEventListener('error', () => reject(new Error('could not connect to the inspector')), { once: true });
  });
  let nextId = 1;
  const pending = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`inspector: ${message.error.message}`));
    else waiter.resolve(message.result);
  });
  return {
    send(method, params = {}) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolveSend, reject) => pending.set(id, { resolve: resolveSend, reject }));
    },
    close() {
      socket.close();
    },
  };
}

/** Where a profile frame's code comes from: an npm package, Vigil's own code, Node's internals, or V8's buckets. */
function packageOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native/V8 builtins)';
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (path.startsWith('node:') || !path.startsWith('/')) return '(node internals)';
  if (path.includes('/dist/libs/')) return `vigil libs/${path.split('/dist/libs/')[1].split('/')[0]}`;
  if (path.includes('/dist/src/')) return `vigil src/${path.split('/dist/src/')[1].split('/')[0]}`;
  return path;
}

/** Self time per package and per function of a .cpuprofile, optionally only within [fromUs, toUs]. */
function summarizeProfile(profile, window) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  let time = profile.startTime;
  let inWindow = 0;
  const selfByNode = new Map();
  const useWindow = window && window.fromUs < profile.endTime && window.toUs > profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    const duration = profile.timeDeltas[i + 1] ?? 0;
    if (useWindow && (time < window.fromUs || time > window.toUs)) continue;
    inWindow += duration;
    selfByNode.set(profile.samples[i], (selfByNode.get(profile.samples[i]) ?? 0) + duration);
  }
  const byPackage = new Map();
  const byFunction = new Map();
  for (const [id, micros] of selfByNode) {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const name = functionName || '(anonymous)';
    const pkg = packageOf(url, name);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
    const where = url
      ? `${url
          .replace(/^file:\/\//, '')
          .replace(/^.*node_modules\//, '')
          .replace(`${ROOT}/`, '')}:${lineNumber + 1}`
      : '';
    const key = where ? `${name} (${where})` : name;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  const idle = byPackage.get('(idle)') ?? 0;
  const busy = inWindow - idle;
  const top = (map, count) =>
    [...map.entries()]
      .filter(([key]) => key !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, micros]) => ({ key, ms: micros / 1000, share: busy > 0 ? micros / busy : 0 }));
  return {
    windowMs: inWindow / 1000,
    busyMs: busy / 1000,
    idleMs: idle / 1000,
    windowed: Boolean(useWindow),
    packages: top(byPackage, 10),
    functions: top(byFunction, 12),
  };
}

function printProfileSummary(label, summary) {
  console.log('');
  console.log(
    `${label}: ${fmt(summary.windowMs / 1000, 1)} s profiled${summary.windowed ? ' (the release check only)' : ''}, ` +
      `main thread busy ${fmt(summary.busyMs / 1000, 1)} s, idle ${fmt(summary.idleMs / 1000, 1)} s.`,
  );
  console.log('');
  console.log('| Self time by package | ms | share of busy |');
  console.log('| --- | ---: | ---: |');
  for (const row of summary.packages) console.log(`| ${row.key} | ${fmt(row.ms, 0)} | ${pct(row.share)} |`);
  console.log('');
  console.log('| Self time by function | ms | share of busy |');
  console.log('| --- | ---: | ---: |');
  for (const row of summary.functions)
    console.log(`| \`${row.key.slice(0, 110)}\` | ${fmt(row.ms, 0)} | ${pct(row.share)} |`);
}

/** .cpuprofile files a --cpu-prof-dir in `nodeOptions` (BENCH_NODE_OPTIONS) received since `sinceMs`. */
function cpuProfFiles(nodeOptions, sinceMs) {
  const match = nodeOptions.match(/--cpu-prof-dir[= ](\S+)/);
  if (!/--cpu-prof\b/.test(nodeOptions)) return [];
  const dir = resolve(ROOT, match ? match[1] : '.');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).mtimeMs >= sinceMs)
    .sort((a, b) => statSync(b).size - statSync(a).size);
}

/** The service's inspector on `port`, its profiler enabled at a 1 ms interval (to be started: Profiler.start). */
export async function connectProfiler(port) {
  const inspector = await openInspector(port);
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.setSamplingInterval', { interval: 1000 });
  return inspector;
}

/**
 * Stops the profile, writes it to DIR/vigil-release-<id>.cpuprofile and closes the inspector; the main thread's JS
 * heap (read first) and { file, summary }.
 */
export async function stopProfile(inspector, dir, id) {
  const heap = await inspector.send('Runtime.getHeapUsage').catch(() => null);
  const { profile } = await inspector.send('Profiler.stop');
  inspector.close();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `vigil-release-${id}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  const profileSummary = { file, summary: summarizeProfile(profile, null) };
  log(`wrote the service's CPU profile of the release check to ${file}`);
  return { heap, profileSummary };
}

/**
 * After the report: the summary of BENCH_PROFILE's profile (if any), and of each --cpu-prof file from
 * BENCH_NODE_OPTIONS written since `sinceMs` (within the release check's `window` of the monotonic clock).
 */
export function printProfiles(vigil, nodeOptions, sinceMs) {
  if (vigil.profileSummary)
    printProfileSummary(`Service CPU profile (${vigil.profileSummary.file})`, vigil.profileSummary.summary);
  for (const file of cpuProfFiles(nodeOptions, sinceMs)) {
    try {
      printProfileSummary(`--cpu-prof ${file}`, summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), vigil.window));
    } catch (error) {
      log(`could not summarize ${file}: ${error.message}`);
    }
  }
  if (nodeOptions.includes('--cpu-prof') && !cpuProfFiles(nodeOptions, sinceMs).length) {
    log('no .cpuprofile was written by the service (Node writes one only on a clean exit); use BENCH_PROFILE=DIR');
  }
}
