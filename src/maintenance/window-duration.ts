import type { FieldError } from '../common/errors/domain-errors';

export const MINUTE_MS = 60_000;
/** The longest a window (each of its occurrences) lasts: a week. */
export const MAX_DURATION_MINUTES = 10_080;

/**
 * How many minutes a window lasts: `duration_minutes`, or from `startsAt` to `ends_at` rounded up to a whole minute
 * (so it covers at least up to `ends_at`, and a window started now can end at a time on the clock); `current` when
 * neither is sent. Sending both, sending neither on creation (`current` null), or an `ends_at` that is not after
 * `startsAt` or is more than the longest duration after it adds a field error to `errors`; the number answered is
 * then meaningless (the caller refuses the request).
 */
export function durationOf(
  input: { ends_at?: Date; duration_minutes?: number },
  startsAt: Date,
  current: number | null,
  errors: FieldError[],
): number {
  const refuse = (field: string, message: string) => {
    errors.push({ field, message });
    return current ?? 0;
  };
  if (input.ends_at !== undefined && input.duration_minutes !== undefined) {
    return refuse('ends_at', 'must be left out when duration_minutes is sent: send one of the two');
  }
  if (input.duration_minutes !== undefined) return input.duration_minutes;
  if (input.ends_at === undefined) {
    return current ?? refuse('duration_minutes', 'is required unless ends_at is sent: send one of the two');
  }
  const span = input.ends_at.getTime() - startsAt.getTime();
  if (span <= 0) return refuse('ends_at', `must be after starts_at (${startsAt.toISOString()})`);
  const minutes = Math.ceil(span / MINUTE_MS);
  if (minutes > MAX_DURATION_MINUTES) {
    return refuse('ends_at', `must be at most ${MAX_DURATION_MINUTES} minutes (7 days) after starts_at`);
  }
  return minutes;
}
