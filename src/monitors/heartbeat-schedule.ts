import { Cron } from 'croner';

/** When a heartbeat monitor expects its pings: every `intervalSeconds`, or at a cron expression's times in a zone. */
export interface HeartbeatSchedule {
  intervalSeconds: number | null;
  cron: string | null;
  /** An IANA zone, for `cron`. */
  timezone: string;
  /** How late a ping may be before it is missed. */
  graceSeconds: number;
}

export const DEFAULT_GRACE_SECONDS = 300;
/** Pings expected closer together than this are refused: a heartbeat is a job's, not a request log. */
export const MIN_PING_GAP_SECONDS = 10;
/** The longest interval between pings: 30 days. */
export const MAX_PING_GAP_SECONDS = 2_592_000;

/** A request's `schedule` as the API takes it (`{interval_seconds}` or `{cron, timezone?}`); fields left out undefined. */
export interface HeartbeatScheduleInput {
  interval_seconds?: number;
  cron?: string;
  timezone?: string;
}

/** A problem with the settings, at its field (`schedule.cron`…); the first one found. */
export interface ScheduleProblem {
  field: string;
  message: string;
}

const cronOf = (schedule: Pick<HeartbeatSchedule, 'cron' | 'timezone'>) =>
  new Cron(schedule.cron!, { timezone: schedule.timezone, paused: true });

/** The schedule a request's `schedule` describes, with the grace it gives, or the first problem with it. */
export function heartbeatScheduleOf(
  input: HeartbeatScheduleInput,
  graceSeconds = DEFAULT_GRACE_SECONDS,
): HeartbeatSchedule | ScheduleProblem {
  const { interval_seconds: intervalSeconds, cron, timezone = 'UTC' } = input;
  if ((intervalSeconds === undefined) === (cron === undefined)) {
    return { field: 'schedule', message: 'must be {interval_seconds} or {cron, timezone}: give one of the two' };
  }
  if (intervalSeconds !== undefined && input.timezone !== undefined) {
    return { field: 'schedule.timezone', message: 'is only taken with cron' };
  }
  if (!isTimeZone(timezone)) return { field: 'schedule.timezone', message: `${timezone} is not an IANA time zone` };
  const schedule: HeartbeatSchedule = {
    intervalSeconds: intervalSeconds ?? null,
    cron: cron ?? null,
    timezone,
    graceSeconds,
  };
  if (cron !== undefined) {
    let runs: Date[];
    try {
      // Enough times to see an uneven expression's closest two (`0,5 * * * * *`).
      runs = cronOf(schedule).nextRuns(60);
    } catch (error) {
      return { field: 'schedule.cron', message: `is not a cron expression: ${(error as Error).message}` };
    }
    if (runs.length < 2) return { field: 'schedule.cron', message: 'never runs again' };
    const closest = Math.min(...runs.slice(1).map((run, index) => run.getTime() - runs[index].getTime()));
    if (closest < MIN_PING_GAP_SECONDS * 1000) {
      return { field: 'schedule.cron', message: `runs more often than every ${MIN_PING_GAP_SECONDS} seconds` };
    }
  }
  return schedule;
}

/** Whether two schedules expect pings at the same times, whatever their grace. */
export function sameTimes(a: HeartbeatSchedule, b: HeartbeatSchedule | null): boolean {
  return b !== null && a.intervalSeconds === b.intervalSeconds && a.cron === b.cron && a.timezone === b.timezone;
}

/** Whether two schedules expect the same pings (a stored one's keys come back from jsonb in another order). */
export function sameSchedule(a: HeartbeatSchedule, b: HeartbeatSchedule | null): boolean {
  return sameTimes(a, b) && a.graceSeconds === b?.graceSeconds;
}

export const isScheduleProblem = (value: HeartbeatSchedule | ScheduleProblem): value is ScheduleProblem =>
  'field' in value;

/** A cron job's ping may come this much before its time (a clock ahead) and still be that time's ping. */
const EARLY_PING_MS = 60_000;

/** How early a ping may come for its cron time: a minute, or less for a schedule whose times are closer. */
function earlyAllowanceMs(schedule: HeartbeatSchedule): number {
  if (schedule.cron === null) return 0;
  return Math.min(EARLY_PING_MS, (scheduleIntervalSeconds(schedule) * 1000) / 2);
}

/**
 * When the ping after one at `after` is expected: an interval later, or the cron expression's next time after it
 * (a ping slightly before a time, within `earlyAllowanceMs`, is that time's ping).
 */
export function nextExpectedAt(schedule: HeartbeatSchedule, after: Date): Date {
  if (schedule.intervalSeconds !== null) return new Date(after.getTime() + schedule.intervalSeconds * 1000);
  const from = new Date(after.getTime() + earlyAllowanceMs(schedule));
  // A cron expression that never runs again leaves the monitor waiting a year: it is refused on input anyway.
  return cronOf(schedule).nextRun(from) ?? new Date(after.getTime() + 365 * 86_400_000);
}

/** When the ping after one at `after` is missed: its expected time plus the grace. */
export function pingDeadline(schedule: HeartbeatSchedule, after: Date): Date {
  return new Date(nextExpectedAt(schedule, after).getTime() + schedule.graceSeconds * 1000);
}

/** The expected time of the ping whose deadline is `deadline`. */
export function expectedAtOf(schedule: HeartbeatSchedule, deadline: Date): Date {
  return new Date(deadline.getTime() - schedule.graceSeconds * 1000);
}

/**
 * Whether the slot ending at `deadline` was pinged after all: a ping recorded at or after the slot's expected time.
 * A ping before its deadline moves the deadline on, so the slot is only claimed when none came; this catches the one
 * that came while the claimed slot waited for its worker.
 */
export function slotWasPinged(schedule: HeartbeatSchedule, deadline: Date, lastPingAt: Date | null): boolean {
  const earliest = expectedAtOf(schedule, deadline).getTime() - earlyAllowanceMs(schedule);
  return lastPingAt !== null && lastPingAt.getTime() >= earliest;
}

/** The gap between expected pings, for the monitor's `interval_seconds`: a cron expression's next two times. */
export function scheduleIntervalSeconds(schedule: HeartbeatSchedule, from = new Date()): number {
  if (schedule.intervalSeconds !== null) return schedule.intervalSeconds;
  const [first, second] = cronOf(schedule).nextRuns(2, from);
  return Math.max(MIN_PING_GAP_SECONDS, Math.round((second.getTime() - first.getTime()) / 1000));
}

/** "no ping since 03:00:07 UTC; one was expected at 04:00:00 UTC (300 s of grace)". */
export function missedMessage(schedule: HeartbeatSchedule, deadline: Date, lastPingAt: Date | null): string {
  const expected = expectedAtOf(schedule, deadline).toISOString();
  const since = lastPingAt ? `no ping since ${lastPingAt.toISOString()}` : 'no ping yet';
  return `${since}; one was expected at ${expected} (${schedule.graceSeconds} s of grace)`;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
