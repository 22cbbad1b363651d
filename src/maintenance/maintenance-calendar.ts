import { DateTime, IANAZone } from 'luxon';
import { RRule } from 'rrule';

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
  /** The window's effect (the API's `effect`). */
  mode: MaintenanceEffect;
}

/** What a window does while under way (the API's `effect`). */
export const MAINTENANCE_EFFECTS = ['mute_alerts', 'pause_checks'] as const;
export type MaintenanceEffect = (typeof MAINTENANCE_EFFECTS)[number];
export const MAINTENANCE_STATUSES = ['scheduled', 'active', 'completed'] as const;
export type MaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

export interface Occurrence {
  startsAt: Date;
  endsAt: Date;
}

const MINUTE_MS = 60_000;
/** The most a wall-clock time moves against UTC in a day (a daylight-saving change, or a zone's rare jump). */
const SHIFT_SLACK_MS = 26 * 3_600_000;
/** The most occurrences a cached span holds (an hourly rule over 35 days is 840; the rule is at most hourly). */
const MAX_SPAN_OCCURRENCES = 5_000;
/** How many of a rule's first occurrences are looked at to tell whether it repeats more than hourly. */
const GAP_SAMPLE = 200;

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
    // FREQ alone does not bound it: FREQ=DAILY with lists of BYHOUR and BYMINUTE repeats every minute.
    const sample = new RRule({ ...options, dtstart: new Date(0) }, true).all((_, index) => index < GAP_SAMPLE);
    if (sample.some((start, index) => index > 0 && start.getTime() - sample[index - 1].getTime() < 3_600_000)) {
      return 'may repeat at most hourly';
    }
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

/**
 * A rule's occurrences (floating wall-clock times, as epoch milliseconds) over a span of time, expanded once and
 * asked about all day by every check of the monitors a window covers. rrule walks a rule from its start on every
 * question, so a years-old hourly window would cost each check a walk over tens of thousands of occurrences; here
 * that walk is paid once per span.
 */
interface Expansion {
  rule: RRule;
  from: number;
  until: number;
  starts: number[];
}

/** How far past the asked time a span reaches, so that the next questions fall inside it. */
const SPAN_AHEAD_MS = 35 * 86_400_000;
const expansions = new Map<string, Expansion>();

function ruleOf(window: WindowTimes): RRule {
  const dtstart = floating(window.startsAt, window.timezone);
  const options = RRule.parseString(window.recurrence!);
  // UNTIL is an instant (RFC 5545: UTC); the rule runs on floating wall-clock times, so it is compared as one too.
  const until = options.until ? floating(options.until, window.timezone) : null;
  // Cache off: rrule's own cache keeps every answer of a rule forever and searches it linearly.
  return new RRule({ ...options, dtstart, until }, true);
}

/** The rule's floating starts within [from, to] (epoch ms), from its cached span, expanded anew when it is left. */
function floatingStarts(window: WindowTimes, from: number, to: number): number[] {
  const key = `${window.recurrence}|${window.timezone}|${window.startsAt.getTime()}`;
  let expansion = expansions.get(key);
  if (!expansion || from < expansion.from || to > expansion.until) {
    const rule = expansion?.rule ?? ruleOf(window);
    const spanFrom = from - 8 * 86_400_000;
    const spanUntil = to + SPAN_AHEAD_MS;
    const starts: number[] = [];
    rule.all((date) => {
      if (date.getTime() > spanUntil) return false;
      if (date.getTime() >= spanFrom) starts.push(date.getTime());
      return starts.length < MAX_SPAN_OCCURRENCES;
    });
    expansion = {
      rule,
      from: spanFrom,
      until: starts.length < MAX_SPAN_OCCURRENCES ? spanUntil : starts.at(-1)!,
      starts,
    };
    if (expansions.size >= 1000) expansions.delete(expansions.keys().next().value!);
    expansions.set(key, expansion);
  }
  return expansion.starts.filter((start) => start >= from && start <= to);
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
    ? floatingStarts(
        window,
        floating(from, window.timezone).getTime() - window.durationMinutes * MINUTE_MS - SHIFT_SLACK_MS,
        floating(to, window.timezone).getTime() + SHIFT_SLACK_MS,
      ).map((wallClock) => instantOf(new Date(wallClock), window.timezone))
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
  const from = floating(after, window.timezone).getTime() - SHIFT_SLACK_MS;
  // Within the cached span first; a rule with a longer gap (yearly, say) is walked once more, up to its next start.
  const near = floatingStarts(window, from, from + SPAN_AHEAD_MS)
    .map((wallClock) => instantOf(new Date(wallClock), window.timezone))
    .find((startsAt) => startsAt > after);
  if (near) return occurrenceFrom(window, near);
  const later = ruleOf(window).after(new Date(from + SPAN_AHEAD_MS), true);
  return later ? occurrenceFrom(window, instantOf(later, window.timezone)) : null;
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
