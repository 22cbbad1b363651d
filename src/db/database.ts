import { MikroORM } from '@mikro-orm/postgresql';
import { Client, escapeIdentifier } from 'pg';
import { ormConfig } from './orm.config';

/** Any number that is the same for every instance: replicas starting together take turns migrating. */
const MIGRATION_LOCK_KEY = 0x76_69_67_69; // "vigi"

function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`DATABASE_URL ${redact(databaseUrl)} names no database`);
  return name;
}

/** The URL with any password hidden, for messages. */
export function redact(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = '***';
  return url.toString();
}

function maintenanceUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the database named by the URL when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  await withClient(maintenanceUrl(databaseUrl), async (client) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return;
    try {
      await client.query(`create database ${escapeIdentifier(name)}`);
    } catch (error) {
      // Another instance created it in the meantime.
      if ((error as { code?: string }).code !== '42P04') throw error;
    }
  });
}

/** Applies pending migrations while holding an advisory lock, so concurrent starts migrate once. */
export async function migrate(databaseUrl: string): Promise<string[]> {
  return withClient(databaseUrl, async (lock) => {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const orm = await MikroORM.init(ormConfig(databaseUrl));
    try {
      const applied = (await orm.migrator.up()).map((migration) => migration.name);
      if (applied.length) console.log(`vigil: applied migrations ${applied.join(', ')}`);
      return applied;
    } finally {
      await orm.close(true);
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}

export async function prepareDatabase(databaseUrl: string, runMigrations: boolean): Promise<void> {
  await ensureDatabase(databaseUrl);
  if (runMigrations) await migrate(databaseUrl);
}
