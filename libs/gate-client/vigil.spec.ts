import type { CommandContext } from './declarations/context';
import { vigilCommand } from './vigil';

const WORKSPACE = '9a10a43f-1705-54c3-8d34-c18be327defd';
const SECRET = 'https://hooks.example.com/vigil/0f3c9a1b7e5d4c2a';
const BASE = ['--base-url', 'https://vigil.example.com/api/v1'];
const FILE = [
  'version: 1',
  'alert_destinations:',
  '  ops: {name: Ops, type: webhook, config: {url: "${OPS_URL}"}}',
  'monitors:',
  '  shop:',
  '    name: Shop',
  '    url: https://shop.example.com/',
  '',
].join('\n');

const PLAN = {
  fingerprint: 'fp-1',
  changes: [
    {
      action: 'create',
      kind: 'alert_destination',
      key: 'ops',
      id: null,
      fields: [
        { field: 'name', before: null, after: 'Ops', secret: false },
        { field: 'config.url', before: null, after: null, secret: true },
      ],
    },
    {
      action: 'update',
      kind: 'monitor',
      key: 'shop',
      id: '25bc52c6-f1fb-58fc-bd2c-55c7fb97eb33',
      // A service echoing the secret in a field it does not know is one: still never printed.
      fields: [{ field: 'name', before: `was ${SECRET}`, after: 'Shop', secret: false }],
    },
  ],
};

interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: Record<string, unknown> | null;
}
type Answer = { status: number; body?: unknown; text?: string; type?: string };
type Handler = (call: Call) => Answer | undefined;

/** A stand-in for the service: routes by method and path, records every call. */
function fakeService(routes: Record<string, Answer | Handler>) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.text();
    const call: Call = {
      method: request.method,
      path: url.pathname,
      headers: request.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    const answer = (typeof route === 'function' ? route(call) : route) ?? { status: 404, body: { code: 'not_found' } };
    const body = answer.text ?? JSON.stringify(answer.body ?? null);
    const type = answer.type ?? (answer.status >= 400 ? 'application/problem+json' : 'application/json');
    return new Response(body, { status: answer.status, headers: { 'Content-Type': type } });
  };
  return { fetch, calls };
}

const me = { status: 200, body: { id: 'u', email: 'dana@example.com', workspace: { id: WORKSPACE, name: 'Web' } } };
const at = (suffix = '') => `/api/v1/workspaces/${WORKSPACE}/declaration${suffix}`;

async function run(
  argv: string[],
  options: {
    fetch?: typeof fetch;
    env?: Record<string, string>;
    files?: Record<string, string>;
    confirm?: CommandContext['confirm'];
  } = {},
) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const files: Record<string, string> = { 'vigil.yaml': FILE, ...options.files };
  const code = await vigilCommand(argv, {
    env: { VIGIL_API_KEY: 'vgl_test', OPS_URL: SECRET, ...options.env },
    io: { stdout: (line) => stdout.push(line), stderr: (line) => stderr.push(line) },
    readFile: (path) => {
      if (!(path in files)) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      return files[path];
    },
    writeFile: (path, text) => (files[path] = text),
    confirm: options.confirm ?? null,
    fetch: options.fetch,
  });
  const out = stdout.join('\n');
  const err = stderr.join('\n');
  // Whatever happened, no value from the environment is ever printed.
  expect(`${out}\n${err}`).not.toContain(SECRET);
  return { code, stdout: out, stderr: err, files };
}

