import { applyCommand } from './declarations/apply-command';
import type { CommandContext } from './declarations/context';
import { exportCommand } from './declarations/export-command';
import { DECLARATION_EXIT } from './declarations/plan';
import { planCommand } from './declarations/plan-command';
import { VIGIL_USAGE } from './declarations/usage';
import { validateCommand } from './declarations/validate-command';
import { gateCommand } from './gate-command';

const COMMANDS: Record<string, (argv: string[], context: CommandContext) => Promise<number>> = {
  validate: validateCommand,
  plan: planCommand,
  apply: applyCommand,
  export: exportCommand,
  // The gate keeps its own arguments, messages and exit codes (0 passed … 4 usage error).
  gate: (argv, context) => gateCommand(argv, context.env, context.io),
};

/** `vigil COMMAND ARGS`: the declaration commands and the gate, in one executable. */
export function vigilCommand(argv: string[], context: CommandContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    const about = rest[0] && rest[0] !== 'gate' ? COMMANDS[rest[0]] : undefined;
    if (about) return about(['--help'], context);
    context.io.stdout(VIGIL_USAGE);
    return Promise.resolve(DECLARATION_EXIT.ok);
  }
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    context.io.stderr(`vigil: ${name === undefined ? 'a command is required' : `unknown command: ${name}`}`);
    context.io.stderr(VIGIL_USAGE);
    return Promise.resolve(DECLARATION_EXIT.usage);
  }
  return command(rest, context);
}
