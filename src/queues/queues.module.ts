import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';

/** Bull's connection to Redis. Every queue's keys start with the configured prefix, so runs never collide. */
@Module({})
export class QueuesModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: QueuesModule,
      imports: [BullModule.forRoot({ url: config.redisUrl, prefix: config.redisPrefix })],
      exports: [BullModule],
    };
  }
}
