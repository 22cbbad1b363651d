import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsUUID, ValidateIf } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { PageOf } from '../../common/pagination/pagination';
import { BooleanField, DateTimeField, EnumField, IntField, TextField } from '../../common/validation/fields';
import {
  MAINTENANCE_MODES,
  MAINTENANCE_STATUSES,
  type MaintenanceMode,
  type MaintenanceStatus,
} from '../maintenance-calendar';

const RECURRENCE = {
  source: '^FREQ=[A-Z]+(;[A-Z]+=[-A-Za-z0-9,+:]+)*$',
  message: 'must be an RRULE such as FREQ=WEEKLY;BYDAY=SU',
};
const RECURRENCE_DESCRIPTION =
  'An RFC 5545 RRULE without `DTSTART` (`starts_at` is where it starts, at that wall-clock time), for instance `FREQ=WEEKLY;BYDAY=SU` ' +
  'or `FREQ=MONTHLY;BYMONTHDAY=1;COUNT=12`; at most one occurrence per hour. Null or left out: one-off.';
const TIMEZONE_DESCRIPTION =
  'An IANA time zone, such as `Europe/Berlin`, whose wall-clock time a recurring window keeps. Defaults to `UTC`.';

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

export class CreateMaintenanceWindowDto {
  @TextField({ maxLength: 200 })
  title: string;

  @TextField({ optional: true, nullable: true, maxLength: 2000, description: 'Shown on status pages; null for none.' })
  message?: string | null;

  @EnumField(MAINTENANCE_MODES, 'MaintenanceMode', { optional: true, description: 'Defaults to `mute_alerts`.' })
  mode?: MaintenanceMode;

  @BooleanField({
    optional: true,
    description: 'Defaults to false; when true, `monitor_ids` must be empty or left out.',
  })
  all_monitors?: boolean;

  @MonitorIdsField({ description: "The workspace's monitors to cover; at least one unless `all_monitors`." })
  monitor_ids?: string[];

  @DateTimeField({ optional: true, description: 'Defaults to now (start now).' })
  starts_at?: Date;

  @IntField({ min: 1, max: 10_080 })
  duration_minutes: number;

  @TextField({
    optional: true,
    nullable: true,
    minLength: 6,
    maxLength: 500,
    pattern: RECURRENCE,
    description: RECURRENCE_DESCRIPTION,
  })
  recurrence?: string | null;

  @TextField({ optional: true, maxLength: 64, description: TIMEZONE_DESCRIPTION })
  timezone?: string;
}

export class UpdateMaintenanceWindowDto {
  @TextField({ optional: true, maxLength: 200 })
  title?: string;

  @TextField({ optional: true, nullable: true, maxLength: 2000, description: 'Shown on status pages; null for none.' })
  message?: string | null;

  @EnumField(MAINTENANCE_MODES, 'MaintenanceMode', { optional: true })
  mode?: MaintenanceMode;

  @BooleanField({ optional: true })
  all_monitors?: boolean;

  @MonitorIdsField()
  monitor_ids?: string[];

  @DateTimeField({ optional: true })
  starts_at?: Date;

  @IntField({ optional: true, min: 1, max: 10_080 })
  duration_minutes?: number;

  @TextField({
    optional: true,
    nullable: true,
    minLength: 6,
    maxLength: 500,
    pattern: RECURRENCE,
    description: RECURRENCE_DESCRIPTION,
  })
  recurrence?: string | null;

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
  title: string;

  @ApiProperty({ type: 'string', nullable: true })
  message: string | null;

  @ApiProperty({ enum: MAINTENANCE_MODES, enumName: 'MaintenanceMode' })
  mode: MaintenanceMode;

  @ApiProperty()
  all_monitors: boolean;

  @ApiProperty({ type: 'string', format: 'uuid', isArray: true })
  monitor_ids: string[];

  @ApiProperty({ type: 'string', format: 'date-time' })
  starts_at: string;

  @ApiProperty({ type: 'integer' })
  duration_minutes: number;

  @ApiProperty({ type: 'string', nullable: true })
  recurrence: string | null;

  @ApiProperty()
  timezone: string;

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
}

export class MaintenanceWindowListDto extends PageOf(MaintenanceWindowDto, 'MaintenanceWindowList') {}
