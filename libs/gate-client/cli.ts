// The `vigil-gate` command (bin/vigil-gate.js loads the compiled file). Runs on load: do not import it as a library.
import { parseGateArgs, USAGE } from './args';
import { EXIT_CODES, runGate } from './gate';
import { annotation, isGitHubActions } from './github-actions';

async function main(): Promise<number> {
  const parsed = parseGateArgs(process.argv.slice(2), process.env);
  if (!parsed.ok) {
    process.stderr.write(`vigil-gate: ${parsed.message}\n${USAGE}\n`);
    if (isGitHubActions(process.env))
      process.stderr.write(`${annotation('error', `Usage error: ${parsed.message}`)}\n`);
    return EXIT_CODES.usage;
  }
  for (const note of parsed.notes) process.stderr.write(`vigil-gate: ${note}\n`);
  // Lines are written straight away (pipes are synchronous on Linux), so CI sees the check id before the verdict.
  return runGate(parsed.options, {
    stdout: (line) => void process.stdout.write(`${line}\n`),
    stderr: (line) => void process.stderr.write(`${line}\n`),
  });
}

/** Resolves once everything written so far has been handed to the OS, so exiting does not cut output short. */
function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

void main()
  .catch((error: unknown) => {
    process.stderr.write(`vigil-gate: unexpected error: ${String(error)}\n`);
    return EXIT_CODES.requestFailure;
  })
  .then(async (code) => {
    await Promise.all([flush(process.stdout), flush(process.stderr)]);
    process.exit(code);
  });
