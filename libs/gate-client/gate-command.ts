import { parseGateArgs, USAGE } from './args';
import { EXIT_CODES, runGate } from './gate';
import { annotation, isGitHubActions } from './github-actions';
import type { LineIO } from './process-io';

/** `vigil-gate ARGS` and `vigil gate ARGS`: the same arguments, output and exit codes. */
export async function gateCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  io: LineIO,
): Promise<number> {
  const parsed = parseGateArgs(argv, env);
  if (!parsed.ok) {
    io.stderr(`vigil-gate: ${parsed.message}\n${USAGE}`);
    if (isGitHubActions(env)) io.stderr(annotation('error', `Usage error: ${parsed.message}`));
    return EXIT_CODES.usage;
  }
  for (const note of parsed.notes) io.stderr(`vigil-gate: ${note}`);
  return runGate(parsed.options, io);
}
