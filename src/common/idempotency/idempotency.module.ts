import { Global, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';

const PRUNE_INTERVAL_MS = 10 * 60_000;

/** Deletes expired keys every ten minutes wherever the API runs (a repeat past 24 hours is never replayed anyway). */
@Injectable()
export class IdempotencyPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyPruner.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: IdempotencyStore) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.prune(), PRUNE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async prune(): Promise<void> {
    try {
      await this.store.prune();
    } catch (error) {
      this.logger.warn({ err: error }, 'could not prune expired idempotency keys');
    }
  }
}

/** `Idempotency-Key` for every route marked `@Idempotent()`. Imported where the HTTP API is served. */
@Global()
@Module({
  providers: [IdempotencyStore, IdempotencyPruner, { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }],
  exports: [IdempotencyStore],
})
export class IdempotencyModule {}
