import { ApiProperty, PickType } from '@nestjs/swagger';
import { ChangeDto } from '../changes/dto/change.dto';
import { DateTimeField, EnumField, IntField, UuidField } from '../common/validation/fields';
import { TrackedValueDto } from '../monitors/dto/monitor.dto';

export const EXPORT_FORMATS = ['json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const DEFAULT_EXPORT_LIMIT = 10_000;

export class ExportQuery {
  @EnumField(EXPORT_FORMATS, 'ExportFormat', {
    optional: true,
    description: '`json` (the default) or `csv`, streamed as an attachment.',
  })
  format?: ExportFormat;

  @DateTimeField({
    optional: true,
    description: 'Only rows from this time on (RFC 3339); the last 30 days by default.',
  })
  since?: Date;

  @IntField({
    optional: true,
    min: 1,
    max: 100_000,
    default: DEFAULT_EXPORT_LIMIT,
    description: 'At most this many rows, newest first.',
  })
  limit?: number;

  @UuidField({ optional: true, description: 'Only rows of this monitor.' })
  monitor_id?: string;
}

const nullableString = { type: 'string', nullable: true } as const;

/** A change as one flat export row: the list's fields, with the summary and value spelled out as columns. */
export class ChangeExportRowDto extends PickType(ChangeDto, [
  'id',
  'monitor_id',
  'monitor_name',
  'kind',
  'detected_at',
  'region',
  'feedback',
  'archived',
] as const) {
  @ApiProperty({ type: 'string' })
  summary: string;

  @ApiProperty({ type: 'string', enum: ['heuristic', 'llm'] })
  summary_source: 'heuristic' | 'llm';

  @ApiProperty(nullableString)
  value_name: string | null;

  @ApiProperty(nullableString)
  value_before: string | null;

  @ApiProperty(nullableString)
  value_after: string | null;

  @ApiProperty({ type: 'integer' })
  added_lines: number;

  @ApiProperty({ type: 'integer' })
  removed_lines: number;
}

export class ChangeExportDto {
  @ApiProperty({ type: () => [ChangeExportRowDto] })
  data: ChangeExportRowDto[];
}

export class TrackedValueExportDto {
  @ApiProperty({ type: () => [TrackedValueDto] })
  data: TrackedValueDto[];
}
