import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

const ROOT = join(__dirname, '..', '..');

/** Runs a TypeScript entry point of src/ as the real process would run it (compiled on the fly by swc). */
export function runSource(
  entry: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', '@swc-node/register', join(ROOT, entry), ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
