import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { runSource } from '../support/run-source';

/** What an operator sees when the service cannot start: one line saying what and how to fix it, no stack. */
describe('starting the service', () => {
  function expectOneLine(stderr: string, text: string): void {
    const lines = stderr.split('\n').filter((line) => line.trim() && !/ExperimentalWarning|trace-warnings/.test(line));
    expect(lines).toEqual([expect.stringContaining(text)]);
    expect(stderr).not.toMatch(/\n\s+at /);
  }

  it('stops with one line on a bad setting', async () => {
    const result = await runSource('src/main.ts', [], { ROLE: 'web' });
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, 'vigil: configuration error: ROLE="web" must be one of api, worker, scheduler, all');
  });

  it('stops with one line when PostgreSQL cannot be reached', async () => {
    const result = await runSource('src/main.ts', [], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/vigil' });
    expect(result.code).toBe(1);
    expectOneLine(
      result.stderr,
      'vigil: cannot prepare PostgreSQL at postgres://postgres@127.0.0.1:1/vigil (ECONNREFUSED): start PostgreSQL or set DATABASE_URL',
    );
  });

  it('stops with one line when Redis cannot be reached', async () => {
    const result = await runSource('src/main.ts', [], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(result.code).toBe(1);
    expectOneLine(
      result.stderr,
      'vigil: cannot reach Redis at redis://127.0.0.1:1 (ECONNREFUSED): start Redis or set REDIS_URL',
    );
  });

  it('starts, listens, and shuts down on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--require', '@swc-node/register', join(__dirname, '../../src/main.ts')], {
      cwd: join(__dirname, '../..'),
      env: { ...process.env, NODE_OPTIONS: '', PORT: '0', LOG_LEVEL: 'info' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line:\n${output}`)), 45_000);
      child.stdout.on('data', () => {
        if (output.includes('listening on')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect(output).toContain(`sign in at http://localhost:0/ as ${process.env.ADMIN_EMAIL}`);
    // Nest closes the app (HTTP server, queues, database, Redis), then re-raises the signal to exit with it.
    const exited = new Promise<string | number | null>((resolve) =>
      child.on('close', (code, signal) => resolve(signal ?? code)),
    );
    child.kill('SIGTERM');
    const exit = await exited;
    // The service's own output says why a shutdown went wrong.
    if (exit !== 'SIGTERM')
      throw new Error(`expected an exit by SIGTERM, got ${String(exit)}; the service said:\n${output}`);
  });
});
