import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annotation } from '../../libs/gate-client';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey } from '../support/accounts';
import { runSource } from '../support/run-source';
import type * as TestAppModule from '../support/test-app';
import { page, TestSite } from '../support/test-site';

const ROOT = join(__dirname, '..', '..');
const CLI = 'libs/gate-client/cli.ts';
const FAST = ['--poll-interval', '0.2'];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const workDir = mkdtempSync(join(tmpdir(), 'vigil-gate-'));
let counter = 0;
const unique = (prefix: string): string => `${prefix}-${Date.now()}-${(counter += 1)}`;

/** Writes a request file and returns its path. */
function requestFile(body: unknown): string {
  const path = join(workDir, `${unique('request')}.json`);
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
  return path;
}

/** The environment of a gate process: no key inherited from the machine running the tests. */
function gateEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', ...extra };
  if (!('VIGIL_API_KEY' in extra)) delete env.VIGIL_API_KEY;
  // Tests that run on GitHub Actions must not get annotations they did not ask for.
  if (!('GITHUB_ACTIONS' in extra)) delete env.GITHUB_ACTIONS;
  return env;
}

interface Gate {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** Resolves with the first match on stdout (or stderr), rejects if the process ends first. */
  waitFor: (pattern: RegExp, timeoutMs?: number, stream?: 'stdout' | 'stderr') => Promise<RegExpMatchArray>;
}

