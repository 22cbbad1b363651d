import { parseArgs, type ParseArgsConfig } from 'node:util';
import { apiKeyOption, baseUrlOption, CONNECTION_OPTIONS, secondsOption, stringValue } from '../connection';
import type { ApiConnection } from './declaration-api';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

/** The options of every command that talks to the service. */
export const SERVICE_OPTIONS = {
  ...CONNECTION_OPTIONS,
  workspace: { type: 'string' },
  'request-timeout': { type: 'string' },
} as const satisfies Options;

export const SERVICE_USAGE = `  --base-url URL            the Vigil service's address (or its API's, …/api/v1)
  --api-key KEY             default: env VIGIL_API_KEY (preferred: a command line is visible to other processes)
  --workspace ID            the workspace to declare; default: the one the key acts in (GET /users/me, users:read)
  --request-timeout SECONDS bound on each HTTP request (default 60)`;

const REQUEST_TIMEOUT = { fallback: 60, max: 3_600 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type CommandLine =
  { kind: 'run'; values: Values; file: string | undefined } | { kind: 'help' } | { kind: 'usage'; message: string };

/** A subcommand's options, and its one positional argument (`FILE`) when it takes one. */
export function parseCommandLine(argv: string[], options: Options, file: 'FILE' | null): CommandLine {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    return { kind: 'usage', message: error instanceof Error ? error.message.split('\n')[0] : String(error) };
  }
  if (values.help) return { kind: 'help' };
  if (!file && positionals.length) return { kind: 'usage', message: `unexpected argument: ${positionals[0]}` };
  if (file && positionals.length !== 1) {
    return {
      kind: 'usage',
      message: positionals.length ? `one ${file} only, not ${positionals.length}` : `${file} is required`,
    };
  }
  return { kind: 'run', values, file: positionals[0] };
}

/** The service, the key and the workspace from the command line and the environment, as `vigil-gate` takes them. */
export function connectionOf(
  values: Values,
  env: Record<string, string | undefined>,
): { ok: true; connection: ApiConnection } | { ok: false; message: string } {
  const root = baseUrlOption(stringValue(values['base-url']));
  if (!root.ok) return root;
  const apiKey = apiKeyOption(stringValue(values['api-key']), env);
  if (!apiKey.ok) return apiKey;
  const workspace = stringValue(values.workspace);
  if (workspace !== undefined && !UUID.test(workspace)) {
    return { ok: false, message: '--workspace must be a workspace id (a UUID)' };
  }
  const { fallback, max } = REQUEST_TIMEOUT;
  const timeout = secondsOption('request-timeout', stringValue(values['request-timeout']), fallback, max);
  if (!timeout.ok) return timeout;
  return {
    ok: true,
    connection: {
      baseUrl: root.value,
      apiKey: apiKey.value,
      workspace: workspace?.toLowerCase(),
      requestTimeoutSeconds: timeout.value,
    },
  };
}
