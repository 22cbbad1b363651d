import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type, type ClassConstructor } from 'class-transformer';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDate,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsNumber,
  IsUUID,
  Length,
  Matches,
  ArrayMaxSize,
  ValidateNested,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  IsBoolean,
  IsObject,
  ValidationOptions,
} from 'class-validator';
import { isValidCssSelector } from '../../../libs/page-check';

/**
 * Composite field decorators: each declares a field's validation, conversion and OpenAPI schema once
 * (the pattern of immich's validation.ts), so the contract and the checks cannot drift apart.
 */

interface FieldOptions {
  optional?: boolean;
  /** `null` is a value of its own (e.g. "remove the keyword"); without this, a `null` is refused like any bad value. */
  nullable?: boolean;
  description?: string;
  /**
   * What the service uses when the field is left out. Stated in the description, never as the schema's `default`:
   * openapi-typescript's defaults make a field with a `default` required in the request type (openapi.yaml says so).
   */
  default?: unknown;
}

function documented(options: FieldOptions, schema: ApiPropertyOptions): PropertyDecorator {
  const stated = options.default === undefined ? null : `Defaults to \`${JSON.stringify(options.default)}\`.`;
  const description = [options.description, stated].filter(Boolean).join(' ');
  const full = {
    ...schema,
    ...(options.nullable ? { nullable: true } : {}),
    ...(description ? { description } : {}),
  };
  return options.optional ? ApiPropertyOptional(full) : ApiProperty(full);
}

function optionality(options: FieldOptions): PropertyDecorator[] {
  if (options.nullable) return [options.optional ? IsOptional() : ValidateIf((_, value) => value !== null)];
  // IsOptional would let `null` through too; an optional field that is not nullable may only be left out.
  return options.optional ? [ValidateIf((_, value) => value !== undefined)] : [];
}

/**
 * Rejects text PostgreSQL cannot store faithfully (NUL) and strings that are not well-formed Unicode
 * (lone surrogates), which JSON.parse lets through.
 */
export function IsStorableText(validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStorableText',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !value.includes('\u0000') && value.isWellFormed(),
        defaultMessage: () => 'must be well-formed Unicode text without NUL characters',
      },
    },
    validationOptions,
  );
}

export function TextField(
  options: FieldOptions & {
    minLength?: number;
    maxLength: number;
    /** A pattern (a regular expression's source, as openapi.yaml writes it) and what to say when text misses it. */
    pattern?: { source: string; message: string };
  },
): PropertyDecorator {
  const minLength = options.minLength ?? 1;
  const { pattern } = options;
  return applyDecorators(
    documented(options, {
      type: 'string',
      minLength,
      maxLength: options.maxLength,
      ...(pattern ? { pattern: pattern.source } : {}),
    }),
    ...optionality(options),
    IsString(),
    IsStorableText(),
    Length(minLength, options.maxLength, { message: `must be ${minLength} to ${options.maxLength} characters long` }),
    ...(pattern ? [Matches(new RegExp(pattern.source), { message: pattern.message })] : []),
  );
}

export function EmailField(options: FieldOptions = {}): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string', format: 'email', maxLength: 254 }),
    ...optionality(options),
    IsString(),
    IsStorableText(),
    Length(3, 254, { message: 'must be 3 to 254 characters long' }),
    IsEmail({}, { message: 'must be an email address' }),
  );
}

export function UuidField(options: FieldOptions = {}): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string', format: 'uuid' }),
    ...optionality(options),
    IsUUID('all', { message: 'must be a UUID' }),
  );
}

/** One value of a named enum (documented as a shared component schema). */
export function EnumField(values: readonly string[], enumName: string, options: FieldOptions = {}): PropertyDecorator {
  return applyDecorators(
    documented(options, { enum: values as string[], enumName }),
    ...optionality(options),
    IsIn(values as string[], { message: `must be one of ${values.join(', ')}` }),
  );
}

/** A non-empty array of distinct values of a named enum. */
export function EnumArrayField(
  values: readonly string[],
  enumName: string,
  options: FieldOptions = {},
): PropertyDecorator {
  return applyDecorators(
    documented(options, { enum: values as string[], enumName, isArray: true, minItems: 1, uniqueItems: true }),
    ...optionality(options),
    IsArray({ message: 'must be an array' }),
    ArrayMinSize(1, { message: 'must hold at least one value' }),
    ArrayUnique((value: unknown) => value, { message: 'must not repeat a value' }),
    IsIn(values as string[], { each: true, message: `each value must be one of ${values.join(', ')}` }),
  );
}

/** true or false; in a query string the words `true` and `false` are converted first. */
export function BooleanField(options: FieldOptions = {}): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'boolean' }),
    ...optionality(options),
    Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean({ message: 'must be true or false' }),
  );
}

/** One validated object of a class. */
export function NestedField<T>(type: () => ClassConstructor<T>, options: FieldOptions = {}): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: () => type() }),
    ...optionality(options),
    IsObject({ message: 'must be an object' }),
    ValidateNested(),
    Type(type),
  );
}

