import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type Account, createAccount, issueKey, type IssuedKey } from '../support/accounts';
import { ApiClient } from '../support/api-client';
import type * as TestAppModule from '../support/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
/** A secret the document refers to as `${OPS_URL}`: the CLI sends it, and must never print it. */
const SECRET = `https://hooks.example.com/vigil/${randomBytes(12).toString('hex')}`;

/** Child processes: no key or CI setting inherited from the machine running the tests; this Node first on PATH. */
const childEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  delete env.VIGIL_API_KEY;
  delete env.GITHUB_ACTIONS;
  delete env.OPS_URL;
  Object.assign(env, extra);
  env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
  return env;
};

/**
 * Monitoring as code through the `vigil` bin of the package the service serves at /downloads/vigil-gate.tgz:
 * validate offline, plan (exit 2), apply, plan again (exit 0) and export against the real service.
 */
describe('the vigil CLI from the served package: validate, plan, apply, export', () => {
  let service: TestAppModule.TestApp;
  let person: Account;
  let key: IssuedKey;
  const work = mkdtempSync(join(tmpdir(), 'vigil-cli-'));
  const project = join(work, 'monitoring');
  const outputs: string[] = [];
  let vigil: (
    args: string[],
    extraEnv?: Record<string, string>,
  ) => Promise<{ code: number | null; stdout: string; stderr: string }>;

  beforeAll(async () => {
    // What `npm run build` does last: the package the service serves, from the current source.
    await run(process.execPath, [join(ROOT, 'libs', 'gate-client', 'build-package.mjs')], {
      cwd: ROOT,
      env: childEnv(),
    });
    const { startTestApp } = jest.requireActual<typeof TestAppModule>('../support/test-app');
    service = await startTestApp({ ROLE: 'api' });
    person = await createAccount(new ApiClient(service.baseUrl));
    key = await issueKey(person, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write', 'users:read']);

    const response = await fetch(`${service.baseUrl}/downloads/vigil-gate.tgz`);
    expect(response.status).toBe(200);
    const tarball = join(work, 'vigil-gate.tgz');
    writeFileSync(tarball, Buffer.from(await response.arrayBuffer()));
    mkdirSync(project);
    // An empty npm cache and --offline: the package brings everything it needs (yaml, ajv, the schema).
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', join(work, 'npm-cache'), tarball], {
      cwd: project,
      env: childEnv(),
    });
    const bin = join(project, 'node_modules', '.bin', 'vigil');
    vigil = (args, extraEnv = {}) =>
      new Promise((resolve, reject) => {
        // Standard input is a pipe, not a terminal: apply cannot ask.
        const child = spawn(bin, args, {
          cwd: project,
          env: childEnv({ VIGIL_API_KEY: key.secret, OPS_URL: SECRET, ...extraEnv }),
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => {
          outputs.push(stdout, stderr);
          resolve({ code, stdout, stderr });
        });
        child.stdin.end();
      });
  });
  afterAll(async () => {
    await service?.close();
    rmSync(work, { recursive: true, force: true });
  });
  afterEach(() => {
    // Whatever a command printed, the secret it sent was never part of it.
    for (const output of outputs) expect(output).not.toContain(SECRET);
  });

  const base = () => ['--base-url', `${service.baseUrl}/api/v1`];
  const file = (name: string, lines: string[]): string => {
    writeFileSync(join(project, name), `${lines.join('\n')}\n`);
    return name;
  };
  const declaration = () =>
    file('vigil.yaml', [
      'version: 1',
      'alert_destinations:',
      '  ops:',
      '    name: Ops',
      '    type: webhook',
      '    config:',
      '      url: ${OPS_URL}',
      'monitors:',
      '  shop:',
      '    name: Shop',
      '    url: https://shop.example.com/',
      '    interval_seconds: 300',
      '    rules:',
      '      down:',
      '        event: down',
      '        destinations: [ops]',
    ]);

  it('validate: a bad file offline, each error with its path and line (exit 1); a good one (exit 0)', async () => {
    const bad = file('bad.yaml', [
      'version: 1',
      'monitors:',
      '  shop:',
      '    nmae: Shop',
      '    url: not a url',
      '    interval_seconds: 5',
    ]);
    const invalid = await vigil(['validate', bad]);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout.split('\n')).toEqual([
      'bad.yaml:4: monitors.shop.name: is required',
      'bad.yaml:4: monitors.shop.nmae: is not a field of this format',
      'bad.yaml:5: monitors.shop.url: must match format "uri"',
      'bad.yaml:6: monitors.shop.interval_seconds: must be >= 30',
      '4 errors: bad.yaml is not a valid declaration.',
      '',
    ]);
    const valid = await vigil(['validate', declaration()]);
    expect(valid).toMatchObject({ code: 0, stderr: '' });
  });

  it('plan (exit 2, the diff), apply --yes, plan again (exit 0), export; the secret is never printed', async () => {
    declaration();
    // A variable the file needs and the environment lacks: a usage error naming it, before anything is sent.
    const unset = await vigil(['plan', 'vigil.yaml', ...base()], { OPS_URL: '' });
    expect(unset.code).toBe(4);
    expect(unset.stderr).toContain(
      'environment variable OPS_URL is empty (referred to at alert_destinations.ops.config.url)',
    );

    const planned = await vigil(['plan', 'vigil.yaml', ...base()]);
    expect({ code: planned.code, stderr: planned.stderr }).toEqual({ code: 2, stderr: '' });
    const lines = planned.stdout.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        '+ create alert_destination ops',
        '    name: "Ops"',
        '    config.url: (secret)',
        '+ create monitor shop',
        '    url: "https://shop.example.com/"',
        '+ create alert_rule shop/down',
        'Plan: 3 to create, 0 to change, 0 to delete.',
      ]),
    );

    // No terminal and no --yes: shown, not applied.
    const unconfirmed = await vigil(['apply', 'vigil.yaml', ...base()]);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toMatch(/not applied: .*pass --yes/);
    expect((await key.client.get('/monitors')).body.data).toEqual([]);

    const applied = await vigil(['apply', 'vigil.yaml', ...base(), '--yes']);
    expect({ code: applied.code, stderr: applied.stderr }).toEqual({ code: 0, stderr: '' });
    expect(applied.stdout).toMatch(/^\+ created monitor shop \([0-9a-f-]{36}\)$/m);
    expect(applied.stdout).toContain('Applied: 3 created, 0 changed, 0 deleted.');
    const monitors = (await key.client.get('/monitors')).body.data;
    expect(monitors.map((monitor: any) => [monitor.declaration_key, monitor.name])).toEqual([['shop', 'Shop']]);

    const again = await vigil(['plan', 'vigil.yaml', ...base(), '--workspace', person.workspaceId]);
    expect(again).toMatchObject({ code: 0, stdout: 'No changes: the workspace matches the document.\n' });

    const exported = await vigil(['export', ...base()]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('  shop:\n');
    expect(exported.stdout).toContain('url: ${OPS_URL}');
    writeFileSync(join(project, 'exported.yaml'), exported.stdout);
    expect(await vigil(['validate', 'exported.yaml'])).toMatchObject({ code: 0 });
    const json = await vigil(['export', ...base(), '--json', '--out', 'exported.json']);
    expect(json).toMatchObject({ code: 0, stdout: '' });
    expect(JSON.parse(readFileSync(join(project, 'exported.json'), 'utf8')).monitors.shop).toMatchObject({
      name: 'Shop',
    });
  });
});
