// What every benchmark shares: settings from the environment, logging, figures, and building dist/ on demand.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MAIN = join(ROOT, 'dist', 'src', 'main.js');
export const HOST = '127.0.0.1';

export const log = (message) => console.error(`bench: ${message}`);
export const sleep = (ms) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/** A whole-number setting; a value outside [min, max] ends the bench with a clear message (exit 64). */
export function intSetting(name, fallback, min, max) {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`bench: ${name}=${JSON.stringify(raw)} must be a whole number from ${min} to ${max}`);
    process.exit(64);
  }
  return value;
}

export const flagSetting = (name) => ['1', 'true', 'yes'].includes(process.env[name]?.trim() ?? '');

/** Settings every benchmark that starts the service takes. */
export const serviceSettings = () => ({
  port: intSetting('BENCH_PORT', 0, 0, 65535),
  pgUrl: process.env.BENCH_PG_URL?.trim() || `postgres://postgres@${HOST}:5432/postgres`,
  redisUrl: process.env.BENCH_REDIS_URL?.trim() || `redis://${HOST}:6379`,
  build: process.argv.includes('--build') || flagSetting('BENCH_BUILD'),
  strict: flagSetting('BENCH_STRICT'),
  nodeOptions: process.env.BENCH_NODE_OPTIONS?.trim() || '',
});

/** Runs `npm run build` when asked to, or when one of `needed` (paths under dist/) is missing. */
export function ensureBuilt(requested, needed = [MAIN]) {
  const missing = needed.filter((path) => !existsSync(path));
  if (!requested && !missing.length) return;
  log(requested ? 'building (requested)' : `${missing.join(', ')} missing; building`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status ?? build.signal})`);
}

/** Runs `work(item, index)` over `items`, at most `concurrency` at once; the results in the items' order. */
export async function runPool(items, concurrency, work) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index], index);
      }
    }),
  );
  return results;
}

/** The nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const fmt = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const pct = (share) => (Number.isFinite(share) ? `${(share * 100).toFixed(1)}%` : 'n/a');
export const mb = (bytes) => (Number.isFinite(bytes) && bytes >= 0 ? `${(bytes / 1024 ** 2).toFixed(0)} MB` : 'n/a');
