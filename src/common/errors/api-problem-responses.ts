import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ProblemDto } from './problem.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid; `errors` names each offending field.',
  401: 'The API key or session is missing, unknown, expired or revoked.',
  403: 'The credentials lack the scope or permission named in `required_scope`.',
  404: 'No such resource, or it belongs to someone else.',
  409: "The request conflicts with the resource's current state; `code` says how.",
  413: 'The request body is larger than 1 MiB.',
  422: 'The request cannot be processed as sent; `code` says why.',
  429: 'The rate limit is spent; retry after `Retry-After` seconds.',
};

/** Documents problem-details answers for the given statuses. */
export function ApiProblemResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDto),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status] ?? 'See `code`.',
        content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemDto) } } },
      }),
    ),
  );
}
