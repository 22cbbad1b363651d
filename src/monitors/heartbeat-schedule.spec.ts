import {
  expectedAtOf,
  type HeartbeatSchedule,
  heartbeatScheduleOf,
  isScheduleProblem,
  missedMessage,
  nextExpectedAt,
  pingDeadline,
  scheduleIntervalSeconds,
  slotWasPinged,
} from './heartbeat-schedule';

const at = (iso: string) => new Date(iso);

function schedule(input: Parameters<typeof heartbeatScheduleOf>[0], graceSeconds?: number): HeartbeatSchedule {
  const made = heartbeatScheduleOf(input, graceSeconds);
  if (isScheduleProblem(made)) throw new Error(made.message);
  return made;
}

describe('heartbeatScheduleOf', () => {
  it('takes an interval or a cron expression in a zone, with 300 s of grace by default', () => {
    expect(schedule({ interval_seconds: 3600 })).toEqual({
      intervalSeconds: 3600,
      cron: null,
      timezone: 'UTC',
      graceSeconds: 300,
    });
    expect(schedule({ cron: '0 3 * * *', timezone: 'Europe/Paris' }, 0)).toEqual({
      intervalSeconds: null,
      cron: '0 3 * * *',
      timezone: 'Europe/Paris',
      graceSeconds: 0,
    });
  });

  it('names the field of each problem', () => {
    const problem = (input: Parameters<typeof heartbeatScheduleOf>[0]) => heartbeatScheduleOf(input);
    expect(problem({})).toEqual({
      field: 'schedule',
      message: 'must be {interval_seconds} or {cron, timezone}: give one of the two',
    });
    expect(problem({ interval_seconds: 60, cron: '* * * * *' })).toMatchObject({ field: 'schedule' });
    expect(problem({ interval_seconds: 60, timezone: 'UTC' })).toMatchObject({ field: 'schedule.timezone' });
    expect(problem({ cron: '0 3 * * *', timezone: 'Europe/Atlantis' })).toEqual({
      field: 'schedule.timezone',
      message: 'Europe/Atlantis is not an IANA time zone',
    });
    expect(problem({ cron: '61 * * * *' })).toMatchObject({ field: 'schedule.cron' });
    expect(problem({ cron: '*/5 * * * * *' })).toEqual({
      field: 'schedule.cron',
      message: 'runs more often than every 10 seconds',
    });
  });
});

describe('the deadlines of a schedule', () => {
  it('expects the next ping an interval after the last, and misses it after the grace', () => {
    const hourly = schedule({ interval_seconds: 3600 }, 120);
    const ping = at('2026-11-28T10:00:30Z');
    expect(nextExpectedAt(hourly, ping)).toEqual(at('2026-11-28T11:00:30Z'));
    expect(pingDeadline(hourly, ping)).toEqual(at('2026-11-28T11:02:30Z'));
    expect(expectedAtOf(hourly, at('2026-11-28T11:02:30Z'))).toEqual(at('2026-11-28T11:00:30Z'));
  });

  it('expects a cron job at its local time across a daylight-saving change', () => {
    const nightly = schedule({ cron: '30 3 * * *', timezone: 'Europe/Paris' }, 600);
    // Paris is UTC+1 in winter and UTC+2 from 29 March 2026.
    expect(nextExpectedAt(nightly, at('2026-03-28T03:00:00Z'))).toEqual(at('2026-03-29T01:30:00Z'));
    expect(nextExpectedAt(nightly, at('2026-03-27T03:00:00Z'))).toEqual(at('2026-03-28T02:30:00Z'));
    expect(pingDeadline(nightly, at('2026-03-28T03:00:00Z'))).toEqual(at('2026-03-29T01:40:00Z'));
    expect(scheduleIntervalSeconds(nightly, at('2026-06-01T00:00:00Z'))).toBe(86_400);
  });

  it('knows a slot was pinged when a ping came at or after its expected time', () => {
    const hourly = schedule({ interval_seconds: 3600 }, 300);
    const deadline = at('2026-11-28T11:05:00Z');
    expect(slotWasPinged(hourly, deadline, null)).toBe(false);
    expect(slotWasPinged(hourly, deadline, at('2026-11-28T10:00:00Z'))).toBe(false);
    expect(slotWasPinged(hourly, deadline, at('2026-11-28T11:00:00Z'))).toBe(true);
    expect(slotWasPinged(hourly, deadline, at('2026-11-28T11:06:00Z'))).toBe(true);
  });

  it('takes a cron job’s ping that comes a little early as that time’s ping', () => {
    const nightly = schedule({ cron: '0 3 * * *' }, 300);
    // A clock a second ahead: the ping for 03:00 arrives at 02:59:59.
    const early = at('2026-11-28T02:59:59Z');
    expect(nextExpectedAt(nightly, early)).toEqual(at('2026-11-29T03:00:00Z'));
    expect(slotWasPinged(nightly, at('2026-11-28T03:05:00Z'), early)).toBe(true);
    expect(slotWasPinged(nightly, at('2026-11-28T03:05:00Z'), at('2026-11-28T02:58:00Z'))).toBe(false);
    expect(heartbeatScheduleOf({ cron: '0,5 * * * * *' })).toMatchObject({ field: 'schedule.cron' });
  });

  it('says what was missed, and since when', () => {
    const hourly = schedule({ interval_seconds: 3600 }, 300);
    expect(missedMessage(hourly, at('2026-11-28T11:05:00Z'), at('2026-11-28T10:00:00Z'))).toBe(
      'no ping since 2026-11-28T10:00:00.000Z; one was expected at 2026-11-28T11:00:00.000Z (300 s of grace)',
    );
    expect(missedMessage(hourly, at('2026-11-28T11:05:00Z'), null)).toMatch(/^no ping yet; /);
  });
});
