import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Length, ValidateBy, ValidateIf } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { globProblem } from '../../../libs/crawl';
import { PageOf, PageQuery, PageQueryOf, PaginationDto } from '../../common/pagination/pagination';
import {
  EnumField,
  HttpUrlField,
  IntField,
  IsStorableText,
  NestedField,
  TextField,
} from '../../common/validation/fields';
import { MonitorDto } from '../../monitors/dto/monitor.dto';
import { RegionsField } from '../../monitors/dto/monitor-requests.dto';
import { MONITOR_MODES, type MonitorMode } from '../../monitors/entities/monitor.entity';
import {
  CRAWL_FAILURE_REASONS,
  CRAWL_STATUSES,
  CRAWL_STOP_REASONS,
  type CrawlFailure,
  type CrawlStatus,
  type CrawlStopReason,
} from '../entities/crawl.entity';
import { FOUND_VIA, type FoundVia, type SkipReason } from '../entities/crawl-url.entity';

export const DEFAULT_MAX_PAGES = 200;
export const DEFAULT_MAX_DEPTH = 5;
export const MAX_CRAWL_PAGES_PER_PAGE = 500;

/** Path globs: up to 20, each compiled the way the crawl will match it, so a malformed one is a 400 naming it. */
function GlobsField(description: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      required: false,
      type: 'array',
      description,
      maxItems: 20,
      items: { type: 'string', minLength: 1, maxLength: 200 },
    }),
    ValidateIf((_, value) => value !== undefined),
    IsArray({ message: 'must be an array' }),
    ArrayMaxSize(20, { message: 'must hold at most 20 items' }),
    IsString({ each: true, message: 'each value must be a string' }),
    IsStorableText({ each: true }),
    Length(1, 200, { each: true, message: 'each glob must be 1 to 200 characters long' }),
    ValidateBy({
      name: 'isPathGlob',
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) && value.every((glob) => typeof glob !== 'string' || globProblem(glob) === null),
        defaultMessage: (args) => {
          const globs = Array.isArray(args?.value) ? (args.value as unknown[]) : [];
          const bad = globs.find((glob): glob is string => typeof glob === 'string' && globProblem(glob) !== null);
          return bad === undefined
            ? 'must hold path globs'
            : `${JSON.stringify(bad)} is not a valid glob: ${globProblem(bad)}`;
        },
      },
    }),
  );
}

export class StartCrawlDto {
  @HttpUrlField({ description: 'A public http(s) URL without credentials; the crawl stays on its origin.' })
  url: string;

  @IntField({
    optional: true,
    min: 1,
    max: 5000,
    default: DEFAULT_MAX_PAGES,
    description: 'Stop after listing this many pages.',
  })
  max_pages?: number;

  @IntField({
    optional: true,
    min: 0,
    max: 20,
    default: DEFAULT_MAX_DEPTH,
    description: 'Follow links at most this many steps from the start URL.',
  })
  max_depth?: number;

  @GlobsField('Path globs (`/blog/**`, `/docs/*.html`); when given, only URLs whose path matches one are fetched.')
  include?: string[];

  @GlobsField('Path globs; URLs whose path matches one are not fetched.')
  exclude?: string[];

  @TextField({ optional: true, maxLength: 200, description: 'Makes the request safe to retry; unique per crawl.' })
  request_key?: string;
}

export class ListCrawlsQuery extends PageQuery {
  @EnumField(CRAWL_STATUSES, 'CrawlStatus', { optional: true, description: 'Only crawls in this status.' })
  status?: CrawlStatus;
}

export class CrawlPagesQuery extends PageQueryOf(
  MAX_CRAWL_PAGES_PER_PAGE,
  'Pages of the crawl per page of the answer.',
) {}

export class CrawlMonitorSettingsDto {
  @IntField({ optional: true, min: 30, max: 86_400, default: 300 })
  interval_seconds?: number;

  @RegionsField({ optional: true })
  regions?: string[];

  @EnumField(MONITOR_MODES, 'MonitorMode', { optional: true })
  mode?: MonitorMode;
}

