import 'reflect-metadata';
import { prepareDatabase } from '../../src/db/database';
import { newRunEnvironment } from './test-environment';

/** Each run gets its own database (migrated once here) and its own Redis key prefix. */
export default async function globalSetup(): Promise<void> {
  const environment = newRunEnvironment();
  Object.assign(process.env, environment);
  await prepareDatabase(environment.DATABASE_URL, true);
}
