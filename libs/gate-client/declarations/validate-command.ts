import { type CommandContext, PREFIX, readText } from './context';
import { parseCommandLine } from './command-line';
import { declarationSchema } from './declaration-schema';
import { readDeclarationFile } from './declaration-file';
import { documentPath } from './document-path';
import { DECLARATION_EXIT } from './plan';
import { VALIDATE_USAGE } from './usage';
import { declarationValidator } from './validate';

/** `vigil validate FILE`: the file against the declaration format, offline. */
export function validateCommand(argv: string[], context: CommandContext): Promise<number> {
  const { io } = context;
  const line = parseCommandLine(argv, {}, 'FILE');
  if (line.kind === 'help') {
    io.stdout(VALIDATE_USAGE);
    return Promise.resolve(DECLARATION_EXIT.ok);
  }
  if (line.kind === 'usage') {
    io.stderr(`${PREFIX}: ${line.message}\n${VALIDATE_USAGE}`);
    return Promise.resolve(DECLARATION_EXIT.usage);
  }
  const file = line.file!;
  const read = readDeclarationFile(file, (path) => readText(context, path));
  if (!read.ok) {
    if (read.kind === 'unreadable') {
      io.stderr(`${PREFIX}: ${read.message}`);
      return Promise.resolve(DECLARATION_EXIT.usage);
    }
    io.stdout(read.message);
    return Promise.resolve(DECLARATION_EXIT.error);
  }
  const errors = declarationValidator(declarationSchema())(read.source.document)
    .map((error) => ({ ...error, line: read.source.lineOf(error.path) }))
    // In the file's order, as an editor lists problems.
    .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
  for (const error of errors) {
    io.stdout(`${file}${error.line ? `:${error.line}` : ''}: ${documentPath(error.path)}: ${error.message}`);
  }
  if (errors.length) {
    io.stdout(`${errors.length} error${errors.length === 1 ? '' : 's'}: ${file} is not a valid declaration.`);
    return Promise.resolve(DECLARATION_EXIT.error);
  }
  io.stdout(`${file} matches the declaration format (\`vigil plan\` also checks what its keys refer to).`);
  return Promise.resolve(DECLARATION_EXIT.ok);
}
