import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { IntField, TextField } from '../../common/validation/fields';
import { MAX_PING_GAP_SECONDS, MIN_PING_GAP_SECONDS } from '../heartbeat-schedule';

export const PING_TOKEN_PATTERN = /^hb_[A-Za-z0-9_-]{32}$/;

/** `{token}` of a ping URL; a malformed one is a 400, a well-formed unknown one a 404. */
export class PingParams {
  @ApiProperty({
    type: 'string',
    pattern: PING_TOKEN_PATTERN.source,
    description: "The secret of the monitor's ping URL.",
  })
  @Matches(PING_TOKEN_PATTERN, { message: 'is not a ping token' })
  token: string;
}

/** `/ping/{token}/{exit_code}`: the job's exit code in the path, as healthchecks.io takes it. */
export class PingExitCodeParams extends PingParams {
  @IntField({ min: 0, max: 255, description: "The job's exit code; `0` is a success, any other a failure." })
  exit_code: number;
}

export class PingQuery {
  @IntField({
    optional: true,
    min: 0,
    max: 255,
    description: "The job's exit code; on a success ping, a non-zero code makes it a failure.",
  })
  exit_code?: number;
}

type Schema = NonNullable<ApiPropertyOptions['oneOf']>[number];

/** openapi.yaml's HeartbeatIntervalSchedule, for requests and answers alike. */
const INTERVAL_SCHEDULE: Schema = {
  type: 'object',
  required: ['interval_seconds'],
  additionalProperties: false,
  properties: {
    interval_seconds: { type: 'integer', minimum: MIN_PING_GAP_SECONDS, maximum: MAX_PING_GAP_SECONDS },
  },
};

/** openapi.yaml's HeartbeatCronScheduleInput: the zone may be left out (UTC). */
const CRON_SCHEDULE_INPUT: Schema = {
  type: 'object',
  required: ['cron'],
  additionalProperties: false,
  properties: {
    cron: { type: 'string', minLength: 5, maxLength: 100 },
    timezone: { type: 'string', minLength: 1, maxLength: 64 },
  },
};

/** openapi.yaml's HeartbeatCronSchedule: as a monitor answers it, with its zone. */
const CRON_SCHEDULE: Schema = {
  type: 'object',
  required: ['cron', 'timezone'],
  additionalProperties: false,
  properties: { cron: { type: 'string' }, timezone: { type: 'string' } },
};

/** A heartbeat monitor's schedule as it answers it: `{interval_seconds}` or `{cron, timezone}`. */
export type HeartbeatScheduleDto = { interval_seconds: number } | { cron: string; timezone: string };

/** `Monitor.schedule`: either schedule, or null for monitors that are not heartbeats. */
export const SCHEDULE_ANSWER: ApiPropertyOptions = { oneOf: [INTERVAL_SCHEDULE, CRON_SCHEDULE, { type: 'null' }] };

/**
 * `schedule` as a request sends it. The contract says `{interval_seconds}` or `{cron, timezone?}`; this class checks
 * each field it may hold (unknown ones are refused like any), and `heartbeatScheduleOf` that they make one of the two.
 */
export class HeartbeatScheduleInputDto {
  @IntField({ optional: true, min: MIN_PING_GAP_SECONDS, max: MAX_PING_GAP_SECONDS })
  interval_seconds?: number;

  @TextField({ optional: true, minLength: 5, maxLength: 100 })
  cron?: string;

  @TextField({ optional: true, maxLength: 64 })
  timezone?: string;
}

/**
 * An optional `schedule` of a create or update request: documented as the oneOf, checked field by field. The property
 * is typed with the `HeartbeatScheduleInput` interface, so that the document says the oneOf and nothing of this class.
 */
export function ScheduleField(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description, oneOf: [INTERVAL_SCHEDULE, CRON_SCHEDULE_INPUT] }),
    ValidateIf((_, value) => value !== undefined),
    IsObject({ message: 'must be an object: {interval_seconds} or {cron, timezone}' }),
    ValidateNested(),
    Type(() => HeartbeatScheduleInputDto),
  );
}
