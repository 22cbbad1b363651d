import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { Redis } from 'ioredis';
import { Client, escapeIdentifier } from 'pg';
import { isRunName } from './test-environment';

/** Drops the run's database and every test file's copy of it, the run's Redis keys and its temporary folder. */
export default async function globalTeardown(): Promise<void> {
  const { DATABASE_URL, REDIS_URL, REDIS_PREFIX, TMPDIR } = process.env;
  if (TMPDIR && isRunName(basename(TMPDIR))) rmSync(TMPDIR, { recursive: true, force: true, maxRetries: 3 });
  if (DATABASE_URL) await dropRunDatabases(DATABASE_URL);
  if (REDIS_URL && isRunName(REDIS_PREFIX)) {
    const redis = new Redis(REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}:*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
  }
}

async function dropRunDatabases(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const run = decodeURIComponent(url.pathname.slice(1));
  if (!isRunName(run)) return;
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname = $1 or datname like $2`,
      [run, `${run}\\_%`],
    );
    for (const { datname } of rows)
      await client.query(`drop database if exists ${escapeIdentifier(datname)} with (force)`);
  } finally {
    await client.end();
  }
}
