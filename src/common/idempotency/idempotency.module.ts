import { BeforeApplicationShutdown, Global, Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { SchedulerRegistry } from '@nestjs/schedule';
import { RepeatingPass } from '../background/repeating-pass';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';

const PRUNE_INTERVAL_MS = 10 * 60_000;

/** Deletes expired keys every ten minutes wherever the API runs (a repeat past 24 hours is never replayed anyway). */
@Injectable()
export class IdempotencyPruner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly pass: RepeatingPass;

  constructor(store: IdempotencyStore, registry: SchedulerRegistry) {
    this.pass = new RepeatingPass(
      registry,
      new Logger(IdempotencyPruner.name),
      { name: 'idempotency-pruner', what: 'prune expired idempotency keys', everyMs: PRUNE_INTERVAL_MS },
      () => store.prune(),
    );
  }

  onApplicationBootstrap(): void {
    this.pass.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.pass.stop();
  }
}

/** `Idempotency-Key` for every route marked `@Idempotent()`. Imported where the HTTP API is served. */
@Global()
@Module({
  providers: [IdempotencyStore, IdempotencyPruner, { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }],
  exports: [IdempotencyStore],
})
export class IdempotencyModule {}
