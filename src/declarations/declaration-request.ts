import {
  type ArgumentMetadata,
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
  type PipeTransform,
} from '@nestjs/common';
import { ApiExtraModels, ApiOperation, type ApiOperationOptions, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import type { Request } from 'express';
import { parse, YAMLError } from 'yaml';
import { ValidationFailed } from '../common/errors/domain-errors';
import { createValidationPipe } from '../common/validation/validation.pipe';
import { DeclarationDto } from './dto/declaration.dto';

/** The media types a declaration may be sent as YAML with (the registered one first). */
export const YAML_MEDIA_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];
/** The request's options that a YAML body, being the document itself, carries in the query instead. */
const QUERY_OPTIONS = ['prune', 'fingerprint'] as const;

function yamlDocument(text: string): unknown {
  try {
    // The core schema: plain data only; aliases are bounded by the library's default (no "billion laughs").
    return parse(text, { schema: 'core', uniqueKeys: true });
  } catch (error) {
    if (!(error instanceof YAMLError)) throw error;
    throw ValidationFailed.field('body', `is not valid YAML: ${error.message.split('\n')[0]}`);
  }
}

function queryOption(name: string, value: unknown): unknown {
  if (name !== 'prune') return value;
  return value === 'true' ? true : value === 'false' ? false : value;
}

/**
 * DESIGN's declaration wire: a JSON body `{document, prune?, fingerprint?}`, or a YAML body that is the document
 * itself with `prune` and `fingerprint` as query parameters. Either way a route gets the one JSON request shape,
 * validated as a body. An option is given in one place: with a JSON body the query may not carry it.
 */
function requestOf(request: Request): unknown {
  const query = request.query as Record<string, unknown>;
  const given = QUERY_OPTIONS.filter((name) => query[name] !== undefined);
  if (typeof request.body === 'string' && request.is(YAML_MEDIA_TYPES)) {
    const options = Object.fromEntries(given.map((name) => [name, queryOption(name, query[name])]));
    return { document: yamlDocument(request.body), ...options };
  }
  if (given.length) {
    throw ValidationFailed.field(given[0], 'is a query parameter only with a YAML body; a JSON body carries it');
  }
  const body: unknown = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ValidationFailed.field('body', 'must be a JSON object, or a YAML document sent as application/yaml');
  }
  return body;
}

/** Validates the request as the body DTO it is declared as (a custom parameter is otherwise left alone). */
class AsBody implements PipeTransform {
  private readonly pipe = createValidationPipe();

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    return this.pipe.transform(value, { ...metadata, type: 'body' });
  }
}

const DeclarationRequestParam = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  requestOf(context.switchToHttp().getRequest<Request>()),
);

/** A handler's parameter: the declaration request, from a JSON or a YAML body (`requestOf`). */
export const DeclarationRequest = (): ParameterDecorator => DeclarationRequestParam(new AsBody());

/**
 * A declaration operation, documented with the two ways its request is sent: the JSON request `type`, or the
 * document as YAML with the options in the query (`fingerprint` only where the request takes one).
 */
export function ApiDeclarationOperation(
  operation: ApiOperationOptions,
  type: new () => object,
  options: { fingerprint: boolean },
): MethodDecorator {
  const yamlOnly = 'Only with a YAML body (the document itself); a JSON body carries it as a field.';
  return applyDecorators(
    ApiExtraModels(type, DeclarationDto),
    ApiOperation({
      ...operation,
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: getSchemaPath(type) } },
          'application/yaml': { schema: { $ref: getSchemaPath(DeclarationDto) } },
        },
      },
    }),
    ApiQuery({ name: 'prune', required: false, type: Boolean, description: yamlOnly }),
    ...(options.fingerprint
      ? [ApiQuery({ name: 'fingerprint', required: false, type: String, description: yamlOnly })]
      : []),
  );
}
