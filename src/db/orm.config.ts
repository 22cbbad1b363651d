import { join } from 'node:path';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export function ormConfig(databaseUrl: string): Options {
  return defineConfig({
    clientUrl: databaseUrl,
    entities: ENTITIES,
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    forceUtcTimezone: true,
    pool: { min: 0, max: 10 },
    migrations: {
      tableName: 'mikro_orm_migrations',
      // Listed rather than discovered, for the same reason as ENTITIES; `migration:create` writes here.
      migrationsList: MIGRATIONS,
      pathTs: join(__dirname, 'migrations'),
      path: join(__dirname, 'migrations'),
      emit: 'ts',
      snapshot: true,
      snapshotName: '.snapshot-vigil',
      // The snapshot is written by `migration:create` only: applying migrations (at start, in tests) must never
      // rewrite a file of the source tree from what it finds in the database.
      snapshotOnMigrate: false,
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
  });
}
