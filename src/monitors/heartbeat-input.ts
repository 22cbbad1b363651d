import { randomBytes } from 'node:crypto';
import { ValidationFailed } from '../common/errors/domain-errors';
import type { CreateMonitorDto, HeartbeatInputDto, UpdateMonitorDto } from './dto/monitor-requests.dto';
import type { MonitorMode } from './entities/monitor.entity';
import { type HeartbeatSchedule, heartbeatScheduleOf, isScheduleProblem } from './heartbeat-schedule';

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

/** A ping URL's secret: `hb_` and 32 URL-safe characters (192 bits). */
export const newPingToken = (): string => `hb_${randomBytes(24).toString('base64url')}`;

/**
 * What a request to create a monitor says of its kind: a heartbeat monitor takes `heartbeat` and none of the page
 * fields; any other takes a `url` and no `heartbeat`. Returns the heartbeat's schedule, or null for other monitors.
 */
export function creationKind(body: CreateMonitorDto): HeartbeatSchedule | null {
  if ((body.mode ?? 'http') !== 'heartbeat') {
    if (body.heartbeat !== undefined) throw ValidationFailed.field('heartbeat', 'is only for a heartbeat monitor');
    if (body.url === undefined) throw ValidationFailed.field('url', 'is required');
    return null;
  }
  refusePageFields(body);
  if (body.heartbeat === undefined) throw ValidationFailed.field('heartbeat', 'is required for a heartbeat monitor');
  return scheduleOf(body.heartbeat);
}

/**
 * What a request to change a monitor may change of its kind: no monitor becomes or stops being a heartbeat monitor
 * (its history would mean something else); a heartbeat monitor takes a new `heartbeat` and no page fields. Returns
 * the new schedule when one is given.
 */
export function updatedKind(current: MonitorMode, body: UpdateMonitorDto): HeartbeatSchedule | null {
  if (body.mode !== undefined && (body.mode === 'heartbeat') !== (current === 'heartbeat')) {
    throw ValidationFailed.field('mode', 'a monitor cannot become or stop being a heartbeat monitor: create another');
  }
  if (current !== 'heartbeat') {
    if (body.heartbeat !== undefined) throw ValidationFailed.field('heartbeat', 'is only for a heartbeat monitor');
    return null;
  }
  refusePageFields(body);
  return body.heartbeat === undefined ? null : scheduleOf(body.heartbeat);
}

function refusePageFields(body: CreateMonitorDto | UpdateMonitorDto): void {
  const fields: Partial<Record<(typeof PAGE_FIELDS)[number], unknown>> = body;
  const given = PAGE_FIELDS.filter((field) => fields[field] !== undefined);
  if (given.length) {
    throw new ValidationFailed(
      given.map((field) => ({ field, message: 'is not taken by a heartbeat monitor, which is pinged, not checked' })),
    );
  }
}

function scheduleOf(input: HeartbeatInputDto): HeartbeatSchedule {
  const schedule = heartbeatScheduleOf(input);
  if (isScheduleProblem(schedule)) throw ValidationFailed.field(schedule.field, schedule.message);
  return schedule;
}