/** A CSS selector that the page parser can run; a selector it cannot is a 400, not a check that always fails. */
export function CssSelectorField(options: FieldOptions & { description?: string } = {}): PropertyDecorator {
  return applyDecorators(
    TextField({ ...options, maxLength: 500 }),
    ValidateBy({
      name: 'isCssSelector',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isValidCssSelector(value),
        defaultMessage: () => 'must be a valid CSS selector',
      },
    }),
  );
}

/** An integer; in a query string it is converted from text first, and anything but digits is refused. */
export function IntField(options: FieldOptions & { min: number; max: number; default?: number }): PropertyDecorator {
  return applyDecorators(
    documented(options, {
      type: 'integer',
      minimum: options.min,
      maximum: options.max,
    }),
    ...optionality(options),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value,
    ),
    IsInt({ message: 'must be a whole number' }),
    Min(options.min, { message: `must be at least ${options.min}` }),
    Max(options.max, { message: `must be at most ${options.max}` }),
  );
}

/** An RFC 3339 timestamp with an explicit offset, converted to a Date. */
export function DateTimeField(options: FieldOptions = {}): PropertyDecorator {
  const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
  return applyDecorators(
    documented(options, { type: 'string', format: 'date-time' }),
    ...optionality(options),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && rfc3339.test(value) && !Number.isNaN(Date.parse(value)) ? new Date(value) : value,
    ),
    IsDate({ message: 'must be an RFC 3339 date-time such as 2027-01-31T12:00:00Z' }),
  );
}

/** A number within a range (JSON numbers only; no conversion from text). */
export function NumberField(options: FieldOptions & { min: number; max: number }): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'number', minimum: options.min, maximum: options.max }),
    ...optionality(options),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number' }),
    Min(options.min, { message: `must be at least ${options.min}` }),
    Max(options.max, { message: `must be at most ${options.max}` }),
  );
}

function isHttpUrlWithoutCredentials(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !!url.hostname;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL without credentials (whether it is public is the service's question, not syntax's). */
export function HttpUrlField(options: FieldOptions = {}): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string', format: 'uri', maxLength: 2048 }),
    ...optionality(options),
    IsString(),
    IsStorableText(),
    ValidateBy({
      name: 'isHttpUrlWithoutCredentials',
      validator: {
        validate: isHttpUrlWithoutCredentials,
        defaultMessage: () => 'must be an absolute http or https URL without credentials',
      },
    }),
  );
}

/** A URL path (with an optional query) that starts with `/`. */
export function UrlPathField(options: FieldOptions = {}): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string', minLength: 1, maxLength: 2048, pattern: '^/(?!/)' }),
    ...optionality(options),
    IsString(),
    IsStorableText(),
    Length(1, 2048, { message: 'must be 1 to 2048 characters long' }),
    ValidateBy({
      name: 'isUrlPath',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.startsWith('/') && !value.startsWith('//'),
        defaultMessage: () => 'must be a path starting with a single /',
      },
    }),
  );
}

/** An array of validated objects of one class. */
export function NestedArrayField<T>(
  itemType: () => ClassConstructor<T>,
  options: FieldOptions & { minItems: number; maxItems: number },
): PropertyDecorator {
  return applyDecorators(
    documented(options, {
      type: () => [itemType()],
      ...(options.minItems ? { minItems: options.minItems } : {}),
      maxItems: options.maxItems,
    }),
    ...optionality(options),
    IsArray({ message: 'must be an array' }),
    ArrayMinSize(options.minItems, { message: `must hold at least ${options.minItems} item(s)` }),
    ArrayMaxSize(options.maxItems, { message: `must hold at most ${options.maxItems} items` }),
    ValidateNested({ each: true }),
    Type(itemType),
  );
}

/** An array of short strings. */
export function TextArrayField(
  options: FieldOptions & { maxItems: number; maxLength: number; minItems?: number; unique?: boolean },
): PropertyDecorator {
  const minItems = options.minItems ?? 0;
  return applyDecorators(
    documented(options, {
      type: 'array',
      ...(minItems ? { minItems } : {}),
      maxItems: options.maxItems,
      ...(options.unique ? { uniqueItems: true } : {}),
      items: { type: 'string', minLength: 1, maxLength: options.maxLength },
    }),
    ...optionality(options),
    IsArray({ message: 'must be an array' }),
    ...(minItems ? [ArrayMinSize(minItems, { message: `must hold at least ${minItems} item(s)` })] : []),
    ...(options.unique ? [ArrayUnique((value: unknown) => value, { message: 'must not repeat a value' })] : []),
    ArrayMaxSize(options.maxItems, { message: `must hold at most ${options.maxItems} items` }),
    IsString({ each: true, message: 'each value must be a string' }),
    IsStorableText({ each: true }),
    Length(1, options.maxLength, {
      each: true,
      message: `each value must be 1 to ${options.maxLength} characters long`,
    }),
  );
}
