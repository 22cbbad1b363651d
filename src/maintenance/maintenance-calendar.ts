import { DateTime, IANAZone } from 'luxon';
import { Frequency, RRule } from 'rrule';

/** What of a maintenance window its occurrences depend on. */
export interface WindowTimes {
  id: string;
  startsAt: Date;
  durationMinutes: number;
  /** An RFC 5545 RRULE without DTSTART; null for a one-off window. */
  recurrence: string | null;
  /** The IANA time zone whose wall-clock time a recurring window keeps. */
  timezone: string;
  /** "End now": the occurrence under way at this moment ended then. */
  endedAt: Date | null;
}

/** What a check needs of a window to know whether it covers its monitor now. */
export interface CoveringWindow extends WindowTimes {
  mode: MaintenanceMode;
}

export const MAINTENANCE_MODES = ['mute_alerts', 'pause_checks'] as const;
export type MaintenanceMode = (typeof MAINTENANCE_MODES)[number];
export const MAINTENANCE_STATUSES = ['scheduled', 'active', 'completed'] as const;
export type MaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

export interface Occurrence {
  startsAt: Date;
  endsAt: Date;
}

const MINUTE_MS = 60_000;
/** The most a wall-clock time moves against UTC in a day (a daylight-saving change, or a zone's rare jump). */
const SHIFT_SLACK_MS = 26 * 3_600_000;
/** How many occurrences one question may look through: an hourly rule over a week and then some. */
const MAX_OCCURRENCES = 400;

/** Whether `name` is an IANA time zone luxon (and so Intl) knows. */
export const isTimeZone = (name: string): boolean => IANAZone.isValidZone(name);

/**
 * The RRULE's problem, or null when it is one a window may repeat by: parseable, without DTSTART or TZID (the
 * window's `starts_at` and `timezone` say those), at most hourly.
 */
export function recurrenceProblem(recurrence: string): string | null {
  if (/(^|;)(DTSTART|TZID)=/i.test(recurrence)) return 'must not name DTSTART or TZID: starts_at and timezone say them';
  try {
    const options = RRule.parseString(recurrence);
    if (options.freq === undefined) return 'must name FREQ';
    if (options.freq === Frequency.MINUTELY || options.freq === Frequency.SECONDLY) return 'may repeat at most hourly';
    new RRule({ ...options, dtstart: new Date(0) }).after(new Date(0), true);
    return null;
  } catch (error) {
    return `is not a valid RRULE (${(error as Error).message})`;
  }
}

/** A wall-clock time in `zone`, as a Date whose UTC fields are that time (rrule's "floating" times). */
function floating(instant: Date, zone: string): Date {
  const local = DateTime.fromJSDate(instant, { zone });
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
}

/** The instant a floating wall-clock time is in `zone` (a time skipped by a daylight-saving change moves forward). */
function instantOf(wallClock: Date, zone: string): Date {
  return DateTime.fromObject(
    {
      year: wallClock.getUTCFullYear(),
      month: wallClock.getUTCMonth() + 1,
      day: wallClock.getUTCDate(),
      hour: wallClock.getUTCHours(),
      minute: wallClock.getUTCMinutes(),
      second: wallClock.getUTCSeconds(),
    },
    { zone },
  ).toJSDate();
}

/** Compiled rules, by what they are compiled from: checks ask about the same few windows all day. */
const compiled = new Map<string, RRule>();

function ruleOf(window: WindowTimes): RRule {
  const dtstart = floating(window.startsAt, window.timezone);
  const key = `${window.recurrence}|${dtstart.getTime()}`;
  let rule = compiled.get(key);
  if (!rule) {
    if (compiled.size >= 1000) compiled.delete(compiled.keys().next().value!);
    rule = new RRule({ ...RRule.parseString(window.recurrence!), dtstart });
    compiled.set(key, rule);
  }
  return rule;
}

/** An occurrence starting at `startsAt`, cut short by an "end now" made during it. */
function occurrenceFrom(window: WindowTimes, startsAt: Date): Occurrence {
  const plannedEnd = startsAt.getTime() + window.durationMinutes * MINUTE_MS;
  const ended = window.endedAt?.getTime();
  const cut = ended !== undefined && ended >= startsAt.getTime() && ended < plannedEnd;
  return { startsAt, endsAt: new Date(cut ? ended : plannedEnd) };
}

/** The occurrences that overlap `[from, to)`, oldest first; those an "end now" emptied are left out. */
export function occurrencesBetween(window: WindowTimes, from: Date, to: Date): Occurrence[] {
  const starts = window.recurrence
    ? ruleOf(window)
        .between(
          new Date(floating(from, window.timezone).getTime() - window.durationMinutes * MINUTE_MS - SHIFT_SLACK_MS),
          new Date(floating(to, window.timezone).getTime() + SHIFT_SLACK_MS),
          true,
          (_, index) => index < MAX_OCCURRENCES,
        )
        .map((wallClock) => instantOf(wallClock, window.timezone))
    : [window.startsAt];
  return starts
    .map((start) => occurrenceFrom(window, start))
    .filter(
      (occurrence) => occurrence.endsAt > occurrence.startsAt && occurrence.startsAt < to && occurrence.endsAt > from,
    );
}

/** The occurrence under way at `at`, or null. */
export function occurrenceAt(window: WindowTimes, at: Date): Occurrence | null {
  return occurrencesBetween(window, at, new Date(at.getTime() + 1))[0] ?? null;
}

/** The first occurrence starting after `after`, or null when none is to come. */
export function nextOccurrence(window: WindowTimes, after: Date): Occurrence | null {
  if (!window.recurrence) return window.startsAt > after ? occurrenceFrom(window, window.startsAt) : null;
  const rule = ruleOf(window);
  let wallClock: Date | null = rule.after(new Date(floating(after, window.timezone).getTime() - SHIFT_SLACK_MS), true);
  for (let looked = 0; wallClock && looked < MAX_OCCURRENCES; looked += 1) {
    const startsAt = instantOf(wallClock, window.timezone);
    if (startsAt > after) return occurrenceFrom(window, startsAt);
    wallClock = rule.after(wallClock, false);
  }
  return null;
}

/** Where a window stands at `now`: under way, to come, or done with. */
export function windowState(
  window: WindowTimes,
  now: Date,
): { status: MaintenanceStatus; current: Occurrence | null; next: Occurrence | null } {
  const current = occurrenceAt(window, now);
  const next = nextOccurrence(window, now);
  return { status: current ? 'active' : next ? 'scheduled' : 'completed', current, next };
}

/**
 * The maintenance a monitor is under at `at`, from the windows that cover it: a window pausing checks before one
 * muting alerts (it does more), else null.
 */
export function maintenanceAt<W extends CoveringWindow>(windows: readonly W[], at: Date): W | null {
  const active = windows.filter((window) => occurrenceAt(window, at) !== null);
  return active.find((window) => window.mode === 'pause_checks') ?? active[0] ?? null;
}

/** When the window next starts or ends after `now` (null: never again): when its announcer must look at it next. */
export function nextTransition(window: WindowTimes, now: Date): Date | null {
  return occurrenceAt(window, now)?.endsAt ?? nextOccurrence(window, now)?.startsAt ?? null;
}
