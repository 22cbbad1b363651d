import { randomBytes } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Setting } from '../db/setting.entity';

export const SESSION_SECRET = Symbol('SESSION_SECRET');

const SETTING_KEY = 'session_signing_secret';

/**
 * The key that signs session tokens: JWT_SECRET when set, otherwise a random one stored in the database on
 * first start, so every instance shares it without configuration.
 */
export const sessionSecretProvider: Provider = {
  provide: SESSION_SECRET,
  inject: [APP_CONFIG, MikroORM],
  useFactory: async (config: AppConfig, orm: MikroORM): Promise<string> => {
    if (config.jwtSecret) return config.jwtSecret;
    const em = orm.em.fork();
    await em
      .createQueryBuilder(Setting)
      .insert({ key: SETTING_KEY, value: randomBytes(48).toString('base64url') })
      .onConflict('key')
      .ignore()
      .execute();
    return (await em.findOneOrFail(Setting, { key: SETTING_KEY })).value;
  },
};
