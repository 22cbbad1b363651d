#!/usr/bin/env node
// Builds the gate client as a self-contained npm package, the tarball the service serves at
// GET /downloads/vigil-gate.tgz (src/downloads): cli.ts and everything it imports (openapi-fetch included) bundled
// into one CommonJS file, a package.json with a `vigil-gate` bin and no dependencies, packed by `npm pack`.
// Run by `npm run build`; `node libs/gate-client/build-package.mjs [OUT.tgz]`. The same source gives the same
// bytes (npm pack fixes the file times), so every instance of one release serves the same ETag.
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  copyFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Where src/downloads/gate-client-package.ts looks for it.
const DEFAULT_OUT = join(ROOT, 'dist', 'downloads', 'vigil-gate.tgz');
// The oldest Node the bundle runs on: fetch, AbortSignal.timeout and a stable util.parseArgs.
const NODE_RANGE = '>=20';

const out = resolve(process.argv[2] ?? DEFAULT_OUT);
const service = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const staging = mkdtempSync(join(tmpdir(), 'vigil-gate-package-'));
try {
  const pkg = join(staging, 'package');
  await build({
    input: join(ROOT, 'libs', 'gate-client', 'cli.ts'),
    platform: 'node',
    tsconfig: join(ROOT, 'tsconfig.build.json'),
    transform: { target: 'node20' },
    logLevel: 'warn',
    output: {
      file: join(pkg, 'vigil-gate.js'),
      format: 'cjs',
      banner: '#!/usr/bin/env node',
      codeSplitting: false,
      sourcemap: false,
    },
  });
  const manifest = {
    name: 'vigil-gate',
    version: service.version,
    description: "Vigil's CI release gate: submits a release check and waits until a person decides it",
    license: service.license,
    bin: { 'vigil-gate': 'vigil-gate.js' },
    files: ['vigil-gate.js'],
    engines: { node: NODE_RANGE },
  };
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const packed = join(staging, 'packed');
  mkdirSync(packed);
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packed], {
    cwd: pkg,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  const [tarball] = readdirSync(packed);
  if (!tarball) throw new Error('npm pack wrote no tarball');

  // Copied next to the target, then renamed over it: a running service never reads half a file.
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.${process.pid}.partial`;
  copyFileSync(join(packed, tarball), partial);
  renameSync(partial, out);
  const size = readFileSync(out).length;
  console.log(`gate client package: ${out} (${(size / 1024).toFixed(1)} KiB, vigil-gate ${service.version})`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