export class CreateMonitorsFromCrawlDto {
  @ApiProperty({
    type: 'array',
    minItems: 1,
    maxItems: 5000,
    items: { type: 'string', minLength: 1, maxLength: 2048 },
  })
  @IsArray({ message: 'must be an array' })
  @ArrayMinSize(1, { message: 'must hold at least 1 item(s)' })
  @ArrayMaxSize(5000, { message: 'must hold at most 5000 items' })
  @IsString({ each: true, message: 'each value must be a string' })
  @IsStorableText({ each: true })
  @Length(1, 2048, { each: true, message: 'each URL must be 1 to 2048 characters long' })
  urls: string[];

  @NestedField(() => CrawlMonitorSettingsDto, {
    optional: true,
    description: 'Settings for every monitor created; the monitor defaults otherwise.',
  })
  monitor?: CrawlMonitorSettingsDto;
}

export class CrawlFailureDto implements CrawlFailure {
  @ApiProperty({ type: 'string', enum: CRAWL_FAILURE_REASONS })
  reason: CrawlFailure['reason'];

  @ApiProperty({ type: 'string', description: 'What the target did, in words.' })
  message: string;
}

export class CrawlSkippedDto implements Record<SkipReason, number> {
  @ApiProperty({ type: 'integer' })
  robots: number;

  @ApiProperty({ type: 'integer' })
  out_of_scope: number;

  @ApiProperty({ type: 'integer' })
  excluded: number;

  @ApiProperty({ type: 'integer' })
  not_html: number;

  @ApiProperty({ type: 'integer' })
  duplicate: number;

  @ApiProperty({ type: 'integer' })
  error: number;
}

export class CrawlSummaryDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string' })
  url: string;

  @ApiProperty({ type: 'string' })
  origin: string;

  @ApiProperty({ enum: CRAWL_STATUSES, enumName: 'CrawlStatus' })
  status: CrawlStatus;

  @ApiProperty({ enum: CRAWL_STOP_REASONS, enumName: 'CrawlStopReason', nullable: true })
  stop_reason: CrawlStopReason | null;

  @ApiProperty({ type: () => CrawlFailureDto, nullable: true })
  failure: CrawlFailureDto | null;

  @ApiProperty({ type: 'integer' })
  max_pages: number;

  @ApiProperty({ type: 'integer' })
  max_depth: number;

  @ApiProperty({ type: 'string', isArray: true })
  include: string[];

  @ApiProperty({ type: 'string', isArray: true })
  exclude: string[];

  @ApiProperty({ type: 'string', nullable: true })
  request_key: string | null;

  @ApiProperty({ type: 'integer' })
  pages_found: number;

  @ApiProperty({ type: () => CrawlSkippedDto })
  skipped: CrawlSkippedDto;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  started_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  completed_at: string | null;
}

export class CrawlPageDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string' })
  url: string;

  @ApiProperty({ type: 'string' })
  final_url: string;

  @ApiProperty({ type: 'integer' })
  status_code: number;

  @ApiProperty({ type: 'string', nullable: true })
  title: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  canonical: string | null;

  @ApiProperty({ type: 'integer' })
  depth: number;

  @ApiProperty({ type: 'string', enum: FOUND_VIA })
  found_via: FoundVia;

  @ApiProperty({ type: 'boolean' })
  noindex: boolean;

  @ApiProperty({ type: 'boolean' })
  already_monitored: boolean;
}

export class CrawlDto extends CrawlSummaryDto {
  @ApiProperty({ type: () => [CrawlPageDto] })
  pages: CrawlPageDto[];

  @ApiProperty({ type: () => PaginationDto })
  pagination: PaginationDto;
}

export const CrawlListDto = PageOf(CrawlSummaryDto, 'CrawlList');

export class SkippedCrawlUrlDto {
  @ApiProperty({ type: 'string' })
  url: string;

  @ApiProperty({ type: 'string', enum: ['already_monitored'] })
  reason: 'already_monitored';
}

export class CreatedMonitorsFromCrawlDto {
  @ApiProperty({ type: () => [MonitorDto] })
  created: MonitorDto[];

  @ApiProperty({ type: () => [SkippedCrawlUrlDto] })
  skipped: SkippedCrawlUrlDto[];
}