/** The CLI as a real child process, compiled from source on the fly. */
function startGate(args: string[], env: Record<string, string> = {}): Gate {
  const child = spawn(process.execPath, ['--require', '@swc-node/register', CLI, ...args], {
    cwd: ROOT,
    env: gateEnv(env),
  });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    listeners.forEach((listener) => listener());
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    listeners.forEach((listener) => listener());
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 150_000);
  void exited.then(() => clearTimeout(killer));

  const waitFor = (pattern: RegExp, timeoutMs = 30_000, stream = 'stdout'): Promise<RegExpMatchArray> =>
    new Promise((resolve, reject) => {
      const text = (): string => (stream === 'stdout' ? stdout : stderr);
      const check = (): void => {
        const match = pattern.exec(text());
        if (match) {
          cleanup();
          resolve(match);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${pattern} on ${stream} in ${timeoutMs} ms; stdout: ${stdout}; stderr: ${stderr}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      void exited.then(() => {
        if (!pattern.exec(text())) {
          cleanup();
          reject(new Error(`exited before ${pattern}; stdout: ${stdout}; stderr: ${stderr}`));
        }
      });
      listeners.add(check);
      check();
    });
  return { child, stdout: () => stdout, stderr: () => stderr, exited, waitFor };
}

async function runGate(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const gate = startGate(args, env);
  const code = await gate.exited;
  return { code, stdout: gate.stdout(), stderr: gate.stderr() };
}

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A stand-in for the service on 127.0.0.1 that answers whatever the test wants. */
async function fakeService(handler: Handler): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => handler(request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A release check as the contract describes it. */
/** The summary of a check of one pair whose sides are the same. */
const IDENTICAL_PAIR = {
  pairs: 1,
  captured: 1,
  missing: 0,
  with_differences: 0,
  unstable: 0,
  awaiting_decision: 0,
  new_findings: 0,
};

function fakeCheck(id: string, gate: 'pending' | 'passed' | 'failed'): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id,
    name: 'fake',
    request_key: 'rk',
    production_url: 'https://www.example.com',
    preview_url: 'https://preview.example.com',
    pages: [{ production_path: '/', preview_path: '/', required_selector: null }],
    viewports: ['desktop'],
    mask_selectors: [],
    mismatch_threshold: 0,
    revision: 1,
    collection_status: 'completed',
    gate,
    review: { status: gate === 'passed' ? 'approved' : 'awaiting_review', revision: 1, decision: null, history: [] },
    summary: IDENTICAL_PAIR,
    review_url: `/release-checks/${id}`,
    artifacts: [],
    created_at: now,
    updated_at: now,
    completed_at: now,
  };
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

const FAKE_ID = '5b0c6a36-8f5e-4c1e-9f55-0d6b1f0d2a11';
const fakeRequest = requestFile({
  name: 'fake',
  production_url: 'https://a.example',
  preview_url: 'https://b.example',
});

describe('vigil-gate against the real service', () => {
  let service: TestAppModule.TestApp;
  let site: TestSite;
  let person: Account;
  let ci: IssuedKey;

  beforeAll(async () => {
    site = await new TestSite().start();
    // Loaded here so that a service that does not build fails these cases only, not the whole file.
    const { startTestApp } = jest.requireActual<typeof TestAppModule>('../support/test-app');
    service = await startTestApp();
    person = await createAccount(new ApiClient(service.baseUrl));
    ci = await issueKey(person, ['monitors:read', 'monitors:write']);
  });
  afterAll(async () => {
    await service?.close();
    await site?.stop();
  });

  function request(prefix: string): string {
    return requestFile({
      name: `gate ${prefix}`,
      production_url: `${site.origin}/${prefix}/prod`,
      preview_url: `${site.origin}/${prefix}/preview`,
      request_key: unique('gate'),
      pages: [{ production_path: '/pricing', preview_path: '/pricing', required_selector: 'main' }],
      viewports: ['desktop'],
    });
  }

  const gateArgs = (file: string, ...extra: string[]): string[] => [
    '--base-url',
    service.baseUrl,
    '--request',
    file,
    ...FAST,
    ...extra,
  ];

  async function collected(id: string): Promise<any> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const check = (await ci.client.get(`/release-checks/${id}`)).body;
      if (check.collection_status === 'completed' || check.collection_status === 'incomplete') return check;
      if (Date.now() > deadline) throw new Error(`collection of ${id} did not finish`);
      await sleep(250);
    }
  }

  it('exit 0: prints the id at once, waits for a person to approve complete evidence, then passes', async () => {
    site.set('/same/prod/pricing', page());
    site.set('/same/preview/pricing', page());
    const gate = startGate(gateArgs(request('same'), '--timeout', '120'), { VIGIL_API_KEY: ci.secret });

    const [, id] = await gate.waitFor(/^release check: (\S+)$/m);
    // The id is out before the gate is decided, so CI logs show which check to review.
    expect(gate.child.exitCode).toBeNull();
    expect((await ci.client.get(`/release-checks/${id}`)).body.gate).toBe('pending');

    const check = await collected(id);
    expect(check).toMatchObject({ collection_status: 'completed', gate: 'pending', revision: 1 });
    await sleep(600);
    expect(gate.child.exitCode).toBeNull(); // Still waiting: complete evidence alone does not pass the gate.
    const approved = await person.session.post(`/release-checks/${id}/review`, {
      decision: 'approve',
      note: 'Gate client test: identical pages.',
      revision: 1,
    });
    expect(approved.status).toBe(200);

    expect(await gate.exited).toBe(0);
    expect(gate.stdout()).toContain('gate: passed\n');
    expect(gate.stdout()).toContain('revision: 1\n');
    expect(gate.stdout()).toMatch(/^collection: completed \(pairs: 1, captured: 1, missing: 0/m);
    expect(gate.stdout()).toContain(`review: approved by ${person.email} at revision 1\n`);
    expect(gate.stdout()).toContain(`review page: ${service.baseUrl}/release-checks/${id}\n`);
  });

  it('exit 0 with --json and the /api/v1/ base URL: one JSON line on stdout; the log and a ::notice:: on stderr', async () => {
    site.set('/json/prod/pricing', page());
    site.set('/json/preview/pricing', page());
    const args = [
      '--base-url',
      `${service.baseUrl}/api/v1/`,
      '--request',
      request('json'),
      ...FAST,
      '--timeout',
      '120',
    ];
    // A push build on GitHub Actions: the gate fills the check's source from the runner's variables.
    const commit = '3f786850e387550fdab836ed7e6dc881de23001b';
    const gate = startGate([...args, '--json'], {
      VIGIL_API_KEY: ci.secret,
      GITHUB_ACTIONS: 'true',
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_SHA: commit,
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF_TYPE: 'branch',
      GITHUB_REF_NAME: 'main',
    });

    const [, id] = await gate.waitFor(/^release check: (\S+)$/m, 30_000, 'stderr');
    expect((await ci.client.get(`/release-checks/${id}`)).body.source).toEqual({
      provider: 'github',
      repository: 'acme/shop',
      commit_sha: commit,
      branch: 'main',
    });
    expect(gate.stderr()).toContain(
      'vigil-gate: source: acme/shop@3f786850e387 on github, from GitHub Actions; --no-source leaves it out\n',
    );
    expect(gate.stdout()).toBe('');
    await collected(id);
    const approved = await person.session.post(`/release-checks/${id}/review`, {
      decision: 'approve',
      note: 'Gate client test: --json.',
      revision: 1,
    });
    expect(approved.status).toBe(200);

    expect(await gate.exited).toBe(0);
    const reviewPage = `${service.baseUrl}/release-checks/${id}`;
    expect(gate.stdout().trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(gate.stdout())).toEqual({
      id,
      revision: 1,
      gate: 'passed',
      collection_status: 'completed',
      review_url: reviewPage,
      summary: IDENTICAL_PAIR,
      exit_code: 0,
    });
    expect(gate.stderr()).toContain('gate: passed\n');
    expect(gate.stderr()).toContain(`review page: ${reviewPage}\n`);
    expect(gate.stderr()).toContain(
      `::notice title=Vigil release gate::Passed: release check ${id}, revision 1, approved by ${person.email}. ` +
        `Review page: ${reviewPage}\n`,
    );
    expect(gate.stderr()).not.toContain('::error');
  });

  it('exit 1: a preview answering 404 is missing evidence, so the gate fails', async () => {
    site.set('/gone/prod/pricing', page());
    const result = await runGate(gateArgs(request('gone'), '--timeout', '90', '--api-key', ci.secret));
    expect(result).toMatchObject({ code: 1 });
    expect(result.stdout).toMatch(/^release check: \S+$/m);
    expect(result.stdout).toContain('gate: failed\n');
    expect(result.stdout).toMatch(/^collection: incomplete \(pairs: 1, captured: 0, missing: 1/m);
  });

  it('exit 2: nobody approves before the deadline; the review link is printed for a person', async () => {
    site.set('/wait/prod/pricing', page());
    site.set('/wait/preview/pricing', page());
    const started = Date.now();
    const result = await runGate(gateArgs(request('wait'), '--timeout', '4'), { VIGIL_API_KEY: ci.secret });
    expect(result.code).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    const [, id] = /^release check: (\S+)$/m.exec(result.stdout)!;
    expect(result.stdout).toContain('gate: pending\n');
    expect(result.stdout).toContain('revision: 1\n');
    expect(result.stdout).toContain(`review page: ${service.baseUrl}/release-checks/${id}\n`);
    expect(result.stderr).toMatch(/deadline of 4 s passed with the gate still pending/);
  });

  it('exit 3: a key without monitors:read is refused (403), and the scope it lacks is printed', async () => {
    const writeOnly = await issueKey(person, ['monitors:write']);
    const result = await runGate(gateArgs(request('scope'), '--timeout', '30'), { VIGIL_API_KEY: writeOnly.secret });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/POST \/release-checks answered 403: insufficient_scope.*monitors:read/);
  });

  it('exit 3: an invalid request body (400) names the offending fields', async () => {
    const file = requestFile({ name: 'bad', production_url: site.origin, preview_url: site.origin, pages: [] });
    const result = await runGate(gateArgs(file, '--timeout', '30'), { VIGIL_API_KEY: ci.secret });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/answered 400: validation_failed.*\[.*request_key/);
  });
});

