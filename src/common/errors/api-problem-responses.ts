import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ForbiddenProblemDto, ProblemDto, ValidationProblemDto } from './problem.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid; `errors` names each offending field.',
  401: 'The API key or session is missing, unknown, expired or revoked.',
  403: 'The credentials lack the scope or permission named in `required_scope`.',
  404: 'No such resource, or it belongs to someone else.',
  409: "The request conflicts with the resource's current state; `code` says how.",
  413: 'The request body is larger than 1 MiB.',
  415: 'The request body is not UTF-8 JSON (another charset or content encoding).',
  422: 'The request cannot be processed as sent; `code` says why.',
  429: 'The rate limit is spent; retry after `Retry-After` seconds.',
  500: 'Something failed on the service side; the problem names no internals.',
};

/** The body each status carries: a 400 always lists `errors`, a 403 always names `required_scope`. */
const SCHEMAS: Partial<Record<number, typeof ProblemDto>> = { 400: ValidationProblemDto, 403: ForbiddenProblemDto };

/**
 * Documents problem-details answers for the given statuses. A route that reads a body (it lists 413) can also be
 * refused with 415 by the same body parser, so 413 brings 415 along.
 */
export function ApiProblemResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  const all = statuses.includes(413) && !statuses.includes(415) ? [...statuses, 415] : statuses;
  return applyDecorators(
    ApiExtraModels(ProblemDto, ValidationProblemDto, ForbiddenProblemDto),
    ...all.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status] ?? 'See `code`.',
        content: {
          'application/problem+json': { schema: { $ref: getSchemaPath(SCHEMAS[status] ?? ProblemDto) } },
        },
      }),
    ),
  );
}
