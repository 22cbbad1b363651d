import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiProblemResponses } from '../errors/api-problem-responses';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from './idempotency-key';

export const IDEMPOTENT = 'vigil:idempotent';

/**
 * The route accepts `Idempotency-Key` (spec: DESIGN §2): a retry with the same key and request answers the first
 * response again. Put it on every POST that creates something; the global IdempotencyInterceptor does the work. Also
 * documents the header and its 400, 409 (`idempotency_key_in_flight`) and 422 (`idempotency_key_reused`) answers.
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN },
    }),
    ApiProblemResponses(400, 409, 422),
  );
}
