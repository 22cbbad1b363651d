import { connectionOf, parseCommandLine, SERVICE_OPTIONS } from './command-line';

const WORKSPACE = '9A10A43F-1705-54C3-8D34-C18BE327DEFD';
const plan = (argv: string[]) => parseCommandLine(argv, { ...SERVICE_OPTIONS, prune: { type: 'boolean' } }, 'FILE');

describe('the declaration commands’ arguments', () => {
  it('one FILE and options in any order', () => {
    expect(plan(['vigil.yaml', '--prune', '--base-url', 'https://vigil.example.com'])).toEqual({
      kind: 'run',
      file: 'vigil.yaml',
      values: { prune: true, 'base-url': 'https://vigil.example.com' },
    });
  });

  it.each([
    [[], 'FILE is required'],
    [['a.yaml', 'b.yaml'], 'one FILE only, not 2'],
    [['a.yaml', '--prun'], "Unknown option '--prun'"],
    [['a.yaml', '--base-url'], "Option '--base-url <value>' argument missing"],
  ])('%j is a usage error', (argv, message) => {
    const line = plan(argv);
    expect(line.kind).toBe('usage');
    expect(line.kind === 'usage' && line.message).toContain(message);
  });

  it('--help and -h ask for help; a command without FILE takes no positional', () => {
    expect(plan(['-h'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(['x'], SERVICE_OPTIONS, null)).toEqual({
      kind: 'usage',
      message: 'unexpected argument: x',
    });
  });

  it('the service and key as vigil-gate takes them; the workspace must be a UUID', () => {
    expect(
      connectionOf({ 'base-url': 'https://vigil.example.com/api/v1/', workspace: WORKSPACE }, { VIGIL_API_KEY: ' k ' }),
    ).toEqual({
      ok: true,
      connection: {
        baseUrl: 'https://vigil.example.com',
        apiKey: 'k',
        workspace: WORKSPACE.toLowerCase(),
        requestTimeoutSeconds: 60,
      },
    });
    expect(
      connectionOf({ 'base-url': 'https://v.example', 'api-key': 'flag' }, { VIGIL_API_KEY: 'env' }),
    ).toMatchObject({
      ok: true,
      connection: { apiKey: 'flag', workspace: undefined },
    });
    const base = { 'base-url': 'https://v.example' };
    expect(connectionOf({}, { VIGIL_API_KEY: 'k' })).toEqual({ ok: false, message: '--base-url is required' });
    expect(connectionOf(base, {})).toEqual({
      ok: false,
      message: 'an API key is required: --api-key or env VIGIL_API_KEY',
    });
    expect(connectionOf({ ...base, workspace: 'mine' }, { VIGIL_API_KEY: 'k' })).toEqual({
      ok: false,
      message: '--workspace must be a workspace id (a UUID)',
    });
    expect(connectionOf({ ...base, 'request-timeout': '0' }, { VIGIL_API_KEY: 'k' })).toEqual({
      ok: false,
      message: '--request-timeout must be a number of seconds above 0, at most 3600',
    });
    expect(connectionOf({ 'base-url': 'https://v.example/api/v2' }, { VIGIL_API_KEY: 'k' })).toMatchObject({
      ok: false,
    });
  });
});
