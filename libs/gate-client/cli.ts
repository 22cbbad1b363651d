// The `vigil-gate` command (bin/vigil-gate.js loads the compiled file). Runs on load: do not import it as a library.
import { EXIT_CODES } from './gate';
import { gateCommand } from './gate-command';
import { exitWith, processIO } from './process-io';

exitWith(() => gateCommand(process.argv.slice(2), process.env, processIO), 'vigil-gate', EXIT_CODES.requestFailure);
