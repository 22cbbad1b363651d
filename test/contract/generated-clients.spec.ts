import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import createClient from 'openapi-fetch';
import type { paths } from '../../libs/api-client/schema';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestSite } from '../support/test-site';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const quiet = { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' };

/** Runs a command; a failure carries what it printed (tsc reports type errors on stdout). */
async function runShowingOutput(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  try {
    return await run(file, args, options);
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** What each client's program reports: enough to check it really went through the service. */
interface ProgramResult {
  monitor_id: string;
  release_check_id: string;
  release_check_status: number;
  gate: string;
}

/**
 * The program an integrator writes against the @hey-api/openapi-ts client: sign in, issue a key, create a monitor
 * and a release check with it, read the gate. Compiled with tsc (strict) against the generated types, then run.
 */
const HEY_API_PROGRAM = `
import { createClient, createConfig } from './client/client/index.js';
import { createApiKey, createMonitor, createReleaseCheck, getReleaseCheck, login } from './client/sdk.gen.js';

const [origin, email, password, site] = process.argv.slice(2);
const baseUrl = origin + '/api/v1';

const signedIn = await login({ client: createClient(createConfig({ baseUrl })), body: { email, password } });
if (!signedIn.data) throw new Error('sign-in failed: ' + JSON.stringify(signedIn.error));
const session = createClient(createConfig({ baseUrl, headers: { Authorization: 'Bearer ' + signedIn.data.access_token } }));

const key = await createApiKey({ client: session, body: { name: 'hey-api ci', scopes: ['monitors:read', 'monitors:write'] } });
if (!key.data) throw new Error('issuing a key failed: ' + JSON.stringify(key.error));
const integration = createClient(createConfig({ baseUrl, headers: { 'X-API-Key': key.data.secret } }));

const monitor = await createMonitor({
  client: integration,
  headers: { 'Idempotency-Key': 'hey-api-monitor' },
  body: { name: 'Pricing (hey-api)', url: site + '/prod/pricing', interval_seconds: 300 },
});
if (!monitor.data) throw new Error('creating a monitor failed: ' + JSON.stringify(monitor.error));

const check = await createReleaseCheck({
  client: integration,
  body: {
    name: 'Release (hey-api)',
    production_url: site + '/prod',
    preview_url: site + '/preview',
    request_key: 'hey-api-release',
    pages: [{ production_path: '/pricing', preview_path: '/pricing' }],
  },
});
if (!check.data) throw new Error('creating a release check failed: ' + JSON.stringify(check.error));

const read = await getReleaseCheck({ client: integration, path: { id: check.data.id } });
if (!read.data) throw new Error('reading the release check failed: ' + JSON.stringify(read.error));
const gate: 'pending' | 'passed' | 'failed' = read.data.gate;

console.log(JSON.stringify({
  monitor_id: monitor.data.id,
  release_check_id: read.data.id,
  release_check_status: check.response?.status ?? 0,
  gate,
}));
`;

/**
 * The same program against the client orval generates with its defaults (axios functions, one per operation): the
 * documented minimal requests, with no field that has a default, compile with tsc --strict.
 */
const ORVAL_PROGRAM = `
import axios from 'axios';
import { createApiKey, createMonitor, createReleaseCheck, getReleaseCheck, login } from './orval/api.js';

const [origin, email, password, site] = process.argv.slice(2);
axios.defaults.baseURL = origin + '/api/v1';

const signedIn = await login({ email, password });
const session = { headers: { Authorization: 'Bearer ' + signedIn.data.access_token } };
const key = await createApiKey({ name: 'orval ci', scopes: ['monitors:read', 'monitors:write'] }, session);
const integration = { headers: { 'X-API-Key': key.data.secret } };

const monitor = await createMonitor({ name: 'Pricing (orval)', url: site + '/prod/pricing' }, integration);
const check = await createReleaseCheck(
  {
    name: 'Release (orval)',
    production_url: site + '/prod',
    preview_url: site + '/preview',
    request_key: 'orval-release',
    pages: [{ production_path: '/pricing', preview_path: '/pricing' }],
  },
  integration,
);
const read = await getReleaseCheck(check.data.id, undefined, integration);
const gate: 'pending' | 'passed' | 'failed' = read.data.gate;

console.log(JSON.stringify({
  monitor_id: monitor.data.id,
  release_check_id: read.data.id,
  release_check_status: check.status,
  gate,
}));
`;

/** The same program against an openapi-fetch client over the openapi-typescript types (libs/api-client). */
async function openapiFetchProgram(
  origin: string,
  email: string,
  password: string,
  site: string,
): Promise<ProgramResult> {
  const baseUrl = `${origin}/api/v1`;
  const signedIn = await createClient<paths>({ baseUrl }).POST('/auth/login', { body: { email, password } });
  if (!signedIn.data) throw new Error(`sign-in failed: ${JSON.stringify(signedIn.error)}`);
  const session = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${signedIn.data.access_token}` } });

  const key = await session.POST('/users/me/api-keys', {
    body: { name: 'openapi-fetch ci', scopes: ['monitors:read', 'monitors:write'] },
  });
  if (!key.data) throw new Error(`issuing a key failed: ${JSON.stringify(key.error)}`);
  const integration = createClient<paths>({ baseUrl, headers: { 'X-API-Key': key.data.secret } });

  const monitor = await integration.POST('/monitors', {
    params: { header: { 'Idempotency-Key': 'openapi-fetch-monitor' } },
    body: { name: 'Pricing (openapi-fetch)', url: `${site}/prod/pricing`, interval_seconds: 300 },
  });
  if (!monitor.data) throw new Error(`creating a monitor failed: ${JSON.stringify(monitor.error)}`);

  const check = await integration.POST('/release-checks', {
    body: {
      name: 'Release (openapi-fetch)',
      production_url: `${site}/prod`,
      preview_url: `${site}/preview`,
      request_key: 'openapi-fetch-release',
      pages: [{ production_path: '/pricing', preview_path: '/pricing' }],
    },
  });
  if (!check.data) throw new Error(`creating a release check failed: ${JSON.stringify(check.error)}`);

  const read = await integration.GET('/release-checks/{id}', { params: { path: { id: check.data.id } } });
  if (!read.data) throw new Error(`reading the release check failed: ${JSON.stringify(read.error)}`);
  return {
    monitor_id: monitor.data.id,
    release_check_id: read.data.id,
    release_check_status: check.response.status,
    gate: read.data.gate,
  };
}

describe('clients generated from openapi.yaml by other generators', () => {
  let workDir: string;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'vigil-hey-api-'));
    // Each generator with its defaults, as an integrator runs it.
    await run(bin('openapi-ts'), ['-i', join(ROOT, 'openapi.yaml'), '-o', join(workDir, 'client')], {
      cwd: workDir,
      env: quiet,
    });
    await run(bin('orval'), ['--input', join(ROOT, 'openapi.yaml'), '--output', join(workDir, 'orval', 'api.ts')], {
      cwd: workDir,
      env: quiet,
    });
    writeFileSync(join(workDir, 'package.json'), JSON.stringify({ type: 'module' }));
    // What the programs import (axios) comes from the project's node_modules, as from an integrator's.
    symlinkSync(join(ROOT, 'node_modules'), join(workDir, 'node_modules'), 'dir');
  }, 120_000);
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('@hey-api/openapi-ts names every type as the contract does (no name ends in a digit, as a collision would)', () => {
    const types = readFileSync(join(workDir, 'client', 'types.gen.ts'), 'utf8');
    const names = [...types.matchAll(/^export type (\w+)/gm)].map((match) => match[1]);
    expect(names).toContain('SessionToken');
    expect(names.length).toBeGreaterThan(100);
    expect(names.filter((name) => /\d$/.test(name))).toEqual([]);
    const sdk = readFileSync(join(workDir, 'client', 'sdk.gen.ts'), 'utf8');
    const functions = [...sdk.matchAll(/^export const (\w+)/gm)].map((match) => match[1]);
    expect(functions.filter((name) => /\d$/.test(name))).toEqual([]);
  });

  describe('each client runs a program against the running service', () => {
    let service: TestApp;
    let site: TestSite;
    let person: Account;

    beforeAll(async () => {
      site = await new TestSite().start();
      for (const side of ['prod', 'preview']) site.set(`/${side}/pricing`, '<!doctype html><title>Pricing</title>');
      // No workers: the check stays queued, so its gate reads `pending`.
      service = await startTestApp({ ROLE: 'api' });
      person = await createAccount(new ApiClient(service.baseUrl));
    });
    afterAll(async () => {
      await service.close();
      await site.stop();
    });

    async function expectCreated(result: ProgramResult, monitorName: string): Promise<void> {
      expect(result).toMatchObject({ release_check_status: 201, gate: 'pending' });
      const monitor = await person.session.get(`/monitors/${result.monitor_id}`);
      expect(monitor.body.name).toBe(monitorName);
      const check = await person.session.get(`/release-checks/${result.release_check_id}`);
      expect(check.status).toBe(200);
    }

    /** Compiles a program with tsc --strict against a generated client, runs it, and answers what it printed. */
    async function compileAndRun(name: string, source: string): Promise<ProgramResult> {
      writeFileSync(join(workDir, `${name}.ts`), source);
      await runShowingOutput(
        bin('tsc'),
        [
          ...['--strict', '--skipLibCheck', '--target', 'es2023', '--module', 'nodenext'],
          ...['--lib', 'es2023,dom', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules', '@types')],
          ...['--outDir', join(workDir, 'dist'), join(workDir, `${name}.ts`)],
        ],
        { cwd: workDir, env: quiet },
      );
      const { stdout } = await runShowingOutput(
        process.execPath,
        [join(workDir, 'dist', `${name}.js`), service.baseUrl, person.email, person.password, site.origin],
        { cwd: workDir, env: quiet },
      );
      return JSON.parse(stdout) as ProgramResult;
    }

    it('the @hey-api/openapi-ts client (compiled with tsc --strict against its generated types)', async () => {
      await expectCreated(await compileAndRun('hey-api', HEY_API_PROGRAM), 'Pricing (hey-api)');
    }, 120_000);

    it('the orval client (its default axios functions, compiled with tsc --strict)', async () => {
      await expectCreated(await compileAndRun('orval', ORVAL_PROGRAM), 'Pricing (orval)');
    }, 120_000);

    it('the openapi-fetch client over the openapi-typescript types', async () => {
      const result = await openapiFetchProgram(service.baseUrl, person.email, person.password, site.origin);
      await expectCreated(result, 'Pricing (openapi-fetch)');
    });
  });
});

describe('Spectral', () => {
  it('finds nothing to warn about with its `oas` ruleset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-spectral-'));
    try {
      const ruleset = join(dir, '.spectral.yaml');
      writeFileSync(ruleset, "extends: ['spectral:oas']\n");
      const report = join(dir, 'report.json');
      const args = ['lint', join(ROOT, 'openapi.yaml'), '--ruleset', ruleset, '-f', 'json', '-o', report];
      // Spectral exits non-zero when it finds errors; the report says which either way.
      await run(bin('spectral'), args, { cwd: dir, env: quiet }).catch(() => undefined);
      const results = JSON.parse(readFileSync(report, 'utf8')) as { code: string; severity: number; path: string[] }[];
      // Severity 0 is an error, 1 a warning.
      expect(results.filter((result) => result.severity <= 1).map((r) => `${r.code} at ${r.path.join('.')}`)).toEqual(
        [],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
