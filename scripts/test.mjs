#!/usr/bin/env node
// npm test: the tiers of jest.config.js in order, fastest first (unit, medium, e2e), each in its own jest run, then
// one line per tier with its counts and time. `--tiers=unit,medium` runs some (npm run test:fast). Given test paths
// or a name pattern (-t), it runs jest once over every tier, as before: `npm test -- test/e2e/crawl.spec.ts`.
// `--json --outputFile=FILE` writes the tiers' results merged into one jest JSON report (what .ci/run counts).

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const TIERS = ['unit', 'medium', 'e2e'];
// Jest workers per tier on this 2-core machine. Files wait for timers, worker processes and the browser; more workers
// than cores fill that: the unit tier takes 9.6 s with three, 11.7 s with two; the e2e tier left the cores idle 16% of
// its time with three workers, 9% with four (332 s), and five did no better (329 s; process accounting, 2026-11-29).
const WORKERS = { unit: 3, medium: 3, e2e: 4 };
const JEST = join(ROOT, 'node_modules', '.bin', 'jest');
const env = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --disable-warning=ExperimentalWarning`,
};

let outputFile = null;
let json = false;
let tiers = TIERS;
const passThrough = [];
for (const arg of process.argv.slice(2)) {
  if (arg === '--json') json = true;
  else if (arg.startsWith('--outputFile=')) outputFile = arg.slice('--outputFile='.length);
  else if (arg.startsWith('--tiers=')) tiers = arg.slice('--tiers='.length).split(',');
  else passThrough.push(arg);
}
const unknown = tiers.filter((tier) => !TIERS.includes(tier));
if (unknown.length) {
  console.error(`test: no tier ${unknown.join(', ')} (tiers: ${TIERS.join(', ')})`);
  process.exit(64);
}

const jest = (args) => spawnSync(JEST, args, { cwd: ROOT, env, stdio: 'inherit' }).status ?? 1;

// Paths, a name pattern or an option jest must see on its own: one run, as jest would do it.
if (passThrough.length > 0) {
  const report = json ? ['--json', ...(outputFile ? [`--outputFile=${outputFile}`] : [])] : [];
  process.exit(jest([...passThrough, ...report]));
}

const dir = join(ROOT, '.tmp');
mkdirSync(dir, { recursive: true });
const results = [];
let status = 0;
for (const tier of tiers) {
  const file = join(dir, `jest-${tier}.json`);
  rmSync(file, { force: true });
  const started = Date.now();
  status =
    jest(['--selectProjects', tier, `--maxWorkers=${WORKERS[tier]}`, '--json', `--outputFile=${file}`]) || status;
  let result = null;
  try {
    result = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    status ||= 1;
  }
  results.push({ tier, seconds: (Date.now() - started) / 1000, result });
}

for (const { tier, seconds, result } of results) {
  const line = result
    ? `${result.numPassedTests} passed, ${result.numFailedTests + result.numRuntimeErrorTestSuites} failed in ` +
      `${result.numTotalTestSuites} files`
    : 'no results';
  console.log(`tier ${tier}: ${line} (${seconds.toFixed(0)} s)`);
}

if (outputFile) {
  const reported = results.map(({ result }) => result).filter(Boolean);
  const sum = (field) => reported.reduce((total, result) => total + result[field], 0);
  const merged = {
    success: status === 0 && reported.length === tiers.length && reported.every((result) => result.success),
    startTime: Math.min(...reported.map((result) => result.startTime)),
    testResults: reported.flatMap((result) => result.testResults),
  };
  for (const field of Object.keys(reported[0] ?? {})) {
    if (field.startsWith('num')) merged[field] = sum(field);
  }
  writeFileSync(outputFile, JSON.stringify(merged));
}
process.exit(status);
