import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { prepareDatabase, redact } from '../db/database';
import { ensureLocalServices, type LocalServicesOptions } from './local-services';
import { StartupError } from './startup-error';

export { StartupError };

/** `./data` of the working directory (the project's, under npm start), next to the default ARTIFACT_DIR. */
const DEFAULT_OPTIONS: LocalServicesOptions = { dataDir: 'data', log: (line) => console.log(`vigil: ${line}`) };

function reason(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code ?? message ?? String(error);
}

async function checkRedis(redisUrl: string): Promise<void> {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // ioredis reports the cause (ECONNREFUSED, ENOTFOUND) on 'error' and rejects with a generic message.
  let cause: unknown;
  client.on('error', (error: unknown) => (cause ??= error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw cause ?? error;
  } finally {
    client.disconnect();
  }
}

/**
 * Reaches PostgreSQL (creating the database and migrating it) and Redis before anything else starts; first installs
 * and starts either one that is configured on this machine and not running (see ensureLocalServices).
 */
export async function preflight(config: AppConfig, options: LocalServicesOptions = DEFAULT_OPTIONS): Promise<void> {
  await ensureLocalServices(config, options);
  try {
    await prepareDatabase(config.databaseUrl, config.migrateOnStart);
  } catch (error) {
    throw new StartupError(
      `cannot prepare PostgreSQL at ${redact(config.databaseUrl)} (${reason(error)}): start PostgreSQL or set DATABASE_URL`,
    );
  }
  try {
    await checkRedis(config.redisUrl);
  } catch (error) {
    throw new StartupError(
      `cannot reach Redis at ${redact(config.redisUrl)} (${reason(error)}): start Redis or set REDIS_URL`,
    );
  }
}
