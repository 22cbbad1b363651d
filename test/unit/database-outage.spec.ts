import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DriverException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { Client } from 'pg';
import { isDatabaseUnavailable, whenDatabaseAnswers } from '../../src/db/database-outage';

/** What node-postgres rejects with when nothing listens where the database should be. */
async function refusedConnection(): Promise<Error> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const client = new Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/vigil` });
  return client.connect().then(
    () => {
      throw new Error('connected to a closed port');
    },
    (error: Error) => error,
  );
}

/** A server error as node-postgres reports it: the SQLSTATE in `code`. */
function serverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

describe('a database that is away', () => {
  it('is told from a statement that failed, as node-postgres and MikroORM report either', async () => {
    const refused = await refusedConnection();
    expect(isDatabaseUnavailable(refused)).toBe(true);
    // MikroORM wraps driver errors and keeps their code.
    expect(isDatabaseUnavailable(new DriverException(refused))).toBe(true);
    expect(isDatabaseUnavailable(serverError('57P01', 'terminating connection due to administrator command'))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(serverError('57P03', 'the database system is starting up'))).toBe(true);
    expect(isDatabaseUnavailable(serverError('08006', 'connection failure'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('query failed', { cause: refused }))).toBe(true);

    const duplicate = serverError('23505', 'duplicate key value violates unique constraint');
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    expect(isDatabaseUnavailable(new UniqueConstraintViolationException(duplicate))).toBe(false);
    expect(isDatabaseUnavailable(serverError('42601', 'syntax error at or near "selec"'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Monitor not found'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });

  it('is waited for: the work runs again until the database answers, and any other failure is thrown at once', async () => {
    const refused = await refusedConnection();
    let runs = 0;
    const waits: unknown[] = [];
    const answer = await whenDatabaseAnswers(
      () => {
        runs += 1;
        return runs < 4 ? Promise.reject(refused) : Promise.resolve('recorded');
      },
      { onWait: (error) => waits.push(error) },
    );
    expect(answer).toBe('recorded');
    expect(runs).toBe(4);
    // Told once, when the waiting began.
    expect(waits).toEqual([refused]);

    runs = 0;
    const duplicate = serverError('23505', 'duplicate key value violates unique constraint');
    await expect(
      whenDatabaseAnswers(() => {
        runs += 1;
        return Promise.reject(duplicate);
      }),
    ).rejects.toBe(duplicate);
    expect(runs).toBe(1);
  });

  it('is waited for no longer than the limit: then the failure is thrown, for the job to fail visibly', async () => {
    const refused = await refusedConnection();
    const started = Date.now();
    let runs = 0;
    await expect(
      whenDatabaseAnswers(
        () => {
          runs += 1;
          return Promise.reject(refused);
        },
        { waitMs: 1000 },
      ),
    ).rejects.toBe(refused);
    // Pauses of 250 and 500 ms fit in the second; the next (1 s) would not.
    expect(runs).toBe(3);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