describe('vigil plan', () => {
  it('resolves ${NAME} from the environment, sends the plan to the key’s workspace and exits 2 with the diff', async () => {
    const service = fakeService({ 'GET /api/v1/users/me': me, [`POST ${at('/plan')}`]: { status: 200, body: PLAN } });
    const result = await run(['plan', 'vigil.yaml', ...BASE], { fetch: service.fetch });
    expect(result.code).toBe(2);
    expect(result.stdout.split('\n')).toEqual([
      '+ create alert_destination ops',
      '    name: "Ops"',
      '    config.url: (secret)',
      '~ update monitor shop',
      '    name: "was ${OPS_URL}" → "Shop"',
      '',
      'Plan: 1 to create, 1 to change, 0 to delete.',
    ]);
    const [, planned] = service.calls;
    expect(planned.body).toEqual({
      document: {
        version: 1,
        alert_destinations: { ops: { name: 'Ops', type: 'webhook', config: { url: SECRET } } },
        monitors: { shop: { name: 'Shop', url: 'https://shop.example.com/' } },
      },
      prune: false,
    });
    expect(planned.headers.get('x-api-key')).toBe('vgl_test');
  });

  it('exit 0 when nothing would change; --workspace needs no GET /users/me; --json prints the plan, masked', async () => {
    const service = fakeService({ [`POST ${at('/plan')}`]: { status: 200, body: { fingerprint: 'f', changes: [] } } });
    const none = await run(['plan', 'vigil.yaml', ...BASE, '--workspace', WORKSPACE, '--prune'], {
      fetch: service.fetch,
    });
    expect(none).toMatchObject({ code: 0, stdout: 'No changes: the workspace matches the document.' });
    expect(service.calls.map((call) => [call.method, call.path, call.body?.prune])).toEqual([
      ['POST', at('/plan'), true],
    ]);

    const changes = fakeService({ [`POST ${at('/plan')}`]: { status: 200, body: PLAN } });
    const json = await run(['plan', 'vigil.yaml', ...BASE, '--workspace', WORKSPACE, '--json'], {
      fetch: changes.fetch,
    });
    expect(json.code).toBe(2);
    expect(json.stdout).toContain('"before":"was ${OPS_URL}"');
    expect(JSON.parse(json.stdout)).toMatchObject({ fingerprint: 'fp-1' });
  });

  it('a variable the file refers to and the environment lacks is a usage error naming it; nothing is sent', async () => {
    const service = fakeService({});
    const result = await run(['plan', 'vigil.yaml', ...BASE], { fetch: service.fetch, env: { OPS_URL: '' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      'vigil: environment variable OPS_URL is empty (referred to at alert_destinations.ops.config.url)',
    );
    expect(service.calls).toEqual([]);
  });

  it('a refused document (400) prints each field error with its path and line; exit 1', async () => {
    const service = fakeService({
      'GET /api/v1/users/me': me,
      [`POST ${at('/plan')}`]: {
        status: 400,
        body: {
          code: 'validation_failed',
          title: 'Validation failed',
          detail: 'The request is not valid.',
          errors: [
            { field: 'monitors.shop.url', message: 'must be a public URL' },
            { field: 'alert_destinations.ops.config.url', message: `cannot reach ${SECRET}` },
          ],
        },
      },
    });
    const result = await run(['plan', 'vigil.yaml', ...BASE], { fetch: service.fetch });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      `vigil: POST /workspaces/${WORKSPACE}/declaration/plan answered 400: validation_failed: The request is not valid.`,
      '  monitors.shop.url: must be a public URL (line 7)',
      '  alert_destinations.ops.config.url: cannot reach ${OPS_URL} (line 3)',
    ]);
  });

  it('a key that cannot read /users/me: says to pass --workspace', async () => {
    const service = fakeService({
      'GET /api/v1/users/me': {
        status: 403,
        body: { code: 'insufficient_scope', detail: 'The key lacks a scope.', required_scope: 'users:read' },
      },
    });
    const result = await run(['plan', 'vigil.yaml', ...BASE], { fetch: service.fetch });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'vigil: cannot tell which workspace the key acts in: GET /users/me answered 403: insufficient_scope: The key ' +
        'lacks a scope. (required scope: users:read); pass --workspace ID (or give the key users:read)',
    );
  });

  it('the service unreachable, or a malformed answer, is exit 1, never "no changes"', async () => {
    const refused = (() =>
      Promise.reject(
        Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
        }),
      )) as unknown as typeof fetch;
    const down = await run(['plan', 'vigil.yaml', ...BASE, '--workspace', WORKSPACE], { fetch: refused });
    expect(down).toMatchObject({ code: 1 });
    expect(down.stderr).toBe(
      `vigil: POST /workspaces/${WORKSPACE}/declaration/plan failed: fetch failed (ECONNREFUSED)`,
    );

    const odd = fakeService({ [`POST ${at('/plan')}`]: { status: 200, body: { changes: [] } } });
    const malformed = await run(['plan', 'vigil.yaml', ...BASE, '--workspace', WORKSPACE], { fetch: odd.fetch });
    expect(malformed).toMatchObject({ code: 1 });
    expect(malformed.stderr).toMatch(/malformed response from POST .*: `fingerprint` is missing/);
  });

  it('--out saves the plan for apply --plan', async () => {
    const service = fakeService({ [`POST ${at('/plan')}`]: { status: 200, body: PLAN } });
    const result = await run(['plan', 'vigil.yaml', ...BASE, '--workspace', WORKSPACE, '--out', 'plan.json'], {
      fetch: service.fetch,
    });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.files['plan.json'])).toMatchObject({
      format: 'vigil-declaration-plan',
      prune: false,
      plan: { fingerprint: 'fp-1' },
    });
    expect(result.files['plan.json']).not.toContain(SECRET);
  });
});

