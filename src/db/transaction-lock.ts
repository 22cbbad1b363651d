import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A PostgreSQL advisory lock on `name`, held until the transaction `em` is in ends: callers naming the same lock take
 * turns. Outside a transaction the lock would end with its own statement, so that is refused.
 */
export async function lockUntilCommit(em: EntityManager, name: string): Promise<void> {
  if (!em.isInTransaction()) throw new Error(`the lock "${name}" is taken in the transaction it guards`);
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [name]);
}
