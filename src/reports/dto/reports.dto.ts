import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsUUID, ValidateBy, ValidateIf } from 'class-validator';
import { PageOf } from '../../common/pagination/pagination';
import { EnumField, TextField, UuidField } from '../../common/validation/fields';
import {
  PERIOD_PRESETS,
  type PeriodPreset,
  REPORT_FORMATS,
  REPORT_TYPES,
  type ReportFormat,
  type ReportPeriod,
  type ReportType,
} from '../entities/report.entity';
import { REPORT_RUN_STATUSES, type ReportRunStatus } from '../entities/report-run.entity';

/** The longest period a report covers. */
export const MAX_PERIOD_DAYS = 366;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** What is wrong with a period as sent, or null: `{preset}` or `{from, to}`, nothing else. */
export function periodProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  const keys = Object.keys(value).sort().join(',');
  const period = value as Record<string, unknown>;
  if (keys === 'preset') {
    return PERIOD_PRESETS.includes(period.preset as PeriodPreset)
      ? null
      : `preset must be one of ${PERIOD_PRESETS.join(', ')}`;
  }
  if (keys !== 'from,to') return 'must be {preset} or {from, to}';
  const [from, to] = [period.from, period.to].map((time) =>
    typeof time === 'string' && RFC3339.test(time) ? Date.parse(time) : Number.NaN,
  );
  if (Number.isNaN(from) || Number.isNaN(to))
    return 'from and to must be RFC 3339 date-times such as 2026-11-01T00:00:00Z';
  if (to <= from) return 'to must be after from';
  if (to - from > MAX_PERIOD_DAYS * 86_400_000) return `must span at most ${MAX_PERIOD_DAYS} days`;
  return null;
}

/** `{preset}` or `{from, to}`, each closed (the contract's ReportPeriodPreset and ReportPeriodRange). */
const PERIOD_SCHEMA: ApiPropertyOptions = {
  oneOf: [
    {
      type: 'object',
      required: ['preset'],
      additionalProperties: false,
      properties: { preset: { type: 'string', enum: [...PERIOD_PRESETS] } },
    },
    {
      type: 'object',
      required: ['from', 'to'],
      additionalProperties: false,
      properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } },
    },
  ],
};

function ReportPeriodField(): PropertyDecorator {
  return applyDecorators(
    ApiProperty(PERIOD_SCHEMA),
    ValidateBy({
      name: 'isReportPeriod',
      validator: {
        validate: (value: unknown) => periodProblem(value) === null,
        defaultMessage: (args) => periodProblem(args?.value) ?? 'must be a period',
      },
    }),
  );
}

export class CreateReportDto {
  @TextField({ maxLength: 120 })
  name: string;

  @EnumField(REPORT_TYPES, 'ReportType')
  type: ReportType;

  @ApiPropertyOptional({
    type: 'string',
    format: 'uuid',
    isArray: true,
    uniqueItems: true,
    maxItems: 500,
    description: 'Defaults to `[]`.',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsArray({ message: 'must be an array' })
  @ArrayMaxSize(500, { message: 'must hold at most 500 monitor ids' })
  @ArrayUnique({ message: 'must not repeat a monitor' })
  @IsUUID('all', { each: true, message: 'must be monitor ids (UUIDs)' })
  monitor_ids?: string[];

  @ReportPeriodField()
  period: ReportPeriod;

  @EnumField(REPORT_FORMATS, 'ReportFormat')
  format: ReportFormat;
}

export class RunParams {
  @UuidField({ description: "The report's identifier." })
  id: string;

  @UuidField({ description: "The run's identifier." })
  run_id: string;
}

export class ResolvedPeriodDto {
  @ApiProperty({ type: 'string', format: 'date-time' })
  from: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  to: string;
}

export class ReportRunDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  report_id: string;

  @ApiProperty({ enum: REPORT_RUN_STATUSES, enumName: 'ReportRunStatus' })
  status: ReportRunStatus;

  @ApiProperty({ type: () => ResolvedPeriodDto })
  period: ResolvedPeriodDto;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  generated_at: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  size: number | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^[0-9a-f]{64}$' })
  sha256: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  download_url: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  failure: string | null;
}

export class ReportDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: REPORT_TYPES, enumName: 'ReportType' })
  type: ReportType;

  @ApiProperty({ type: 'string', format: 'uuid', isArray: true })
  monitor_ids: string[];

  @ApiProperty(PERIOD_SCHEMA)
  period: ReportPeriod;

  @ApiProperty({ enum: REPORT_FORMATS, enumName: 'ReportFormat' })
  format: ReportFormat;

  @ApiProperty({ type: () => [ReportRunDto] })
  runs: ReportRunDto[];

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;
}

export class ReportListDto extends PageOf(ReportDto, 'ReportList') {}

/** A cell of a report's table. */
export type ReportCell = string | number | boolean | null;

export interface ReportColumn {
  key: string;
  title: string;
}

export interface ReportDailyUptime {
  monitor_id: string;
  date: string;
  checks: number;
  uptime: number | null;
  avg_response_ms: number | null;
}

/** A report's content: the JSON file as is, and what the CSV and PDF files are made from. */
export interface ReportDocument {
  report: { id: string; name: string; type: ReportType };
  period: { from: string; to: string };
  generated_at: string;
  method: string;
  columns: ReportColumn[];
  rows: Record<string, ReportCell>[];
  daily?: ReportDailyUptime[];
}

/** The JSON file's schema, as the contract's ReportDocument (refs inlined: it is only ever a download). */
export const REPORT_DOCUMENT_SCHEMA = {
  type: 'object',
  required: ['report', 'period', 'generated_at', 'method', 'columns', 'rows'],
  properties: {
    report: {
      type: 'object',
      required: ['id', 'name', 'type'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        name: { type: 'string' },
        type: { type: 'string', enum: [...REPORT_TYPES] },
      },
    },
    period: {
      type: 'object',
      required: ['from', 'to'],
      properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } },
    },
    generated_at: { type: 'string', format: 'date-time' },
    method: { type: 'string' },
    columns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'title'],
        properties: { key: { type: 'string' }, title: { type: 'string' } },
      },
    },
    rows: {
      type: 'array',
      items: { type: 'object', additionalProperties: { type: ['boolean', 'null', 'number', 'string'] } },
    },
    daily: {
      type: 'array',
      items: {
        type: 'object',
        required: ['monitor_id', 'date', 'checks', 'uptime', 'avg_response_ms'],
        properties: {
          monitor_id: { type: 'string', format: 'uuid' },
          date: { type: 'string', format: 'date' },
          checks: { type: 'integer' },
          uptime: { type: ['null', 'number'] },
          avg_response_ms: { type: ['null', 'number'] },
        },
      },
    },
  },
};
