import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ type: 'string' })
  field: string;

  @ApiProperty({ type: 'string' })
  message: string;
}

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

  @ApiProperty({ type: 'string' })
  code: string;

  @ApiPropertyOptional({ type: 'string' })
  required_scope?: string;

  @ApiPropertyOptional({ type: () => [FieldErrorDto] })
  errors?: FieldErrorDto[];
}
