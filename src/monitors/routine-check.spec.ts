import {
  type IncidentRule,
  leavesRuleAsItIs,
  nextRuleState,
  type RuleCheck,
  withParent,
} from '../alerts/rule-transition';
import { type CheckSeen, isRoutineCheck, type MonitorAsRead } from './routine-check';

const NOW = new Date('2026-12-01T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

function rule(overrides: Partial<IncidentRule> = {}): IncidentRule {
  return {
    id: 'rule-1',
    event: 'down',
    enabled: true,
    state: 'ok',
    streaks: {},
    consecutiveFailures: 1,
    minRegions: 1,
    thresholdMs: null,
    notifyRecovery: true,
    reminderMinutes: null,
    notifiedAt: null,
    daysBefore: null,
    firedFor: null,
    ...overrides,
  };
}

/** A certificate served at NOW with `days` whole days left. */
function certificate(days: number, fingerprintSha256 = `FP-${days}`, verified = true) {
  const expiresAt = new Date(NOW.getTime() + days * 86_400_000 + 3_600_000).toISOString();
  return {
    expiresAt,
    validFrom: '2026-09-01T00:00:00.000Z',
    issuer: 'CN=Test CA',
    subject: 'CN=shop',
    fingerprintSha256,
    verified,
  };
}

const STORED_METADATA = { title: 'Shop', robots: null, canonical: '/', status_class: '2xx' };

function check(overrides: Partial<RuleCheck> = {}): RuleCheck {
  return {
    region: 'eu',
    ok: true,
    responseTimeMs: 100,
    checkedAt: NOW,
    certificate: null,
    maintenanceWindowId: null,
    ...overrides,
  };
}

/** An unpaused monitor checked from eu and us, up in both, with stored content `h1`. */
function monitor(overrides: Partial<MonitorAsRead> = {}): MonitorAsRead {
  return {
    regions: ['eu', 'us'],
    status: 'up',
    paused: false,
    regionStatus: { eu: 'up', us: 'up' },
    contentHash: 'h1',
    metadata: STORED_METADATA,
    certificate: null,
    rules: [],
    ...overrides,
  };
}

/** A passing check from eu that found the stored content and tracks no values. */
function seen(overrides: Partial<CheckSeen> = {}): CheckSeen {
  return {
    region: 'eu',
    ok: true,
    responseTimeMs: 100,
    checkedAt: NOW,
    content: { contentHash: 'h1', trackedValues: [] },
    metadata: STORED_METADATA,
    certificate: null,
    maintenanceWindowId: null,
    visualChanged: false,
    learned: false,
    ...overrides,
  };
}

describe('nextRuleState', () => {
  it('confirms a down rule only after consecutive_failures in a row in min_regions regions, then fires once', () => {
    const regions = ['eu', 'us'];
    let current = rule({ consecutiveFailures: 2, minRegions: 2 });
    const step = (region: string, ok: boolean) => {
      const next = nextRuleState(current, regions, check({ region, ok }));
      current = { ...current, state: next.state, streaks: next.streaks, notifiedAt: next.notifiedAt };
      return next;
    };
    expect(step('eu', false)).toEqual({
      state: 'pending',
      streaks: { eu: 1, us: 0 },
      notifiedAt: null,
      firedFor: null,
      notify: null,
    });
    // eu is confirmed, but one region of the two is not enough.
    expect(step('eu', false)).toEqual({
      state: 'pending',
      streaks: { eu: 2, us: 0 },
      notifiedAt: null,
      firedFor: null,
      notify: null,
    });
    expect(step('us', false)).toEqual({
      state: 'pending',
      streaks: { eu: 2, us: 1 },
      notifiedAt: null,
      firedFor: null,
      notify: null,
    });
    expect(step('us', false)).toEqual({
      state: 'firing',
      streaks: { eu: 2, us: 2 },
      notifiedAt: NOW,
      firedFor: null,
      notify: 'down',
    });
    // Firing and still failing: no second alert without a reminder.
    expect(step('eu', false)).toEqual({
      state: 'firing',
      streaks: { eu: 3, us: 2 },
      notifiedAt: NOW,
      firedFor: null,
      notify: null,
    });
    // A pass in eu resets its streak: no longer confirmed in two regions, so it recovers to pending.
    expect(step('eu', true)).toEqual({
      state: 'pending',
      streaks: { eu: 0, us: 2 },
      notifiedAt: NOW,
      firedFor: null,
      notify: 'recovered',
    });
  });

  it('leaves every rule as it is during maintenance: nothing fires, recovers or reminds', () => {
    const inMaintenance = { maintenanceWindowId: 'window-1' };
    const ok = rule();
    expect(nextRuleState(ok, ['eu'], check({ ok: false, ...inMaintenance }))).toEqual({
      state: 'ok',
      streaks: {},
      notifiedAt: null,
      firedFor: null,
      notify: null,
    });
    const firing = rule({ state: 'firing', streaks: { eu: 2 }, notifiedAt: minutesAgo(120), reminderMinutes: 60 });
    expect(nextRuleState(firing, ['eu'], check({ ...inMaintenance }))).toMatchObject({ state: 'firing', notify: null });
    expect(nextRuleState(firing, ['eu'], check({ ok: false, ...inMaintenance }))).toMatchObject({ notify: null });
    // After the window, the next check moves the rule as usual: a failure after it counts from where it was.
    expect(nextRuleState(ok, ['eu'], check({ ok: false }))).toMatchObject({ state: 'firing', notify: 'down' });
  });

  it('asks for no more regions than the monitor has', () => {
    const next = nextRuleState(rule({ minRegions: 3 }), ['eu'], check({ ok: false }));
    expect(next).toMatchObject({ state: 'firing', notify: 'down' });
  });

  it('counts a pass slower than threshold_ms as a response_time failure, and a failed check not at all', () => {
    const slow = rule({ event: 'response_time', thresholdMs: 200 });
    expect(nextRuleState(slow, ['eu'], check({ responseTimeMs: 201 }))).toMatchObject({
      state: 'firing',
      streaks: { eu: 1 },
      notify: 'down',
    });
    expect(nextRuleState(slow, ['eu'], check({ responseTimeMs: 200 }))).toMatchObject({ state: 'ok', notify: null });
    expect(nextRuleState(slow, ['eu'], check({ ok: false, responseTimeMs: 30_000 }))).toMatchObject({
      state: 'ok',
      streaks: { eu: 0 },
      notify: null,
    });
  });

  it('recovers a firing rule on a pass, telling it only when the rule asks to', () => {
    const firing = rule({ state: 'firing', streaks: { eu: 4 }, notifiedAt: minutesAgo(10) });
    expect(nextRuleState(firing, ['eu'], check())).toEqual({
      state: 'ok',
      streaks: { eu: 0 },
      notifiedAt: null,
      firedFor: null,
      notify: 'recovered',
    });
    expect(nextRuleState({ ...firing, notifyRecovery: false }, ['eu'], check())).toMatchObject({
      state: 'ok',
      notify: null,
    });
  });

  it('reminds every reminder_minutes while the incident lasts', () => {
    const firing = rule({ state: 'firing', streaks: { eu: 3 }, reminderMinutes: 30, notifiedAt: minutesAgo(30) });
    expect(nextRuleState(firing, ['eu'], check({ ok: false }))).toEqual({
      state: 'firing',
      streaks: { eu: 4 },
      notifiedAt: NOW,
      firedFor: null,
      notify: 'reminder',
    });
    const notYet = { ...firing, notifiedAt: minutesAgo(29) };
    expect(nextRuleState(notYet, ['eu'], check({ ok: false }))).toMatchObject({ notifiedAt: notYet.notifiedAt });
    expect(nextRuleState(notYet, ['eu'], check({ ok: false })).notify).toBeNull();
  });

  it('keeps streaks for the monitor’s regions only', () => {
    const next = nextRuleState(rule({ state: 'pending', streaks: { gone: 2, eu: 1 } }), ['eu', 'us'], check());
    expect(next.streaks).toEqual({ eu: 0, us: 0 });
    expect(next.state).toBe('ok');
  });
});

describe('nextRuleState of a certificate_expiry rule', () => {
  const expiry = (overrides: Partial<IncidentRule> = {}) =>
    rule({ event: 'certificate_expiry', daysBefore: 14, ...overrides });

  it('fires once per certificate when it has at most days_before days left, whatever the check’s verdict', () => {
    const soon = certificate(5);
    const fired = nextRuleState(expiry(), ['eu'], check({ certificate: soon }));
    expect(fired).toEqual({ state: 'firing', streaks: {}, notifiedAt: NOW, firedFor: 'FP-5', notify: 'down' });
    const firing = expiry({ state: 'firing', firedFor: 'FP-5', notifiedAt: NOW });
    expect(nextRuleState(firing, ['eu'], check({ certificate: soon, ok: false })).notify).toBeNull();
    expect(leavesRuleAsItIs(firing, nextRuleState(firing, ['eu'], check({ certificate: soon })))).toBe(true);
    // Exactly days_before days left fires; one more does not.
    expect(nextRuleState(expiry(), ['eu'], check({ certificate: certificate(14) })).notify).toBe('down');
    expect(nextRuleState(expiry(), ['eu'], check({ certificate: certificate(15) })).notify).toBeNull();
  });

  it('fires again for another certificate that also expires soon', () => {
    const firing = expiry({ state: 'firing', firedFor: 'FP-5', notifiedAt: NOW });
    expect(nextRuleState(firing, ['eu'], check({ certificate: certificate(3, 'OTHER') }))).toMatchObject({
      state: 'firing',
      firedFor: 'OTHER',
      notify: 'down',
    });
  });

  it('clears when a certificate with more days left is served, telling it only when the rule asks to', () => {
    const firing = expiry({ state: 'firing', firedFor: 'FP-5', notifiedAt: NOW });
    const renewed = check({ certificate: certificate(90) });
    expect(nextRuleState(firing, ['eu'], renewed)).toEqual({
      state: 'ok',
      streaks: {},
      notifiedAt: null,
      firedFor: 'FP-5',
      notify: 'recovered',
    });
    expect(nextRuleState({ ...firing, notifyRecovery: false }, ['eu'], renewed).notify).toBeNull();
  });

  it('never alerts twice for one certificate: two served in turn tell one expiry and one renewal', () => {
    let current = expiry();
    const told: (string | null)[] = [];
    for (const served of [certificate(5), certificate(90), certificate(5), certificate(90), certificate(5)]) {
      const next = nextRuleState(current, ['eu'], check({ certificate: served }));
      told.push(next.notify);
      current = { ...current, state: next.state, notifiedAt: next.notifiedAt, firedFor: next.firedFor };
    }
    expect(told).toEqual(['down', 'recovered', null, null, null]);
  });

  it('is not ended by the same certificate read with more days left, nor by a refused one', () => {
    const firing = expiry({ state: 'firing', firedFor: 'FP-5', notifiedAt: NOW });
    // An earlier check of the same certificate committing late.
    expect(nextRuleState(firing, ['eu'], check({ certificate: certificate(20, 'FP-5') })).notify).toBeNull();
    // A default certificate for another host, refused by the check, with a later date.
    const refused = nextRuleState(firing, ['eu'], check({ ok: false, certificate: certificate(300, 'WRONG', false) }));
    expect(refused).toMatchObject({ state: 'firing', notify: null, firedFor: 'FP-5' });
  });

  it('leaves the rule as it is when the check was served no certificate', () => {
    const firing = expiry({ state: 'firing', firedFor: 'FP-5', notifiedAt: NOW });
    expect(leavesRuleAsItIs(firing, nextRuleState(firing, ['eu'], check({ ok: false })))).toBe(true);
    expect(leavesRuleAsItIs(expiry(), nextRuleState(expiry(), ['eu'], check()))).toBe(true);
  });
});

describe('withParent (dependencies)', () => {
  /** A rule of a child monitor, one step at a time, as the alerting step applies it. */
  function child() {
    let current = { ...rule(), heldSince: null as Date | null };
    return (ok: boolean, parentDown: boolean, extra: Partial<RuleCheck> = {}) => {
      const checked = check({ ok, ...extra });
      const next = withParent(current, nextRuleState(current, ['eu'], checked), checked, parentDown);
      current = { ...current, ...next };
      return next;
    };
  }

  it('holds the alert of a child whose parent is down, once, and tells its own state once the parent is up', () => {
    const step = child();
    expect(step(false, true)).toMatchObject({ state: 'firing', notify: null, held: true, heldSince: NOW });
    // Still down with the parent: nothing more is held or told.
    expect(step(false, true)).toMatchObject({ state: 'firing', notify: null, held: false, heldSince: NOW });
    // The parent is up and the child still fails: its own down is told now.
    expect(step(false, false)).toMatchObject({ state: 'firing', notify: 'down', held: false, heldSince: null });
    expect(step(true, false)).toMatchObject({ state: 'ok', notify: 'recovered' });
  });

  it('tells nothing when a held child recovers: its down was never told', () => {
    const step = child();
    step(false, true);
    expect(step(true, true)).toMatchObject({ state: 'ok', notify: null, heldSince: null });
    expect(step(true, false)).toMatchObject({ state: 'ok', notify: null });
  });

  it('still sends the recovery of a child that alerted before its parent went down, and holds its reminders', () => {
    const firing = {
      ...rule({ state: 'firing', streaks: { eu: 1 }, notifiedAt: minutesAgo(90), reminderMinutes: 60 }),
    };
    const held = { ...firing, heldSince: null };
    const reminder = nextRuleState(held, ['eu'], check({ ok: false }));
    expect(reminder.notify).toBe('reminder');
    expect(withParent(held, reminder, check({ ok: false }), true)).toMatchObject({
      notify: null,
      notifiedAt: firing.notifiedAt,
    });
    const recovery = nextRuleState(held, ['eu'], check());
    expect(withParent(held, recovery, check(), true)).toMatchObject({ notify: 'recovered', held: false });
  });

  it('leaves rules of other events and checks during maintenance to nextRuleState', () => {
    const expiry = { ...rule({ event: 'certificate_expiry' }), heldSince: null };
    const transition = {
      state: 'firing' as const,
      streaks: {},
      notifiedAt: NOW,
      firedFor: 'x',
      notify: 'down' as const,
    };
    expect(withParent(expiry, transition, check(), true)).toMatchObject({ notify: 'down', held: false });
    const down = { ...rule(), heldSince: NOW };
    const frozen = nextRuleState(down, ['eu'], check({ ok: false, maintenanceWindowId: 'w' }));
    expect(withParent(down, frozen, check({ ok: false, maintenanceWindowId: 'w' }), false)).toMatchObject({
      notify: null,
      heldSince: NOW,
    });
  });
});

describe('leavesRuleAsItIs', () => {
  it('counts a region without a streak as a streak of 0', () => {
    const fresh = rule();
    expect(leavesRuleAsItIs(fresh, nextRuleState(fresh, ['eu', 'us'], check()))).toBe(true);
  });

  it('sees a moved streak, state or notifiedAt, and any notice', () => {
    const fresh = rule({ consecutiveFailures: 3 });
    expect(leavesRuleAsItIs(fresh, nextRuleState(fresh, ['eu'], check({ ok: false })))).toBe(false);
    const base = { state: 'ok' as const, streaks: { eu: 0 }, notifiedAt: null, firedFor: null, notify: null };
    expect(leavesRuleAsItIs(fresh, base)).toBe(true);
    expect(leavesRuleAsItIs(fresh, { ...base, state: 'pending' })).toBe(false);
    expect(leavesRuleAsItIs(fresh, { ...base, notifiedAt: NOW })).toBe(false);
    expect(leavesRuleAsItIs(fresh, { ...base, notify: 'recovered' })).toBe(false);
  });
});

describe('isRoutineCheck', () => {
  it('is routine when nothing moves: same verdict, status and content, no rules', () => {
    expect(isRoutineCheck(monitor(), seen())).toBe(true);
  });

  it('is routine with an ok rule and a check it does not count as failing (a fresh rule stores no streaks)', () => {
    const rules = [rule(), rule({ id: 'rule-2', event: 'response_time', thresholdMs: 500 })];
    expect(isRoutineCheck(monitor({ rules }), seen({ responseTimeMs: 500 }))).toBe(true);
  });

  it('is not routine when a down rule’s streak moves, even before it is confirmed', () => {
    // Already down in eu: the status does not move, only the rule's streak does (1 of 3, in one of two regions).
    const down = monitor({ status: 'down', regionStatus: { eu: 'down', us: 'up' } });
    const rules = [rule({ state: 'pending', streaks: { eu: 1, us: 0 }, consecutiveFailures: 3, minRegions: 2 })];
    expect(isRoutineCheck({ ...down, rules }, seen({ ok: false, content: null }))).toBe(false);
    expect(isRoutineCheck({ ...down, rules: [] }, seen({ ok: false, content: null }))).toBe(true);
  });

  it('is not routine when a check is slower than a response_time rule’s threshold', () => {
    const rules = [rule({ event: 'response_time', thresholdMs: 200 })];
    expect(isRoutineCheck(monitor({ rules }), seen({ responseTimeMs: 201 }))).toBe(false);
    expect(isRoutineCheck(monitor({ rules }), seen({ responseTimeMs: 199 }))).toBe(true);
  });

  it('passes over disabled rules and rules on changes', () => {
    const rules = [
      rule({ event: 'response_time', thresholdMs: 200, enabled: false }),
      rule({ id: 'rule-2', event: 'change' }),
      rule({ id: 'rule-3', event: 'value_change' }),
    ];
    expect(isRoutineCheck(monitor({ rules }), seen({ responseTimeMs: 5_000 }))).toBe(true);
  });

  it('is not routine when a firing rule recovers', () => {
    const down = monitor({ status: 'down', regionStatus: { eu: 'up', us: 'down' } });
    const rules = [rule({ state: 'firing', streaks: { eu: 0, us: 2 }, notifiedAt: minutesAgo(5) })];
    // us passes again: its verdict moves too, and so does the rule.
    expect(isRoutineCheck({ ...down, rules }, seen({ region: 'us' }))).toBe(false);
    // Whatever the status: a rule whose threshold is no longer passed recovers.
    const slow = [rule({ event: 'response_time', thresholdMs: 200, state: 'firing', streaks: { eu: 1, us: 0 } })];
    expect(isRoutineCheck(monitor({ rules: slow }), seen({ responseTimeMs: 50 }))).toBe(false);
  });

  it('is not routine when a reminder is due, and routine while the incident rests as it is', () => {
    // Down in us and firing; a pass from eu changes nothing but may be the time to remind.
    const down = monitor({ status: 'down', regionStatus: { eu: 'up', us: 'down' } });
    const firing = rule({ state: 'firing', streaks: { eu: 0, us: 3 }, reminderMinutes: 60 });
    expect(isRoutineCheck({ ...down, rules: [{ ...firing, notifiedAt: minutesAgo(60) }] }, seen())).toBe(false);
    expect(isRoutineCheck({ ...down, rules: [{ ...firing, notifiedAt: minutesAgo(59) }] }, seen())).toBe(true);
  });

  it('is not routine while a rule holds an alert for its parent’s outage: its next move may tell it', () => {
    const firing = rule({ state: 'firing', streaks: { eu: 0, us: 2 } });
    const down = monitor({ status: 'down', regionStatus: { eu: 'up', us: 'down' } });
    expect(isRoutineCheck({ ...down, rules: [firing] }, seen())).toBe(true);
    expect(isRoutineCheck({ ...down, rules: [{ ...firing, held: true }] }, seen())).toBe(false);
  });

  it('is routine during maintenance when only a rule would have moved', () => {
    const down = monitor({ status: 'down', regionStatus: { eu: 'down', us: 'up' } });
    const rules = [rule({ state: 'pending', streaks: { eu: 1, us: 0 }, consecutiveFailures: 3 })];
    expect(isRoutineCheck({ ...down, rules }, seen({ ok: false, content: null }))).toBe(false);
    expect(
      isRoutineCheck({ ...down, rules }, seen({ ok: false, content: null, maintenanceWindowId: 'window-1' })),
    ).toBe(true);
  });

  it('is routine for a pending rule when the check leaves its streaks as they are', () => {
    const down = monitor({ status: 'down', regionStatus: { eu: 'up', us: 'down' } });
    const rules = [rule({ state: 'pending', streaks: { eu: 0, us: 1 }, consecutiveFailures: 2 })];
    expect(isRoutineCheck({ ...down, rules }, seen())).toBe(true);
    expect(isRoutineCheck({ ...down, rules }, seen({ region: 'us', ok: false, content: null }))).toBe(false);
  });

  it('is not routine for a rule whose stored incident is out of step with its streaks', () => {
    // A streak left for a region the monitor no longer checks from, or a notifiedAt left on an ok rule: the full
    // recording puts the rule straight.
    expect(isRoutineCheck(monitor({ rules: [rule({ streaks: { gone: 2 } })] }), seen())).toBe(false);
    expect(isRoutineCheck(monitor({ rules: [rule({ notifiedAt: minutesAgo(1) })] }), seen())).toBe(false);
  });

  it('is not routine for a paused monitor', () => {
    expect(isRoutineCheck(monitor({ paused: true, status: 'paused' }), seen())).toBe(false);
  });

  it('is not routine when the region’s verdict or the monitor’s status moves', () => {
    expect(isRoutineCheck(monitor(), seen({ ok: false, content: null }))).toBe(false);
    // The first check: pending until a region has a verdict.
    expect(isRoutineCheck(monitor({ status: 'pending', regionStatus: {}, contentHash: null }), seen())).toBe(false);
    // A region that has a verdict the monitor's regions no longer include.
    expect(isRoutineCheck(monitor({ regions: ['eu'], regionStatus: { eu: 'up', us: 'up' } }), seen())).toBe(false);
  });

  it('is not routine when the content moves or the check tracks values', () => {
    expect(isRoutineCheck(monitor(), seen({ content: { contentHash: 'h2', trackedValues: [] } }))).toBe(false);
    expect(isRoutineCheck(monitor({ contentHash: null }), seen())).toBe(false);
    const price = { name: 'price', kind: 'price', raw: '49', amount: 49, currency: 'EUR' };
    expect(isRoutineCheck(monitor(), seen({ content: { contentHash: 'h1', trackedValues: [price] } }))).toBe(false);
    // A failed check records no content, whatever it extracted.
    expect(
      isRoutineCheck(
        monitor({ status: 'down', regionStatus: { eu: 'down', us: 'up' } }),
        seen({ ok: false, content: null }),
      ),
    ).toBe(true);
  });

  it('is not routine when the metadata, the screenshot or what moves on its own is new to the monitor', () => {
    expect(isRoutineCheck(monitor(), seen({ metadata: { ...STORED_METADATA, robots: 'noindex' } }))).toBe(false);
    expect(isRoutineCheck(monitor({ metadata: null }), seen())).toBe(false);
    expect(isRoutineCheck(monitor(), seen({ visualChanged: true }))).toBe(false);
    expect(isRoutineCheck(monitor(), seen({ learned: true }))).toBe(false);
    // A failed check stores no metadata.
    expect(
      isRoutineCheck(
        monitor({ status: 'down', regionStatus: { eu: 'down', us: 'up' } }),
        seen({ ok: false, content: null, metadata: null }),
      ),
    ).toBe(true);
  });

  it('is not routine when the certificate is new to the monitor or moves a certificate_expiry rule', () => {
    const stored = certificate(60);
    expect(isRoutineCheck(monitor({ certificate: stored }), seen({ certificate: stored }))).toBe(true);
    expect(isRoutineCheck(monitor(), seen({ certificate: stored }))).toBe(false);
    expect(isRoutineCheck(monitor({ certificate: stored }), seen({ certificate: certificate(90) }))).toBe(false);
    const expiry = rule({ event: 'certificate_expiry', daysBefore: 59 });
    expect(isRoutineCheck(monitor({ certificate: stored, rules: [expiry] }), seen({ certificate: stored }))).toBe(true);
    const closer = rule({ event: 'certificate_expiry', daysBefore: 60 });
    expect(isRoutineCheck(monitor({ certificate: stored, rules: [closer] }), seen({ certificate: stored }))).toBe(
      false,
    );
  });
});
