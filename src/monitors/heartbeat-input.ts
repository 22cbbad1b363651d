import { randomBytes } from 'node:crypto';
import { ValidationFailed } from '../common/errors/domain-errors';
import type { CreateMonitorDto, UpdateMonitorDto } from './dto/monitor-requests.dto';
import type { Monitor } from './entities/monitor.entity';
import {
  DEFAULT_GRACE_SECONDS,
  type HeartbeatSchedule,
  type HeartbeatScheduleInput,
  heartbeatScheduleOf,
  isScheduleProblem,
} from './heartbeat-schedule';

/** What a heartbeat monitor does not take: it checks no page, from no chosen region, on no interval of its own. */
const PAGE_FIELDS = [
  'url',
  'interval_seconds',
  'timeout_seconds',
  'expected_status',
  'keyword',
  'selector',
  'regions',
  'tracked_values',
  'visual_threshold',
  'assertions',
] as const satisfies readonly (keyof CreateMonitorDto)[];

/** What only a heartbeat monitor takes. */
const HEARTBEAT_FIELDS = ['schedule', 'grace_seconds'] as const satisfies readonly (keyof CreateMonitorDto)[];

/** A ping URL's secret: `hb_` and 32 URL-safe characters (192 bits). */
export const newPingToken = (): string => `hb_${randomBytes(24).toString('base64url')}`;

/**
 * What a request to create a monitor says of its kind: a heartbeat monitor takes a `schedule` (and may take
 * `grace_seconds`) and none of the page fields; any other takes a `url` and neither. Returns the heartbeat's schedule,
 * or null for other monitors.
 */
export function creationKind(body: CreateMonitorDto): HeartbeatSchedule | null {
  if ((body.mode ?? 'http') !== 'heartbeat') {
    refuseFields(body, HEARTBEAT_FIELDS, 'is only for a heartbeat monitor');
    if (body.url === undefined) throw ValidationFailed.field('url', 'is required');
    return null;
  }
  refuseFields(body, PAGE_FIELDS, 'is not taken by a heartbeat monitor, which is pinged, not checked');
  if (body.schedule === undefined) throw ValidationFailed.field('schedule', 'is required for a heartbeat monitor');
  return scheduleOf(body.schedule, body.grace_seconds ?? DEFAULT_GRACE_SECONDS);
}

/**
 * What a request to change a monitor may change of its kind: no monitor becomes or stops being a heartbeat monitor
 * (its history would mean something else); a heartbeat monitor takes a new `schedule`, a new `grace_seconds` or both
 * (what is left out is kept), and no page fields. Returns the new schedule when either is given.
 */
export function updatedKind(
  current: Pick<Monitor, 'mode' | 'heartbeat'>,
  body: UpdateMonitorDto,
): HeartbeatSchedule | null {
  if (body.mode !== undefined && (body.mode === 'heartbeat') !== (current.mode === 'heartbeat')) {
    throw ValidationFailed.field('mode', 'a monitor cannot become or stop being a heartbeat monitor: create another');
  }
  if (current.mode !== 'heartbeat' || current.heartbeat === null) {
    refuseFields(body, HEARTBEAT_FIELDS, 'is only for a heartbeat monitor');
    return null;
  }
  refuseFields(body, PAGE_FIELDS, 'is not taken by a heartbeat monitor, which is pinged, not checked');
  const graceSeconds = body.grace_seconds ?? current.heartbeat.graceSeconds;
  if (body.schedule !== undefined) return scheduleOf(body.schedule, graceSeconds);
  return body.grace_seconds === undefined ? null : { ...current.heartbeat, graceSeconds };
}

function refuseFields<Field extends keyof CreateMonitorDto>(
  body: Partial<Record<Field, unknown>>,
  fields: readonly Field[],
  message: string,
): void {
  const given = fields.filter((field) => body[field] !== undefined);
  if (given.length) throw new ValidationFailed(given.map((field) => ({ field, message })));
}

function scheduleOf(input: HeartbeatScheduleInput, graceSeconds: number): HeartbeatSchedule {
  const schedule = heartbeatScheduleOf(input, graceSeconds);
  if (isScheduleProblem(schedule)) throw ValidationFailed.field(schedule.field, schedule.message);
  return schedule;
}
