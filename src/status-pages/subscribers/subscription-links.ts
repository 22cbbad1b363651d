import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { sharedSetting } from '../../db/shared-setting';

/** What a link lets its holder do. */
export type LinkPurpose = 'confirm' | 'unsubscribe';

const SETTING_KEY = 'subscription_link_secret';

/**
 * Signed, stateless links for subscribers: `sub_<id>.<purpose>.<HMAC>`, so a confirmation or one-click unsubscribe
 * needs nothing stored and cannot be forged for another subscriber or purpose. The key is shared by every instance
 * through the database, made on first use.
 */
@Injectable()
export class SubscriptionLinks {
  private key?: Promise<string>;

  constructor(
    private readonly orm: MikroORM,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async token(subscriberId: string, purpose: LinkPurpose): Promise<string> {
    return `sub_${subscriberId}.${purpose}.${await this.signature(subscriberId, purpose)}`;
  }

  /** The subscriber a token was signed for with this purpose, or null for any other text. */
  async subscriberOf(token: string, purpose: LinkPurpose): Promise<string | null> {
    const match = /^sub_([0-9a-f-]{36})\.(confirm|unsubscribe)\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match || match[2] !== purpose) return null;
    const expected = Buffer.from(await this.signature(match[1], purpose));
    const given = Buffer.from(match[3]);
    return given.length === expected.length && timingSafeEqual(given, expected) ? match[1] : null;
  }

  /** The address of a link on the page for people (absolute on PUBLIC_URL when the service has one). */
  async url(slug: string, subscriberId: string, purpose: LinkPurpose): Promise<string> {
    const token = await this.token(subscriberId, purpose);
    return `${this.config.publicUrl ?? ''}/status/${slug}/${purpose}?token=${token}`;
  }

  pageUrl(slug: string): string {
    return `${this.config.publicUrl ?? ''}/status/${slug}`;
  }

  private async signature(subscriberId: string, purpose: LinkPurpose): Promise<string> {
    // A failed first read is not kept: the next link asks the database again.
    this.key ??= sharedSetting(this.orm, SETTING_KEY, () => randomBytes(32).toString('base64url')).catch(
      (error: unknown) => {
        this.key = undefined;
        throw error;
      },
    );
    return createHmac('sha256', await this.key)
      .update(`${subscriberId}.${purpose}`)
      .digest('base64url');
  }
}
