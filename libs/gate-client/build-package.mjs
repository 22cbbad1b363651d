#!/usr/bin/env node
// Builds the Vigil CLI as a self-contained npm package, the tarball the service serves at
// GET /downloads/vigil-gate.tgz (src/downloads): two bins, each bundled with everything it imports into one CommonJS
// file: `vigil-gate` (cli.ts, the CI release gate) and `vigil` (vigil-cli.ts: validate, plan, apply, export and
// gate; yaml and ajv included, and the declaration format's JSON Schema, made from openapi.yaml here, so that
// `vigil validate` works offline and matches this service). A package.json with no dependencies, packed by
// `npm pack`. Run by `npm run build`; `node libs/gate-client/build-package.mjs [OUT.tgz]`. The same source gives the
// same bytes (npm pack fixes the file times), so every instance of one release serves the same ETag.
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
import { parse } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Where src/downloads/gate-client-package.ts looks for it.
const DEFAULT_OUT = join(ROOT, 'dist', 'downloads', 'vigil-gate.tgz');
// The oldest Node the bundle runs on: fetch, AbortSignal.timeout and a stable util.parseArgs.
const NODE_RANGE = '>=20';

// Each bin's entry point and file. The gate stays a bundle of its own: what CI jobs run does not grow.
const BINS = [
  [join(ROOT, 'libs', 'gate-client', 'cli.ts'), 'vigil-gate.js'],
  [join(ROOT, 'libs', 'gate-client', 'vigil-cli.ts'), 'vigil.js'],
];
// The module the bundle gets the declaration format from; here replaced by the schema itself.
const SCHEMA_MODULE = join(ROOT, 'libs', 'gate-client', 'declarations', 'declaration-schema.ts');

const out = resolve(process.argv[2] ?? DEFAULT_OUT);
const service = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const staging = mkdtempSync(join(tmpdir(), 'vigil-gate-package-'));
try {
  const pkg = join(staging, 'package');
  const schema = JSON.stringify(await declarationSchema());
  for (const [entry, file] of BINS) await bundle(entry, join(pkg, file), schema);
  const manifest = {
    name: 'vigil-gate',
    version: service.version,
    description:
      "Vigil's CLI: the CI release gate (vigil-gate, vigil gate), and monitoring as code (vigil validate, plan, " +
      'apply, export)',
    license: service.license,
    bin: { 'vigil-gate': 'vigil-gate.js', vigil: 'vigil.js' },
    files: BINS.map(([, file]) => file),
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
  console.log(`CLI package: ${out} (${(size / 1024).toFixed(1)} KiB, vigil and vigil-gate ${service.version})`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}

/** The declaration format as JSON Schema, from openapi.yaml, by the code that serves it at /api/v1. */
async function declarationSchema() {
  const contract = parse(readFileSync(join(ROOT, 'openapi.yaml'), 'utf8'));
  if (!contract?.components?.schemas?.Declaration) throw new Error('openapi.yaml has no Declaration schema');
  // A pure function without imports: compiled on its own, it runs here without the service's build.
  const {
    output: [chunk],
  } = await build({
    input: join(ROOT, 'src', 'openapi', 'declaration-schema.ts'),
    platform: 'node',
    logLevel: 'warn',
    write: false,
    output: { format: 'esm' },
  });
  const { declarationJsonSchema } = await import(
    `data:text/javascript;base64,${Buffer.from(chunk.code).toString('base64')}`
  );
  return declarationJsonSchema(contract);
}

/** One bin: its entry and what it imports in one CommonJS file, the declaration schema inlined. */
async function bundle(entry, file, json) {
  await build({
    input: entry,
    platform: 'node',
    tsconfig: join(ROOT, 'tsconfig.build.json'),
    transform: { target: 'node20' },
    logLevel: 'warn',
    plugins: [
      {
        name: 'embedded-declaration-schema',
        load(id) {
          if (id !== SCHEMA_MODULE) return null;
          return `export function declarationSchema() { return JSON.parse(${JSON.stringify(json)}); }\n`;
        },
      },
    ],
    output: {
      file,
      format: 'cjs',
      banner: '#!/usr/bin/env node',
      codeSplitting: false,
      sourcemap: false,
    },
  });
}
