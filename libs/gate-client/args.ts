import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Schemas } from '../api-client';
import { isRecord } from './check';
import { sourceFromCi } from './ci-source';
import { apiKeyOption, baseUrlOption, CONNECTION_OPTIONS, secondsOption, stringValue as str } from './connection';
import type { GateOptions } from './gate';
import { isGitHubActions } from './github-actions';

export const USAGE = `usage: vigil-gate --base-url URL --request FILE.json [--api-key KEY] [--timeout 600] [--request-timeout 30] [--poll-interval 5] [--json] [--no-source]
  --base-url URL              the Vigil service's address, e.g. https://vigil.example.com, or the API's base URL
                              https://vigil.example.com/api/v1 (a path the service is served under is kept)
  --request FILE.json         the release-check request body (CreateReleaseCheckRequest)
  --api-key KEY               a key with monitors:read and monitors:write; default: env VIGIL_API_KEY (preferred:
                              a command line is visible to other processes)
  --timeout SECONDS           total deadline (default 600)
  --request-timeout SECONDS   bound on each HTTP request (default 30)
  --poll-interval SECONDS     pause between polls (default 5)
  --json                      standard output is one JSON line at the end: {id, revision, gate, collection_status,
                              review_url, exit_code} (null before a check exists); the log goes to standard error
  --no-source                 do not fill the request's \`source\` (repository, commit, pull request) from the CI
                              environment (GitHub Actions, GitLab CI); a \`source\` in the request file is always kept
With GITHUB_ACTIONS=true the outcome is also a ::notice:: (passed) or ::error:: annotation.
exit codes: 0 gate passed; 1 gate failed; 2 deadline passed, gate pending; 3 request failure or malformed
response; 4 usage error. Only 0 means the release may go.`;

/** The options, and lines for the log about what was filled in (the request's source). */
export type ParsedArgs = { ok: true; options: GateOptions; notes: string[] } | { ok: false; message: string };

/** Seconds options: the default and the largest value (setTimeout cannot wait longer than about 24 days). */
const SECONDS = {
  timeout: { fallback: 600, max: 86_400 },
  'request-timeout': { fallback: 30, max: 3_600 },
  'poll-interval': { fallback: 5, max: 3_600 },
} as const;

/** Parses the command line and reads the request file; any problem is a usage error (exit 4). */
export function parseGateArgs(
  argv: string[],
  env: Record<string, string | undefined>,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): ParsedArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        ...CONNECTION_OPTIONS,
        request: { type: 'string' },
        timeout: { type: 'string' },
        'request-timeout': { type: 'string' },
        'poll-interval': { type: 'string' },
        json: { type: 'boolean' },
        'no-source': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return fail(error instanceof Error ? error.message.split('\n')[0] : String(error));
  }
  // Help is not a passed gate: a CI step that ends up running `vigil-gate --help` must not let a release go.
  if (values.help) return fail('help requested');

  const root = baseUrlOption(str(values['base-url']));
  if (!root.ok) return fail(root.message);

  const file = str(values.request);
  if (!file) return fail('--request is required');

  const apiKey = apiKeyOption(str(values['api-key']), env);
  if (!apiKey.ok) return fail(apiKey.message);

  const seconds: Record<keyof typeof SECONDS, number> = { timeout: 0, 'request-timeout': 0, 'poll-interval': 0 };
  for (const name of Object.keys(SECONDS) as (keyof typeof SECONDS)[]) {
    const { fallback, max } = SECONDS[name];
    const value = secondsOption(name, str(values[name]), fallback, max);
    if (!value.ok) return fail(value.message);
    seconds[name] = value.value;
  }

  let text: string;
  try {
    text = readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(`cannot read ${file}${code ? ` (${code})` : ''}`);
  }
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch (error) {
    return fail(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(request)) return fail(`${file} must hold a JSON object (the release-check request)`);

  const notes: string[] = [];
  if (values['no-source'] !== true && !('source' in request)) {
    const found = sourceFromCi(env, readFile);
    if (found.source) request.source = found.source;
    if (found.said) notes.push(found.said);
  }

  return {
    ok: true,
    options: {
      baseUrl: root.value,
      apiKey: apiKey.value,
      // The service validates the body and answers 400 with each offending field.
      request: request as Schemas['CreateReleaseCheckRequest'],
      timeoutSeconds: seconds.timeout,
      requestTimeoutSeconds: seconds['request-timeout'],
      pollIntervalSeconds: seconds['poll-interval'],
      json: values.json === true,
      githubActions: isGitHubActions(env),
    },
    notes,
  };
}

function fail(message: string): ParsedArgs {
  return { ok: false, message };
}
