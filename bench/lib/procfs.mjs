// /proc readers: RSS, PSS and CPU time of processes, for the benchmarks' resource figures (Linux only).

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const PAGE_SIZE = Number(spawnSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).stdout.trim()) || 4096;

/** pid → { ppid, comm, ticks (own utime+stime), childTicks (reaped children's), rss bytes } for every process. */
export function processTable() {
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let text;
    try {
      text = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue; // exited meanwhile
    }
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' '); // fields[0] is field 3 (state)
    table.set(Number(name), {
      ppid: Number(fields[1]),
      comm: text.slice(text.indexOf('(') + 1, close),
      ticks: Number(fields[11]) + Number(fields[12]),
      childTicks: Number(fields[13]) + Number(fields[14]),
      rss: Number(fields[21]) * PAGE_SIZE,
    });
  }
  return table;
}

export function descendantsOf(table, root) {
  const children = new Map();
  for (const [pid, entry] of table) {
    if (!children.has(entry.ppid)) children.set(entry.ppid, []);
    children.get(entry.ppid).push(pid);
  }
  const found = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length) {
    const pid = stack.pop();
    found.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return found;
}

export function statusField(pid, field) {
  return statusFields(pid)[field] ?? NaN;
}

/** The "Name: N kB" lines of /proc/<pid>/status, in bytes. */
export function statusFields(pid) {
  const fields = {};
  try {
    for (const [, name, kb] of readFileSync(`/proc/${pid}/status`, 'latin1').matchAll(/^(\w+):\s+(\d+) kB/gm)) {
      fields[name] = Number(kb) * 1024;
    }
  } catch {
    // exited
  }
  return fields;
}

export function pssOf(pid) {
  try {
    const match = readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1').match(/^Pss:\s+(\d+) kB/m);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Busy and total jiffies of the whole machine (first line of /proc/stat). */
export function machineTicks() {
  const fields = readFileSync('/proc/stat', 'latin1').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - fields[3] - fields[4], total };
}

/** CPU ticks so far of PostgreSQL's and of Redis's processes (with the children they reaped), from a processTable(). */
function storeTicks(table) {
  const ticks = { postgres: 0, redis: 0 };
  for (const entry of table.values()) {
    if (entry.comm === 'postgres') ticks.postgres += entry.ticks + entry.childTicks;
    else if (entry.comm.startsWith('redis-server')) ticks.redis += entry.ticks + entry.childTicks;
  }
  return ticks;
}

/**
 * CPU seconds so far of each service process (by role; with the children it reaped), of PostgreSQL's and Redis's
 * processes together, and of this process.
 */
export function cpuSeconds(services) {
  const table = processTable();
  const ticks = (entry) => (entry ? entry.ticks + entry.childTicks : 0);
  const figures = Object.fromEntries(services.map((service) => [service.role, ticks(table.get(service.pid))]));
  Object.assign(figures, storeTicks(table));
  figures.bench = ticks(table.get(process.pid));
  return Object.fromEntries(Object.entries(figures).map(([name, value]) => [name, value / CLK_TCK]));
}

/**
 * CPU seconds so far of `root` (its own threads) and of its descendants, of PostgreSQL + Redis together, and of
 * this process's own threads. A descendant that exited and was reaped by another descendant (Chromium's zygote
 * reaps renderers) is in that one's childTicks.
 */
export function treeCpuSeconds(root) {
  const table = processTable();
  const own = table.get(root);
  let children = 0;
  for (const pid of descendantsOf(table, root)) {
    const entry = table.get(pid);
    children += entry.ticks + entry.childTicks;
  }
  const stores = storeTicks(table);
  return {
    root: own ? own.ticks / CLK_TCK : NaN,
    descendants: children / CLK_TCK,
    stores: (stores.postgres + stores.redis) / CLK_TCK,
    bench: (table.get(process.pid)?.ticks ?? 0) / CLK_TCK,
  };
}
