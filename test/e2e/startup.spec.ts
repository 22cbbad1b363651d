import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { runSource } from '../support/run-source';
import { startTestApp } from '../support/test-app';

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

  /** Starts the service as `npm start` does, until its listening line; answers its output so far and a stop. */
  async function startService(env: Record<string, string>) {
    const child = spawn(process.execPath, ['--require', '@swc-node/register', join(__dirname, '../../src/main.ts')], {
      cwd: join(__dirname, '../..'),
      env: { ...process.env, NODE_OPTIONS: '', PORT: '0', LOG_LEVEL: 'info', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<string | number | null>((resolve) =>
      child.on('close', (code, signal) => resolve(signal ?? code)),
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line:\n${output}`)), 45_000);
      void exited.then((exit) => {
        clearTimeout(timer);
        reject(new Error(`the service ended (${String(exit)}) before listening:\n${output}`));
      });
      child.stdout.on('data', () => {
        if (output.includes('listening on')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    return {
      output: () => output,
      /** Nest closes the app (HTTP server, queues, database, Redis), then re-raises the signal to exit with it. */
      stop: async () => {
        child.kill('SIGTERM');
        return exited;
      },
    };
  }

  it('starts, listens, and shuts down on SIGTERM', async () => {
    const service = await startService({});
    expect(service.output()).toContain(`sign in at http://localhost:0/ as ${process.env.ADMIN_EMAIL}`);
    const exit = await service.stop();
    // The service's own output says why a shutdown went wrong.
    if (exit !== 'SIGTERM')
      throw new Error(`expected an exit by SIGTERM, got ${String(exit)}; the service said:\n${service.output()}`);
  });

  it('closes cleanly at once after it starts, workers and all', async () => {
    // Bull names each worker's blocking Redis connection as it starts taking jobs, and dropped that command's promise:
    // a service closed before Redis answered left 'Connection is closed.' unhandled, which ends a process (and fails
    // a jest test). Three quick starts and closes hit it every time before src/queues/take-jobs.ts.
    const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let attempt = 0; attempt < 3; attempt++) {
      const service = await startTestApp({ ROLE: 'all' });
      await tick(0);
      await service.close();
    }
    await tick(500); // a rejection left unhandled surfaces within this test
  });

  it('on a first start without ADMIN_EMAIL, says once who to sign in as, and nothing to the contrary', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `${url.pathname}_first_${process.pid}`;
    const fresh = { DATABASE_URL: url.href, MIGRATE_ON_START: 'true', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' };
    const service = await startService(fresh);
    try {
      const output = service.output();
      expect(output).toMatch(/sign in as admin@vigil\.local with password \S+ \(shown once/);
      expect(output).toContain('created administrator admin@vigil.local');
      expect(output).not.toContain('set ADMIN_EMAIL and ADMIN_PASSWORD to create the first administrator');
      expect(output).toMatch(
        /listening on http:\/\/localhost:0 .*; sign in at http:\/\/localhost:0\/ as admin@vigil\.local/,
      );
    } finally {
      await service.stop();
      const admin = new Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
