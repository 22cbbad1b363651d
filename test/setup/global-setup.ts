import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { prepareDatabase } from '../../src/db/database';
import { newRunEnvironment } from './test-environment';

/** Each run gets its own database (migrated once here), its own Redis key prefix and its own temporary folder. */
export default async function globalSetup(): Promise<void> {
  const environment = newRunEnvironment();
  mkdirSync(environment.TMPDIR);
  Object.assign(process.env, environment);
  await prepareDatabase(environment.DATABASE_URL, true);
}
