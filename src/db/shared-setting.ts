import type { MikroORM } from '@mikro-orm/postgresql';
import { Setting } from './setting.entity';

/**
 * A service-wide value every instance must share, made by the first instance that asks (`make`) and read by all the
 * others: the insert that loses the race is ignored, and everyone reads the winner's.
 */
export async function sharedSetting(orm: MikroORM, key: string, make: () => string): Promise<string> {
  const em = orm.em.fork();
  await em.createQueryBuilder(Setting).insert({ key, value: make() }).onConflict('key').ignore().execute();
  return (await em.findOneOrFail(Setting, { key })).value;
}
