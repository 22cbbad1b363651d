import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsUUID, ValidateIf } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { PageOf } from '../../common/pagination/pagination';
import { DeclarationKeyProperty } from '../../common/validation/declaration-key';
import { DateTimeField, EnumField, IntField, TextField } from '../../common/validation/fields';
import {
  MAINTENANCE_EFFECTS,
  MAINTENANCE_STATUSES,
  type MaintenanceEffect,
  type MaintenanceStatus,
} from '../maintenance-calendar';
import { MAX_DURATION_MINUTES } from '../window-duration';

const RRULE = {
  source: '^FREQ=[A-Z]+(;[A-Z]+=[-A-Za-z0-9,+:]+)*$',
  message: 'must be an RRULE such as FREQ=WEEKLY;BYDAY=SU',
};
const RRULE_DESCRIPTION =
  'An RFC 5545 RRULE without `DTSTART` (`starts_at` is where it starts, at that wall-clock time), for instance `FREQ=WEEKLY;BYDAY=SU` ' +
  'or `FREQ=MONTHLY;BYMONTHDAY=1;COUNT=12`; at most one occurrence per hour. Null or left out: one-off.';
const TIMEZONE_DESCRIPTION =
  'An IANA time zone, such as `Europe/Berlin`, whose wall-clock time a recurring window keeps. Defaults to `UTC`.';
const DURATION_DESCRIPTION = 'How long it lasts (each occurrence, for a recurring window). Instead of `ends_at`.';

/** Up to 1000 distinct monitor ids (which of them are the workspace's is the service's question). */
function MonitorIdsField(options: { description?: string } = {}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: 'string',
      format: 'uuid',
      isArray: true,
      uniqueItems: true,
      maxItems: 1000,
      required: false,
      ...options,
    }),
    ValidateIf((_, value) => value !== undefined),
    IsArray({ message: 'must be an array' }),
    ArrayMaxSize(1000, { message: 'must hold at most 1000 monitor ids' }),
    ArrayUnique({ message: 'must not repeat a monitor' }),
    IsUUID('all', { each: true, message: 'must be monitor ids (UUIDs)' }),
  );
}

/** Exactly one of `ends_at` and `duration_minutes` (the service checks that, and the limits of `ends_at`). */
export class CreateMaintenanceWindowDto {
  @TextField({ maxLength: 200 })
  name: string;

  @TextField({ optional: true, nullable: true, maxLength: 2000, description: 'Shown on status pages; null for none.' })
  message?: string | null;

  @EnumField(MAINTENANCE_EFFECTS, 'MaintenanceEffect', { optional: true, description: 'Defaults to `mute_alerts`.' })
  effect?: MaintenanceEffect;

  @MonitorIdsField({
    description:
      "The workspace's monitors to cover; empty or left out, every monitor of the workspace (those created later included).",
  })
  monitor_ids?: string[];

  @DateTimeField({ optional: true, description: 'Defaults to now (start now).' })
  starts_at?: Date;

  @DateTimeField({
    optional: true,
    description:
      'When it ends (each occurrence lasts as long): after `starts_at`, at most 7 days later, rounded up to a whole ' +
      'minute after it. Instead of `duration_minutes`.',
  })
  ends_at?: Date;

  @IntField({ optional: true, min: 1, max: MAX_DURATION_MINUTES, description: DURATION_DESCRIPTION })
  duration_minutes?: number;

  @TextField({
    optional: true,
    nullable: true,
    minLength: 6,
    maxLength: 500,
    pattern: RRULE,
    description: RRULE_DESCRIPTION,
  })
  rrule?: string | null;

  @TextField({ optional: true, maxLength: 64, description: TIMEZONE_DESCRIPTION })
  timezone?: string;
}

/** At most one of `ends_at` and `duration_minutes`. */
export class UpdateMaintenanceWindowDto {
  @TextField({ optional: true, maxLength: 200 })
  name?: string;

  @TextField({ optional: true, nullable: true, maxLength: 2000, description: 'Shown on status pages; null for none.' })
  message?: string | null;

  @EnumField(MAINTENANCE_EFFECTS, 'MaintenanceEffect', { optional: true })
  effect?: MaintenanceEffect;

  @MonitorIdsField({
    description:
      "The workspace's monitors to cover; empty, every monitor of the workspace (those created later included).",
  })
  monitor_ids?: string[];

  @DateTimeField({ optional: true })
  starts_at?: Date;

  @DateTimeField({
    optional: true,
    description:
      "When it ends, counted from `starts_at` (the one sent, else the window's): after it, at most 7 days later, " +
      'rounded up to a whole minute after it. Instead of `duration_minutes`.',
  })
  ends_at?: Date;

  @IntField({ optional: true, min: 1, max: MAX_DURATION_MINUTES, description: DURATION_DESCRIPTION })
  duration_minutes?: number;

  @TextField({
    optional: true,
    nullable: true,
    minLength: 6,
    maxLength: 500,
    pattern: RRULE,
    description: RRULE_DESCRIPTION,
  })
  rrule?: string | null;

  @TextField({ optional: true, maxLength: 64, description: TIMEZONE_DESCRIPTION })
  timezone?: string;
}

export class MaintenanceOccurrenceDto {
  @ApiProperty({ type: 'string', format: 'date-time' })
  starts_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it ends (or ended, when ended early).' })
  ends_at: string;
}

export class MaintenanceWindowDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: 'string', nullable: true })
  message: string | null;

  @ApiProperty({ enum: MAINTENANCE_EFFECTS, enumName: 'MaintenanceEffect' })
  effect: MaintenanceEffect;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    isArray: true,
    description: 'Empty when it covers every monitor of the workspace.',
  })
  monitor_ids: string[];

  @ApiProperty({ type: 'string', format: 'date-time' })
  starts_at: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: '`starts_at` plus the duration: the end of the occurrence that begins at `starts_at`.',
  })
  ends_at: string;

  @ApiProperty({ type: 'integer' })
  duration_minutes: number;

  @ApiProperty({ type: 'string', nullable: true })
  rrule: string | null;

  @ApiProperty()
  timezone: string;

  @ApiProperty({ description: 'Whether an occurrence is under way now (`status` is `active`).' })
  active: boolean;

  @ApiProperty({ enum: MAINTENANCE_STATUSES, enumName: 'MaintenanceStatus' })
  status: MaintenanceStatus;

  @ApiProperty({ type: () => MaintenanceOccurrenceDto, nullable: true })
  current: MaintenanceOccurrenceDto | null;

  @ApiProperty({ type: () => MaintenanceOccurrenceDto, nullable: true })
  next: MaintenanceOccurrenceDto | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  ended_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  updated_at: string;

  @DeclarationKeyProperty()
  declaration_key: string | null;
}

export class MaintenanceWindowListDto extends PageOf(MaintenanceWindowDto, 'MaintenanceWindowList') {}
