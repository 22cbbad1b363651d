import { type CommandContext, PREFIX, writeText } from './context';
import { DECLARATION_EXIT } from './plan';
import { reportFailure } from './prepared-document';
import { startServiceCommand } from './service-command';
import { EXPORT_USAGE } from './usage';

/** `vigil export`: the workspace as a declaration, YAML by default; secrets come as `${ENV}` placeholders. */
export async function exportCommand(argv: string[], context: CommandContext): Promise<number> {
  const { io } = context;
  const start = startServiceCommand(argv, context, {
    options: { yaml: { type: 'boolean' }, json: { type: 'boolean' }, out: { type: 'string' } },
    file: null,
    usage: EXPORT_USAGE,
  });
  if (!start.ok) return start.code;
  const { api, values } = start;
  if (values.yaml === true && values.json === true) {
    io.stderr(`${PREFIX}: --yaml or --json, not both\n${EXPORT_USAGE}`);
    return DECLARATION_EXIT.usage;
  }
  const format = values.json === true ? 'json' : 'yaml';
  const exported = await api.export(format);
  if (!exported.ok) {
    reportFailure(context, exported);
    return DECLARATION_EXIT.error;
  }
  let text = exported.value;
  if (format === 'json') {
    try {
      text = `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
    } catch {
      io.stderr(`${PREFIX}: malformed response: the export is not JSON`);
      return DECLARATION_EXIT.error;
    }
  }
  const out = typeof values.out === 'string' ? values.out : undefined;
  if (!out) {
    io.stdout(text.replace(/\n$/, ''));
    return DECLARATION_EXIT.ok;
  }
  try {
    writeText(context, out, text.endsWith('\n') ? text : `${text}\n`);
  } catch (error) {
    io.stderr(`${PREFIX}: cannot write ${out}: ${error instanceof Error ? error.message : String(error)}`);
    return DECLARATION_EXIT.error;
  }
  io.stderr(`${PREFIX}: wrote the declaration to ${out}`);
  return DECLARATION_EXIT.ok;
}
