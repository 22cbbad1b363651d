import type { FieldError } from '../common/errors/domain-errors';
import { durationOf } from './window-duration';

describe('how long a maintenance window lasts: duration_minutes or ends_at', () => {
  const startsAt = new Date('2026-11-29T02:00:00Z');
  const at = (iso: string) => new Date(iso);
  const measure = (input: { ends_at?: Date; duration_minutes?: number }, current: number | null = null) => {
    const errors: FieldError[] = [];
    const minutes = durationOf(input, startsAt, current, errors);
    return { minutes: errors.length ? null : minutes, errors };
  };

  it('takes duration_minutes as sent, and ends_at as the minutes from starts_at', () => {
    expect(measure({ duration_minutes: 45 })).toEqual({ minutes: 45, errors: [] });
    expect(measure({ ends_at: at('2026-11-29T04:30:00Z') })).toEqual({ minutes: 150, errors: [] });
  });

  it('rounds an ends_at between two whole minutes up, so the window covers at least up to it', () => {
    expect(measure({ ends_at: at('2026-11-29T02:00:00.001Z') }).minutes).toBe(1);
    expect(measure({ ends_at: at('2026-11-29T02:29:30Z') }).minutes).toBe(30);
  });

  it('on creation wants exactly one of the two; on a change, neither keeps the current duration', () => {
    expect(measure({}).errors).toEqual([
      { field: 'duration_minutes', message: 'is required unless ends_at is sent: send one of the two' },
    ]);
    expect(measure({ duration_minutes: 30, ends_at: at('2026-11-29T03:00:00Z') }).errors).toEqual([
      { field: 'ends_at', message: 'must be left out when duration_minutes is sent: send one of the two' },
    ]);
    expect(measure({}, 90)).toEqual({ minutes: 90, errors: [] });
    expect(measure({ duration_minutes: 30, ends_at: at('2026-11-29T03:00:00Z') }, 90).errors).toHaveLength(1);
  });

  it('refuses an ends_at not after starts_at, or more than a week after it', () => {
    expect(measure({ ends_at: startsAt }).errors).toEqual([
      { field: 'ends_at', message: 'must be after starts_at (2026-11-29T02:00:00.000Z)' },
    ]);
    expect(measure({ ends_at: at('2026-11-29T01:00:00Z') }).errors[0].field).toBe('ends_at');
    expect(measure({ ends_at: at('2026-12-06T02:00:00Z') })).toEqual({ minutes: 10_080, errors: [] });
    expect(measure({ ends_at: at('2026-12-06T02:00:00.001Z') }).errors).toEqual([
      { field: 'ends_at', message: 'must be at most 10080 minutes (7 days) after starts_at' },
    ]);
  });
});
