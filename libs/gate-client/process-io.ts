/** Where a command writes its lines (no newline included); must not buffer, so CI sees each line as it happens. */
export interface LineIO {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/** The process's own streams; lines are written straight away (pipes are synchronous on Linux). */
export const processIO: LineIO = {
  stdout: (line) => void process.stdout.write(`${line}\n`),
  stderr: (line) => void process.stderr.write(`${line}\n`),
};

/** Resolves once everything written so far has been handed to the OS, so exiting does not cut output short. */
function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * Runs a command's main function and exits with its code once the output is out. An exception is a bug: it is
 * reported as `<name>: unexpected error` and exits with `failureCode`, never with a code that means success.
 */
export function exitWith(main: () => Promise<number>, name: string, failureCode: number): void {
  void main()
    .catch((error: unknown) => {
      process.stderr.write(`${name}: unexpected error: ${String(error)}\n`);
      return failureCode;
    })
    .then(async (code) => {
      await Promise.all([flush(process.stdout), flush(process.stderr)]);
      process.exit(code);
    });
}
