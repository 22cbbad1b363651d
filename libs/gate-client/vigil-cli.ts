// The `vigil` command (the package's second bin, next to `vigil-gate`). Runs on load: do not import it as a library.
import { createInterface } from 'node:readline';
import { DECLARATION_EXIT } from './declarations/plan';
import { EXIT_CODES } from './gate';
import { exitWith, processIO } from './process-io';
import { vigilCommand } from './vigil';

/** A yes/no question on the terminal (the prompt on standard error, so it never lands in redirected output). */
function confirm(question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const terminal = createInterface({ input: process.stdin, output: process.stderr });
    let answered = false;
    // Ctrl-C or Ctrl-D is a no.
    terminal.on('SIGINT', () => terminal.close());
    terminal.on('close', () => {
      if (answered) return;
      process.stderr.write('\n');
      resolve(false);
    });
    terminal.question(question, (answer) => {
      answered = true;
      terminal.close();
      resolve(/^(y|yes)$/i.test(answer.trim()));
    });
  });
}

const argv = process.argv.slice(2);
// A bug must never exit with a code that means success; under `vigil gate`, with the gate's own code for it.
const gate = argv[0] === 'gate';
exitWith(
  () => vigilCommand(argv, { env: process.env, io: processIO, confirm: process.stdin.isTTY ? confirm : null }),
  gate ? 'vigil-gate' : 'vigil',
  gate ? EXIT_CODES.requestFailure : DECLARATION_EXIT.error,
);