describe('vigil apply', () => {
  const applied = {
    fingerprint: 'fp-2',
    changes: PLAN.changes.map((change) => ({ ...change, id: change.id ?? '5b0c6a36-8f5e-4c1e-9f55-0d6b1f0d2a11' })),
  };
  const routes = () => ({
    'GET /api/v1/users/me': me,
    [`POST ${at('/plan')}`]: { status: 200, body: PLAN },
    [`POST ${at('/apply')}`]: { status: 200, body: applied },
  });

  it('without a terminal and without --yes it shows the plan and refuses, exit 1; nothing is applied', async () => {
    const service = fakeService(routes());
    const result = await run(['apply', 'vigil.yaml', ...BASE], { fetch: service.fetch });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Plan: 1 to create, 1 to change, 0 to delete.');
    expect(result.stderr).toMatch(/not applied: there is no terminal to confirm on; .*pass --yes/);
    expect(service.calls.map((call) => call.path)).not.toContain(at('/apply'));
  });

  it('asks on a terminal; "no" applies nothing, "yes" applies the plan shown, by its fingerprint', async () => {
    const declined = fakeService(routes());
    const questions: string[] = [];
    const no = await run(['apply', 'vigil.yaml', ...BASE], {
      fetch: declined.fetch,
      confirm: (question) => (questions.push(question), Promise.resolve(false)),
    });
    expect(no.code).toBe(1);
    expect(questions).toEqual(['Apply these changes? [y/N] ']);
    expect(declined.calls.map((call) => call.path)).not.toContain(at('/apply'));

    const accepted = fakeService(routes());
    const yes = await run(['apply', 'vigil.yaml', ...BASE, '--prune'], {
      fetch: accepted.fetch,
      confirm: () => Promise.resolve(true),
    });
    expect(yes.code).toBe(0);
    const apply = accepted.calls.find((call) => call.path === at('/apply'));
    expect(apply?.body).toMatchObject({ fingerprint: 'fp-1', prune: true, document: { version: 1 } });
    expect(yes.stdout).toMatch(/\+ created alert_destination ops \(5b0c6a36-8f5e-4c1e-9f55-0d6b1f0d2a11\)\n/);
    expect(yes.stdout).toMatch(/\n\nApplied: 1 created, 1 changed, 0 deleted\.$/);
  });

  it('--yes applies without asking; nothing to change applies nothing, exit 0', async () => {
    const service = fakeService(routes());
    expect((await run(['apply', 'vigil.yaml', ...BASE, '--yes'], { fetch: service.fetch })).code).toBe(0);
    const none = fakeService({
      ...routes(),
      [`POST ${at('/plan')}`]: { status: 200, body: { fingerprint: 'f', changes: [] } },
    });
    const result = await run(['apply', 'vigil.yaml', ...BASE, '--yes'], { fetch: none.fetch });
    expect(result).toMatchObject({ code: 0, stdout: 'No changes: the workspace matches the document.' });
    expect(none.calls.map((call) => call.path)).not.toContain(at('/apply'));
  });

  it('409 plan_stale: nothing was applied, plan again; exit 1', async () => {
    const service = fakeService({
      ...routes(),
      [`POST ${at('/apply')}`]: { status: 409, body: { code: 'plan_stale', detail: 'The workspace changed.' } },
    });
    const result = await run(['apply', 'vigil.yaml', ...BASE, '--yes'], { fetch: service.fetch });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /nothing was applied: the workspace \(or the file\) changed since this plan was made \(409 plan_stale\)/,
    );
  });

  it('--plan applies a saved plan as reviewed, without planning again', async () => {
    const service = fakeService(routes());
    const saved = JSON.stringify({ format: 'vigil-declaration-plan', prune: true, plan: PLAN });
    const result = await run(['apply', 'vigil.yaml', ...BASE, '--plan', 'plan.json', '--yes'], {
      fetch: service.fetch,
      files: { 'plan.json': saved },
    });
    expect(result.code).toBe(0);
    expect(service.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /api/v1/users/me',
      `POST ${at('/apply')}`,
    ]);
    expect(service.calls[1].body).toMatchObject({ fingerprint: 'fp-1', prune: true });
    const conflicting = await run(['apply', 'vigil.yaml', ...BASE, '--plan', 'plan.json', '--prune'], {
      files: { 'plan.json': saved },
    });
    expect(conflicting.code).toBe(4);
  });
});