describe('vigil-gate against a misbehaving service', () => {
  const servers: { close: () => Promise<void> }[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  async function gateAgainst(handler: Handler, ...extra: string[]) {
    const server = await fakeService(handler);
    servers.push(server);
    const args = ['--base-url', server.url, '--request', fakeRequest, '--api-key', 'k', ...FAST, ...extra];
    return runGate(args);
  }

  it('a base URL with a path keeps it: /vigil and /vigil/api/v1/ both reach the API at /vigil/api/v1', async () => {
    const seen: string[] = [];
    const server = await fakeService((request, _body, response) => {
      seen.push(`${request.method} ${request.url}`);
      if (request.method === 'POST') json(response, 201, fakeCheck(FAKE_ID, 'pending'));
      else json(response, 200, fakeCheck(FAKE_ID, 'passed'));
    });
    servers.push(server);
    for (const base of [`${server.url}/vigil`, `${server.url}/vigil/api/v1/`]) {
      const result = await runGate(['--base-url', base, '--request', fakeRequest, '--api-key', 'k', ...FAST]);
      expect(result).toMatchObject({ code: 0 });
      // Review links are relative to the service's root, which is under /vigil here.
      expect(result.stdout).toContain(`review page: ${server.url}/vigil/release-checks/${FAKE_ID}\n`);
    }
    const calls = ['POST /vigil/api/v1/release-checks', `GET /vigil/api/v1/release-checks/${FAKE_ID}`];
    expect(seen).toEqual([...calls, ...calls]);
  });

  it('exit 3 with --json: the JSON line still names the check, and GitHub Actions gets an ::error::', async () => {
    const server = await fakeService((request, _body, response) => {
      if (request.method === 'POST') json(response, 201, fakeCheck(FAKE_ID, 'pending'));
      else json(response, 200, { ...fakeCheck(FAKE_ID, 'passed'), gate: 'PASSED' });
    });
    servers.push(server);
    const args = ['--base-url', server.url, '--request', fakeRequest, '--api-key', 'k', ...FAST, '--json'];
    const result = await runGate(args, { GITHUB_ACTIONS: 'true' });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: FAKE_ID, gate: 'pending', exit_code: 3 });
    expect(result.stderr).toMatch(/^::error title=Vigil release gate::Not decided: malformed response from GET /m);
  });

  it('exit 3: 201 with an HTML body', async () => {
    const result = await gateAgainst((_request, _body, response) => {
      response.writeHead(201, { 'Content-Type': 'text/html' }).end('<html>not json</html>');
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/malformed response from POST \/release-checks \(201\): not JSON/);
    expect(result.stdout).toBe('');
  });

  it('exit 3: a review_url that would break the log line (a newline, then a workflow command) is malformed', async () => {
    const result = await gateAgainst((_request, _body, response) =>
      json(response, 201, { ...fakeCheck(FAKE_ID, 'pending'), review_url: '/ok\n::error::forged' }),
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/malformed response from POST \/release-checks \(201\): `review_url`/);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/^::error::forged/m);
  });

  it('exit 3: 201 JSON without id or gate', async () => {
    const result = await gateAgainst((_request, _body, response) => json(response, 201, { revision: 1 }));
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/malformed response.*`id`/);
  });

  it('exit 3: a poll answers a gate value the contract does not know, even one saying "passed"-ish', async () => {
    const result = await gateAgainst((request, _body, response) => {
      if (request.method === 'POST') json(response, 201, fakeCheck(FAKE_ID, 'pending'));
      else json(response, 200, { ...fakeCheck(FAKE_ID, 'passed'), gate: 'PASSED' });
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain(`release check: ${FAKE_ID}\n`);
    expect(result.stdout).not.toContain('gate: passed');
    expect(result.stderr).toMatch(/malformed response from GET .*`gate`/);
  });

  it('exit 3: POST answers 500 until the deadline', async () => {
    let attempts = 0;
    const result = await gateAgainst(
      (_request, _body, response) => {
        attempts += 1;
        json(response, 500, { code: 'internal_error' });
      },
      '--timeout',
      '2',
    );
    expect(result.code).toBe(3);
    expect(attempts).toBeGreaterThan(1); // request_key makes the retry safe
    expect(result.stderr).toMatch(/answered 500/);
    expect(result.stderr).toMatch(/deadline of 2 s passed before the release check was created/);
  });

  it('exit 3: polls that never answer are each cut off by --request-timeout, and the last one failed', async () => {
    const result = await gateAgainst(
      (request, _body, response) => {
        if (request.method === 'POST') json(response, 201, fakeCheck(FAKE_ID, 'pending'));
        // GET: never answered.
      },
      '--request-timeout',
      '0.5',
      '--timeout',
      '3',
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/no answer within 0.5 s; retrying/);
    expect(result.stderr).toMatch(/the last poll failed/);
    expect(result.stdout).toContain('gate: pending\n');
  });

  it('exit 0 after honouring 429 Retry-After, which is not a failure', async () => {
    const gets: number[] = [];
    const result = await gateAgainst((request, _body, response) => {
      if (request.method === 'POST') return json(response, 201, fakeCheck(FAKE_ID, 'pending'));
      gets.push(Date.now());
      if (gets.length === 1) {
        return json(response, 429, { code: 'rate_limited' }, { 'Retry-After': '1' });
      }
      json(response, 200, fakeCheck(FAKE_ID, 'passed'));
    });
    expect(result.code).toBe(0);
    expect(gets).toHaveLength(2);
    expect(gets[1] - gets[0]).toBeGreaterThanOrEqual(1000);
    expect(result.stderr).toMatch(/rate limited; retrying in 1 s/);
    expect(result.stdout).toContain('gate: passed\n');
  });
});

