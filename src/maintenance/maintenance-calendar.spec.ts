import {
  maintenanceAt,
  nextOccurrence,
  nextTransition,
  occurrenceAt,
  recurrenceProblem,
  type WindowTimes,
  windowState,
} from './maintenance-calendar';

const at = (iso: string) => new Date(iso);
const window = (overrides: Partial<WindowTimes> = {}): WindowTimes => ({
  id: 'w',
  startsAt: at('2026-10-20T07:00:00Z'),
  durationMinutes: 60,
  recurrence: null,
  timezone: 'UTC',
  endedAt: null,
  ...overrides,
});

describe('maintenance calendar', () => {
  describe('a one-off window', () => {
    const oneOff = window();

    it('is active from its start up to (not including) its end', () => {
      expect(occurrenceAt(oneOff, at('2026-10-20T06:59:59Z'))).toBeNull();
      expect(occurrenceAt(oneOff, at('2026-10-20T07:00:00Z'))).toEqual({
        startsAt: at('2026-10-20T07:00:00Z'),
        endsAt: at('2026-10-20T08:00:00Z'),
      });
      expect(occurrenceAt(oneOff, at('2026-10-20T08:00:00Z'))).toBeNull();
    });

    it('is scheduled, active, then completed', () => {
      expect(windowState(oneOff, at('2026-10-20T06:00:00Z')).status).toBe('scheduled');
      expect(windowState(oneOff, at('2026-10-20T07:30:00Z')).status).toBe('active');
      expect(windowState(oneOff, at('2026-10-20T08:30:00Z'))).toEqual({
        status: 'completed',
        current: null,
        next: null,
      });
    });

    it('ends when ended now', () => {
      const ended = window({ endedAt: at('2026-10-20T07:20:00Z') });
      expect(occurrenceAt(ended, at('2026-10-20T07:10:00Z'))?.endsAt).toEqual(at('2026-10-20T07:20:00Z'));
      expect(occurrenceAt(ended, at('2026-10-20T07:30:00Z'))).toBeNull();
      expect(windowState(ended, at('2026-10-20T07:30:00Z')).status).toBe('completed');
    });
  });

  describe('a recurring window in a time zone', () => {
    // Every day at 09:00 in Berlin: 07:00 UTC in summer time, 08:00 UTC once the clocks go back on 25 October.
    const daily = window({ recurrence: 'FREQ=DAILY', timezone: 'Europe/Berlin' });

    it('opens at the same local time across a daylight-saving change', () => {
      expect(occurrenceAt(daily, at('2026-10-24T07:30:00Z'))?.startsAt).toEqual(at('2026-10-24T07:00:00Z'));
      expect(nextOccurrence(daily, at('2026-10-24T12:00:00Z'))?.startsAt).toEqual(at('2026-10-25T08:00:00Z'));
      expect(occurrenceAt(daily, at('2026-10-26T07:30:00Z'))).toBeNull();
      expect(occurrenceAt(daily, at('2026-10-26T08:30:00Z'))).toEqual({
        startsAt: at('2026-10-26T08:00:00Z'),
        endsAt: at('2026-10-26T09:00:00Z'),
      });
    });

    it('moves a local time the spring change skips to just after it', () => {
      // 02:30 does not exist in Berlin on 28 March 2027: the occurrence starts at 03:30 summer time (01:30 UTC).
      const night = window({
        startsAt: at('2027-03-20T01:30:00Z'),
        recurrence: 'FREQ=DAILY',
        timezone: 'Europe/Berlin',
      });
      expect(nextOccurrence(night, at('2027-03-27T12:00:00Z'))?.startsAt).toEqual(at('2027-03-28T01:30:00Z'));
      expect(nextOccurrence(night, at('2027-03-28T12:00:00Z'))?.startsAt).toEqual(at('2027-03-29T00:30:00Z'));
    });

    it('ends only the occurrence under way when ended now', () => {
      const ended = { ...daily, endedAt: at('2026-10-26T08:10:00Z') };
      expect(occurrenceAt(ended, at('2026-10-26T08:20:00Z'))).toBeNull();
      expect(windowState(ended, at('2026-10-26T08:20:00Z')).next?.startsAt).toEqual(at('2026-10-27T08:00:00Z'));
      expect(occurrenceAt(ended, at('2026-10-27T08:20:00Z'))?.startsAt).toEqual(at('2026-10-27T08:00:00Z'));
    });

    it('stops after its COUNT', () => {
      const twice = window({ recurrence: 'FREQ=WEEKLY;COUNT=2' });
      expect(nextOccurrence(twice, at('2026-10-21T00:00:00Z'))?.startsAt).toEqual(at('2026-10-27T07:00:00Z'));
      expect(windowState(twice, at('2026-10-28T00:00:00Z')).status).toBe('completed');
    });

    it('ends at UNTIL, an instant, whatever the time zone', () => {
      // 10:00 in Tokyo (01:00 UTC) every day, until 05:00 UTC on 3 June: that day's 01:00 UTC occurrence is included.
      const tokyo = window({
        startsAt: at('2026-06-01T01:00:00Z'),
        recurrence: 'FREQ=DAILY;UNTIL=20260603T050000Z',
        timezone: 'Asia/Tokyo',
      });
      expect(occurrenceAt(tokyo, at('2026-06-03T01:30:00Z'))?.startsAt).toEqual(at('2026-06-03T01:00:00Z'));
      expect(nextOccurrence(tokyo, at('2026-06-03T02:00:00Z'))).toBeNull();
    });

    it('answers for a window that has repeated hourly for years, from its occurrences near the time asked', () => {
      const hourly = window({ startsAt: at('2024-01-01T00:00:00Z'), recurrence: 'FREQ=HOURLY', durationMinutes: 5 });
      expect(occurrenceAt(hourly, at('2026-11-28T10:03:00Z'))?.startsAt).toEqual(at('2026-11-28T10:00:00Z'));
      expect(occurrenceAt(hourly, at('2026-11-28T10:06:00Z'))).toBeNull();
      expect(nextOccurrence(hourly, at('2026-11-28T10:06:00Z'))?.startsAt).toEqual(at('2026-11-28T11:00:00Z'));
      // Far from the span expanded last: expanded again.
      expect(occurrenceAt(hourly, at('2027-06-01T23:04:00Z'))?.startsAt).toEqual(at('2027-06-01T23:00:00Z'));
    });

    it('finds a yearly occurrence beyond the span it expands', () => {
      const yearly = window({ startsAt: at('2026-01-15T09:00:00Z'), recurrence: 'FREQ=YEARLY' });
      expect(nextOccurrence(yearly, at('2026-02-01T00:00:00Z'))?.startsAt).toEqual(at('2027-01-15T09:00:00Z'));
    });

    it('is next looked at when an occurrence starts or ends', () => {
      expect(nextTransition(daily, at('2026-10-26T06:00:00Z'))).toEqual(at('2026-10-26T08:00:00Z'));
      expect(nextTransition(daily, at('2026-10-26T08:15:00Z'))).toEqual(at('2026-10-26T09:00:00Z'));
    });
  });

  it('takes RRULEs a window may repeat by, and says what is wrong with others', () => {
    expect(recurrenceProblem('FREQ=WEEKLY;BYDAY=SU')).toBeNull();
    expect(recurrenceProblem('FREQ=MONTHLY;BYMONTHDAY=1;UNTIL=20271231T000000Z')).toBeNull();
    expect(recurrenceProblem('FREQ=MINUTELY')).toBe('may repeat at most hourly');
    // FREQ alone does not say how often: lists of hours and minutes make a daily rule repeat every minute.
    expect(recurrenceProblem('FREQ=DAILY;BYHOUR=0,1,2;BYMINUTE=0,15,30,45')).toBe('may repeat at most hourly');
    expect(recurrenceProblem('FREQ=DAILY;BYHOUR=9,17')).toBeNull();
    expect(recurrenceProblem('FREQ=DAILY;DTSTART=20260101T000000Z')).toMatch(/DTSTART/);
    expect(recurrenceProblem('FREQ=SOMETIMES')).toMatch(/not a valid RRULE|FREQ/);
  });

  it('prefers a window pausing checks over one muting alerts', () => {
    const mute = { ...window({ id: 'mute' }), mode: 'mute_alerts' as const };
    const pause = { ...window({ id: 'pause', durationMinutes: 30 }), mode: 'pause_checks' as const };
    expect(maintenanceAt([mute, pause], at('2026-10-20T07:10:00Z'))?.id).toBe('pause');
    expect(maintenanceAt([mute, pause], at('2026-10-20T07:40:00Z'))?.id).toBe('mute');
    expect(maintenanceAt([mute, pause], at('2026-10-20T09:00:00Z'))).toBeNull();
  });
});
