import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { FILE_REDIS_PREFIX } from './test-app';

/** The real service as a worker process of its own (compiled on the fly), in its own process group with its browser. */
export function startWorkerProcess(env: Record<string, string>): { kill(): void; output(): string } {
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    ['--require', '@swc-node/register', join(__dirname, '..', '..', 'src', 'main.ts')],
    {
      cwd: join(__dirname, '..', '..'),
      env: { ...process.env, NODE_OPTIONS: '', ROLE: 'worker', REDIS_PREFIX: FILE_REDIS_PREFIX, ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    kill: () => {
      // The whole group: the Node process and the Chromium it launched, at once, as a crash would.
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    },
    output: () => output,
  };
}
