import { Global, Injectable, Logger, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { BackgroundPasses } from '../background/background-passes';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';

const PRUNE_INTERVAL_MS = 10 * 60_000;

/** Deletes expired keys every ten minutes wherever the API runs (a repeat past 24 hours is never replayed anyway). */
@Injectable()
export class IdempotencyPruner {
  constructor(store: IdempotencyStore, passes: BackgroundPasses) {
    passes.every(
      new Logger(IdempotencyPruner.name),
      { name: 'idempotency-pruner', what: 'prune expired idempotency keys', everyMs: PRUNE_INTERVAL_MS },
      () => store.prune(),
    );
  }
}

/** `Idempotency-Key` for every route marked `@Idempotent()`. Imported where the HTTP API is served. */
@Global()
@Module({
  providers: [IdempotencyStore, IdempotencyPruner, { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }],
  exports: [IdempotencyStore],
})
export class IdempotencyModule {}
