import { parseCommandLine, connectionOf, SERVICE_OPTIONS } from './command-line';
import { type CommandContext, PREFIX } from './context';
import { DeclarationApi } from './declaration-api';
import { DECLARATION_EXIT } from './plan';

type Options = Parameters<typeof parseCommandLine>[1];
type Values = Record<string, string | boolean | undefined>;

export type ServiceCommandStart =
  { ok: true; api: DeclarationApi; values: Values; file: string | undefined } | { ok: false; code: number };

/**
 * The start every command that talks to the service shares: its command line (help and usage errors answered
 * here) and a client of the service's declaration endpoints.
 */
export function startServiceCommand(
  argv: string[],
  context: CommandContext,
  spec: { options: Options; file: 'FILE' | null; usage: string },
): ServiceCommandStart {
  const { io } = context;
  const line = parseCommandLine(argv, { ...SERVICE_OPTIONS, ...spec.options }, spec.file);
  if (line.kind === 'help') {
    io.stdout(spec.usage);
    return { ok: false, code: DECLARATION_EXIT.ok };
  }
  const usage = (message: string): ServiceCommandStart => {
    io.stderr(`${PREFIX}: ${message}\n${spec.usage}`);
    return { ok: false, code: DECLARATION_EXIT.usage };
  };
  if (line.kind === 'usage') return usage(line.message);
  const connected = connectionOf(line.values, context.env);
  if (!connected.ok) return usage(connected.message);
  const api = new DeclarationApi({ ...connected.connection, ...(context.fetch ? { fetch: context.fetch } : {}) });
  return { ok: true, api, values: line.values, file: line.file };
}