describe('vigil export', () => {
  it('YAML by default (asked for with Accept), JSON with --json, to a file with --out', async () => {
    const yaml = 'version: 1\nmonitors:\n  shop:\n    name: Shop\n';
    const service = fakeService({
      'GET /api/v1/users/me': me,
      [`GET ${at()}`]: (call) =>
        call.headers.get('accept') === 'application/yaml'
          ? { status: 200, text: yaml, type: 'application/yaml' }
          : { status: 200, body: { version: 1 } },
    });
    expect(await run(['export', ...BASE], { fetch: service.fetch })).toMatchObject({ code: 0, stdout: yaml.trimEnd() });
    expect(await run(['export', ...BASE, '--json'], { fetch: service.fetch })).toMatchObject({
      code: 0,
      stdout: '{\n  "version": 1\n}',
    });
    const written = await run(['export', ...BASE, '--out', 'out.yaml'], { fetch: service.fetch });
    expect(written).toMatchObject({ code: 0, stdout: '' });
    expect(written.files['out.yaml']).toBe(yaml);
    expect((await run(['export', ...BASE, '--yaml', '--json'])).code).toBe(4);
  });
});

describe('vigil', () => {
  it('validate: exit 0 for a valid file, 1 with each error, 4 for a file that is not there', async () => {
    expect(await run(['validate', 'vigil.yaml'])).toMatchObject({ code: 0 });
    const bad = await run(['validate', 'bad.yaml'], {
      files: { 'bad.yaml': 'version: 1\nmonitors:\n  shop: {url: x}\n' },
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('bad.yaml:3: monitors.shop.name: is required');
    expect((await run(['validate', 'gone.yaml'])).code).toBe(4);
  });

  it('gate: the gate’s own arguments, messages and exit codes', async () => {
    const result = await run(['gate', '--request', 'r.json'], { env: { VIGIL_API_KEY: 'k' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^vigil-gate: --base-url is required\nusage: vigil-gate --base-url URL/);
  });

  it('no command or an unknown one is a usage error; help is not', async () => {
    expect((await run([])).code).toBe(4);
    const unknown = await run(['deploy']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/^vigil: unknown command: deploy\nusage: vigil COMMAND/);
    for (const [argv, usage] of [
      [['--help'], 'usage: vigil COMMAND'],
      [['help', 'plan'], 'usage: vigil plan FILE'],
      [['plan', '--help'], 'usage: vigil plan FILE'],
      [['export', '-h'], 'usage: vigil export'],
    ] as const) {
      const help = await run([...argv]);
      expect(help.code).toBe(0);
      expect(help.stdout.startsWith(usage)).toBe(true);
    }
    const usage = await run(['plan', 'vigil.yaml']);
    expect(usage.code).toBe(4);
    expect(usage.stderr).toMatch(/^vigil: --base-url is required\nusage: vigil plan FILE/);
  });
});
