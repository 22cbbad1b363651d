import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** The shared Redis connection for rate limits and counters (Bull keeps connections of its own). */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  readonly client: Redis;
  /** Every key this service writes starts with this, e.g. `vigil:ratelimit:...`. */
  readonly prefix: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // Commands of concurrent requests (a rate limit each) go out together, one socket write for many.
    this.client = new Redis(config.redisUrl, {
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      enableAutoPipelining: true,
    });
    this.prefix = config.redisPrefix;
  }

  key(...parts: string[]): string {
    return [this.prefix, ...parts].join(':');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

@Global()
@Module({ providers: [RedisService], exports: [RedisService] })
export class RedisModule {}
