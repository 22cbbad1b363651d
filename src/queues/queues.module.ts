import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';

/** Bull's connection to Redis. Every queue's keys start with the configured prefix, so runs never collide. */
@Module({})
export class QueuesModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: QueuesModule,
      imports: [
        BullModule.forRoot({
          url: config.redisUrl,
          prefix: config.redisPrefix,
          // A job whose worker died (its lock lapsed) goes back to the queue at the next stalled-job check.
          settings: {
            lockDuration: config.jobLockMs,
            lockRenewTime: config.jobLockMs / 2,
            stalledInterval: config.jobLockMs,
          },
        }),
      ],
      exports: [BullModule],
    };
  }
}
