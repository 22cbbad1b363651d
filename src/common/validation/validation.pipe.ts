import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { FieldError, ValidationFailed } from '../errors/domain-errors';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = /^\d+$/.test(error.property)
      ? `${parent}[${error.property}]`
      : parent
        ? `${parent}.${error.property}`
        : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      // class-validator starts messages with the property name; the field already says it.
      message: message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Body DTOs describe JSON objects; an array or a bare value is refused as a whole, not field by field. */
class RequestValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    if (metadata.type === 'body' && metadata.metatype && value !== undefined && !isObject) {
      throw ValidationFailed.field('body', 'must be a JSON object');
    }
    return super.transform(value, metadata);
  }
}

/**
 * Validates every body, query and path DTO: unknown fields are refused, values are converted only where a field
 * declares it, and failures become one `validation_failed` problem with the first failure of each field.
 */
export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const fieldErrors = flatten(errors);
      return new ValidationFailed(
        fieldErrors.length ? fieldErrors : [{ field: 'body', message: 'must be a JSON object' }],
      );
    },
  });
}
