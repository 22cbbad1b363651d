export { Idempotent } from './idempotent.decorator';
export { IdempotencyModule } from './idempotency.module';
export { IDEMPOTENCY_HEADER } from './idempotency-key';
