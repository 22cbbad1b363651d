import { plural } from '../format';

/** The browser's own IANA time zone: where a new window's wall-clock time is meant, unless the person says another. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Whether the browser knows `zone` as a time zone (the API checks it too; this catches a typo before sending). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The time zones the browser knows, offered as suggestions (older browsers offer none). */
export function knownTimeZones(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
}

/** The parts of a `datetime-local` value (`2026-11-29T02:00`), or null when it is not one. */
function wallClockParts(local: string): number[] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  return match ? match.slice(1).map((part) => Number(part ?? 0)) : null;
}

/** How far `zone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function zoneOffsetMs(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((item) => item.type === type)!.value);
  const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant (ISO, UTC) a `datetime-local` value means in `zone`. The offset is looked up twice, at the guess and
 * again at the corrected guess, so a time near a daylight-saving change lands right; a wall-clock time the change
 * skips moves forward by the gap, as the API's calendar does.
 */
export function zonedToIso(local: string, zone: string): string | null {
  const parts = wallClockParts(local);
  if (!parts || !isTimeZone(zone)) return null;
  const [year, month, day, hour, minute, second] = parts;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const guess = wall - zoneOffsetMs(wall, zone);
  return new Date(wall - zoneOffsetMs(guess, zone)).toISOString();
}

export type RepeatPreset = 'none' | 'daily' | 'weekly' | 'monthly';

const BYDAY = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const weekdayName = new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' });

/** The preset choices, named after the start's day when it is known ("Weekly on Sunday"). */
export function repeatOptions(local: string): { value: RepeatPreset; label: string }[] {
  const parts = wallClockParts(local);
  const date = parts ? new Date(Date.UTC(parts[0], parts[1] - 1, parts[2])) : null;
  return [
    { value: 'none', label: 'Does not repeat' },
    { value: 'daily', label: 'Daily' },
    { value: 'weekly', label: date ? `Weekly on ${weekdayName.format(date)}` : 'Weekly, on the start’s weekday' },
    {
      value: 'monthly',
      label: parts
        ? `Monthly on day ${parts[2]}${parts[2] > 28 ? ' (months without it are skipped)' : ''}`
        : 'Monthly, on the start’s day of the month',
    },
  ];
}

/** The RRULE a preset means for a window starting at the wall-clock time `local`; null for a one-off window. */
export function recurrenceOf(preset: RepeatPreset, local: string): string | null {
  const parts = wallClockParts(local);
  if (preset === 'none' || !parts) return null;
  if (preset === 'daily') return 'FREQ=DAILY';
  if (preset === 'weekly')
    return `FREQ=WEEKLY;BYDAY=${BYDAY[new Date(Date.UTC(parts[0], parts[1] - 1, parts[2])).getUTCDay()]}`;
  return `FREQ=MONTHLY;BYMONTHDAY=${parts[2]}`;
}

const BYDAY_NAME: Record<string, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};

/** A window's RRULE in words when it is one of the presets' (or any rule as simple), else null: show the rule. */
export function recurrenceText(rule: string): string | null {
  if (rule === 'FREQ=DAILY') return 'Daily';
  const weekly = /^FREQ=WEEKLY;BYDAY=([A-Z]{2})$/.exec(rule);
  if (weekly && BYDAY_NAME[weekly[1]]) return `Weekly on ${BYDAY_NAME[weekly[1]]}`;
  const monthly = /^FREQ=MONTHLY;BYMONTHDAY=(\d{1,2})$/.exec(rule);
  if (monthly) return `Monthly on day ${monthly[1]}`;
  return null;
}

/** A duration in minutes as people say it: "30 minutes", "2 hours", "1 hour 30 minutes". */
export function durationText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return plural(rest, 'minute');
  return rest === 0 ? plural(hours, 'hour') : `${plural(hours, 'hour')} ${plural(rest, 'minute')}`;
}
