import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { PROBLEM_CODES, type ProblemCode } from './domain-errors';

export class FieldErrorDto {
  @ApiProperty({ type: 'string' })
  field: string;

  @ApiProperty({ type: 'string' })
  message: string;
}

/** Every code the service sends, in the registry's order (a test compares them with openapi.yaml's enum). */
export const PROBLEM_CODE_VALUES = Object.keys(PROBLEM_CODES) as ProblemCode[];

/** RFC 9457 problem details, as every error response carries them. */
export class ProblemDto {
  @ApiProperty({ type: 'string' })
  type: string;

  @ApiProperty({ type: 'string' })
  title: string;

  @ApiProperty({ type: 'integer' })
  status: number;

  @ApiPropertyOptional({ type: 'string' })
  detail?: string;

  @ApiPropertyOptional({ type: 'string' })
  instance?: string;

  @ApiProperty({ enum: PROBLEM_CODE_VALUES, enumName: 'ProblemCode' })
  code: ProblemCode;

  @ApiPropertyOptional({ type: 'string' })
  required_scope?: string;

  @ApiPropertyOptional({ type: () => [FieldErrorDto] })
  errors?: FieldErrorDto[];
}

/** A 400: always names each offending field. */
export class ValidationProblemDto extends OmitType(ProblemDto, ['errors'] as const) {
  @ApiProperty({ type: () => [FieldErrorDto] })
  errors: FieldErrorDto[];
}

/** A 403: always names the scope or permission the credentials lack. */
export class ForbiddenProblemDto extends OmitType(ProblemDto, ['required_scope'] as const) {
  @ApiProperty({ type: 'string' })
  required_scope: string;
}