describe('vigil-gate usage errors (exit 4)', () => {
  const base = ['--base-url', 'http://127.0.0.1:9'];
  const key = { VIGIL_API_KEY: 'k' };

  it.each([
    ['no --request', [...base], {}, /--request is required/],
    ['an unreadable request file', [...base, '--request', join(workDir, 'gone.json')], key, /cannot read .*ENOENT/],
    ['a request file that is not JSON', [...base, '--request', requestFile('{nope')], key, /is not valid JSON/],
    ['no API key', [...base, '--request', fakeRequest], {}, /an API key is required/],
    ['an unknown option', [...base, '--request', fakeRequest, '--fast'], key, /Unknown option/],
    [
      'a base URL of another API version',
      ['--base-url', 'http://127.0.0.1:9/api/v2', '--request', fakeRequest],
      key,
      /must be the service's address or end in \/api\/v1, not \/api\/v2/,
    ],
  ])('%s', async (_case, args, env: Record<string, string>, message) => {
    const result = await runSource(CLI, args, { VIGIL_API_KEY: undefined, GITHUB_ACTIONS: undefined, ...env });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    const [first] = result.stderr.split('\n');
    expect(first).toMatch(/^vigil-gate: /);
    expect(first).toMatch(message);
    expect(result.stderr).toContain('usage: vigil-gate --base-url URL --request FILE.json');
  });

  it('on GitHub Actions a usage error is also an ::error:: annotation', async () => {
    const result = await runSource(CLI, [...base], { VIGIL_API_KEY: 'k', GITHUB_ACTIONS: 'true' });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^::error title=Vigil release gate::Usage error: --request is required$/m);
  });

  it('annotations are escaped, so server text cannot end the command or start another', () => {
    expect(annotation('error', '100% sure\n::warning::injected', 'a: b, c')).toBe(
      '::error title=a%3A b%2C c::100%25 sure%0A::warning::injected',
    );
  });

  it('the bin wrapper asks for a build when the compiled client is missing', async () => {
    const bin = join(mkdtempSync(join(tmpdir(), 'vigil-bin-')), 'bin');
    mkdirSync(bin);
    copyFileSync(join(ROOT, 'bin', 'vigil-gate.js'), join(bin, 'vigil-gate.js'));
    const child = spawn(process.execPath, [join(bin, 'vigil-gate.js')], { env: gateEnv() });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(4);
    expect(stderr).toBe('vigil-gate: run `npm run build` first\n');
  });
});
