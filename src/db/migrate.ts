// `npm run migrate`: applies pending migrations, for deploys that set MIGRATE_ON_START=false.
import 'reflect-metadata';
import { loadConfig } from '../config/app-config';
import { ensureDatabase, migrate, redact } from './database';

async function main(): Promise<void> {
  const { databaseUrl } = loadConfig();
  await ensureDatabase(databaseUrl);
  const applied = await migrate(databaseUrl);
  if (!applied.length) console.log(`vigil: no pending migrations for ${redact(databaseUrl)}`);
}

main().catch((error: unknown) => {
  console.error(`vigil: migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
