import { randomBytes } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { sharedSetting } from '../db/shared-setting';

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
    return sharedSetting(orm, SETTING_KEY, () => randomBytes(48).toString('base64url'));
  },
};
