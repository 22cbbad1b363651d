import { randomBytes } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { sharedSetting } from '../../db/shared-setting';
import { openText, sealText } from './sealed-text';

const SETTING_KEY = 'credential_encryption_key';

/**
 * Seals the credentials the service must use but never show (code-host private keys and tokens), each bound to the
 * row it belongs to. The key is SECRETS_KEY when set, otherwise a random one stored in the database on first start,
 * so every instance shares it without configuration.
 */
export class CredentialBox {
  constructor(private readonly key: Buffer) {}

  seal(credential: string, ownerId: string): string {
    return sealText(this.key, credential, ownerId);
  }

  open(sealed: string, ownerId: string): string {
    return openText(this.key, sealed, ownerId);
  }
}

export const credentialBoxProvider: Provider = {
  provide: CredentialBox,
  inject: [APP_CONFIG, MikroORM],
  useFactory: async (config: AppConfig, orm: MikroORM): Promise<CredentialBox> => {
    if (config.secretsKey) return new CredentialBox(config.secretsKey);
    const stored = await sharedSetting(orm, SETTING_KEY, () => randomBytes(32).toString('base64'));
    return new CredentialBox(Buffer.from(stored, 'base64'));
  },
};
