import { deriveStatus } from './routine-check';
import { averageResponseMs, lastHours, uptimePercent, uptimeWindowRange } from './uptime-reader';

describe('uptime arithmetic', () => {
  it('is the share of passed checks to three decimals, and no figure without checks', () => {
    expect(uptimePercent({ checks: 0, passed: 0 })).toBeNull();
    expect(uptimePercent({ checks: 3, passed: 2 })).toBe(66.667);
    expect(uptimePercent({ checks: 100_000, passed: 99_999 })).toBe(99.999);
    expect(uptimePercent({ checks: 4, passed: 4 })).toBe(100);
  });

  it('averages response times to a tenth of a millisecond', () => {
    expect(averageResponseMs({ checks: 0, responseMsSum: 0 })).toBeNull();
    expect(averageResponseMs({ checks: 3, responseMsSum: 100 })).toBe(33.3);
  });

  it('counts whole hours, the current one included', () => {
    const now = new Date('2026-11-27T10:42:00Z');
    expect(lastHours(1, now)).toEqual({ from: new Date('2026-11-27T10:00:00Z'), to: new Date('2026-11-27T11:00:00Z') });
    expect(uptimeWindowRange('24h', now)).toEqual({
      from: new Date('2026-11-26T11:00:00Z'),
      to: new Date('2026-11-27T11:00:00Z'),
    });
    const month = uptimeWindowRange('30d', now);
    expect((month.to.getTime() - month.from.getTime()) / 3_600_000).toBe(720);
  });
});

describe('deriveStatus: down when any region last failed, up when one passed and none failed', () => {
  const monitor = { regions: ['eu', 'us'], regionStatus: {}, paused: false };

  it('is pending until a region reports, then follows the latest check of each region', () => {
    expect(deriveStatus(monitor, 'eu', true)).toEqual({ regionStatus: { eu: 'up' }, status: 'up' });
    expect(deriveStatus({ ...monitor, regionStatus: { eu: 'up' } }, 'us', false)).toEqual({
      regionStatus: { eu: 'up', us: 'down' },
      status: 'down',
    });
    expect(deriveStatus({ ...monitor, regionStatus: { eu: 'up', us: 'down' } }, 'us', true).status).toBe('up');
  });

  it('forgets regions the monitor no longer checks from, and says paused while paused', () => {
    expect(deriveStatus({ ...monitor, regionStatus: { ap: 'down' } }, 'eu', true)).toEqual({
      regionStatus: { eu: 'up' },
      status: 'up',
    });
    expect(deriveStatus({ ...monitor, paused: true }, 'eu', false).status).toBe('paused');
  });
});
