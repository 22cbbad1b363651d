import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { GATE_CLIENT_PACKAGE_PATH } from '../../src/downloads/gate-client-package';
import { type Account, createAccount, issueKey, type IssuedKey } from '../support/accounts';
import { ApiClient } from '../support/api-client';
import { contractValidator } from '../support/contract-validator';
import type * as TestAppModule from '../support/test-app';
import { page, TestSite } from '../support/test-site';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const DOWNLOAD = '/downloads/vigil-gate.tgz';
/** Child processes: no key or CI setting inherited from the machine running the tests; this Node first on PATH. */
const childEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  delete env.VIGIL_API_KEY;
  delete env.GITHUB_ACTIONS;
  Object.assign(env, extra);
  env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
  return env;
};

describe('the gate client package at GET /downloads/vigil-gate.tgz', () => {
  let service: TestAppModule.TestApp;
  let site: TestSite;
  let person: Account;
  let ci: IssuedKey;
  const work = mkdtempSync(join(tmpdir(), 'vigil-gate-install-'));

  beforeAll(async () => {
    // What `npm run build` does last: the package the service serves, from the current source.
    await run(process.execPath, [join(ROOT, 'libs', 'gate-client', 'build-package.mjs')], {
      cwd: ROOT,
      env: childEnv(),
    });
    site = await new TestSite().start();
    const { startTestApp } = jest.requireActual<typeof TestAppModule>('../support/test-app');
    service = await startTestApp();
    person = await createAccount(new ApiClient(service.baseUrl));
    ci = await issueKey(person, ['monitors:read', 'monitors:write']);
  });
  afterAll(async () => {
    await service?.close();
    await site?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  async function download(headers: Record<string, string> = {}): Promise<{ response: Response; body: Buffer }> {
    const response = await fetch(`${service.baseUrl}${DOWNLOAD}`, { headers });
    const body = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get('content-type');
    contractValidator().assertResponse('GET', DOWNLOAD, response.status, contentType, body.length ? 'binary' : '');
    return { response, body };
  }

  it('is served without credentials as a gzip attachment that caches must revalidate, and 304 when unchanged', async () => {
    const { response, body } = await download();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="vigil-gate.tgz"');
    expect(response.headers.get('cache-control')).toBe('public, no-cache');
    expect(response.headers.get('content-length')).toBe(String(body.length));
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    // The very file `npm run build` wrote, not the web interface's index.html.
    expect(body.equals(readFileSync(GATE_CLIENT_PACKAGE_PATH))).toBe(true);
    expect([...body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);

    const again = await download({ 'If-None-Match': etag! });
    expect(again.response.status).toBe(304);
    expect(again.response.headers.get('etag')).toBe(etag);
    expect(again.body.length).toBe(0);

    const stale = await download({ 'If-None-Match': '"something-older"' });
    expect(stale.response.status).toBe(200);
    expect(stale.body.equals(body)).toBe(true);
  });

  it('installs offline with no dependencies, and its vigil-gate fails a gate (exit 1) given the /api/v1 base URL', async () => {
    const { body } = await download();
    const tarball = join(work, 'vigil-gate.tgz');
    writeFileSync(tarball, body);
    const project = join(work, 'ci-job');
    mkdirSync(project);
    // An empty npm cache and --offline: the package must bring everything it needs.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', join(work, 'npm-cache'), tarball], {
      cwd: project,
      env: childEnv(),
    });
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'vigil-gate', 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'vigil-gate', bin: { 'vigil-gate': 'vigil-gate.js' } });
    expect(manifest.dependencies).toBeUndefined();
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['vigil-gate']);

    // The preview answers 404: missing evidence, so the gate fails without anyone reviewing.
    site.set('/download/prod/pricing', page());
    const request = join(work, 'release-check.json');
    writeFileSync(
      request,
      JSON.stringify({
        name: 'gate from the downloaded package',
        production_url: `${site.origin}/download/prod`,
        preview_url: `${site.origin}/download/preview`,
        request_key: `download-${Date.now()}`,
        pages: [{ production_path: '/pricing', preview_path: '/pricing', required_selector: 'main' }],
        viewports: ['desktop'],
      }),
    );
    const bin = join(project, 'node_modules', '.bin', 'vigil-gate');
    const args = ['--base-url', `${service.baseUrl}/api/v1`, '--request', request, '--poll-interval', '0.2'];
    const gate = spawn(bin, [...args, '--timeout', '90', '--json'], {
      cwd: project,
      env: childEnv({ VIGIL_API_KEY: ci.secret, GITHUB_ACTIONS: 'true' }),
    });
    let stdout = '';
    let stderr = '';
    gate.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    gate.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => gate.on('close', resolve));

    expect({ code, stderr }).toMatchObject({ code: 1 });
    const [, id] = /^release check: (\S+)$/m.exec(stderr)!;
    // Standard output is the one result line a CI step parses; the log went to standard error.
    expect(stdout.endsWith('\n')).toBe(true);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(stdout)).toEqual({
      id,
      revision: 1,
      gate: 'failed',
      collection_status: 'incomplete',
      review_url: `${service.baseUrl}/release-checks/${id}`,
      summary: {
        pairs: 1,
        captured: 0,
        missing: 1,
        with_differences: 0,
        unstable: 0,
        awaiting_decision: 0,
        new_findings: 0,
      },
      exit_code: 1,
    });
    expect(stderr).toContain('gate: failed\n');
    expect(stderr).toMatch(
      new RegExp(
        `^::error title=Vigil release gate::Failed: release check ${id}, revision 1: collection incomplete`,
        'm',
      ),
    );
    expect((await ci.client.get(`/release-checks/${id}`)).body).toMatchObject({ gate: 'failed' });
  });
});
