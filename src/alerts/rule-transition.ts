import type { AlertRule, RuleState } from './entities/alert-rule.entity';

/** What of an alert rule its incident state moves on: the entity itself, or the rule as a check reads it. */
export type IncidentRule = Pick<
  AlertRule,
  | 'id'
  | 'event'
  | 'enabled'
  | 'state'
  | 'streaks'
  | 'consecutiveFailures'
  | 'minRegions'
  | 'thresholdMs'
  | 'notifyRecovery'
  | 'reminderMinutes'
  | 'notifiedAt'
>;

/** What of a check a rule's incident state moves on. */
export interface RuleCheck {
  region: string;
  ok: boolean;
  responseTimeMs: number;
  checkedAt: Date;
}

/** What a rule tells about a check: the monitor went down (or a reminder that it still is), or it recovered. */
export type RuleNotice = 'down' | 'reminder' | 'recovered';

/** A rule's incident state after a check, and what the check makes it tell. */
export interface RuleTransition {
  state: RuleState;
  /** Failing checks in a row, per region of the monitor (and the check's region). */
  streaks: Record<string, number>;
  notifiedAt: Date | null;
  notify: RuleNotice | null;
}

/** Whether checks move the rule's incident state: enabled `down` and `response_time` rules; other events do not. */
export function movesWithChecks(rule: Pick<IncidentRule, 'event' | 'enabled'>): boolean {
  return rule.enabled && (rule.event === 'down' || rule.event === 'response_time');
}

/** Whether the check counts as a failure for the rule: a failed check for `down`, a slow pass for `response_time`. */
export function failsRule(rule: Pick<IncidentRule, 'event' | 'thresholdMs'>, check: RuleCheck): boolean {
  return rule.event === 'down' ? !check.ok : check.ok && check.responseTimeMs > (rule.thresholdMs ?? 0);
}

/**
 * Where a check moves a rule's incident (pure: the caller applies it). The check's region's streak grows on a failing
 * check and resets on any other; the incident is confirmed once `minRegions` of the monitor's regions (at most all of
 * them) have failed `consecutiveFailures` times in a row. Confirmed, the rule fires and tells `down`, or, firing
 * already, tells a `reminder` every `reminderMinutes`; unconfirmed, a firing rule recovers (telling `recovered` when
 * the rule asks for it) and the rule is `pending` while any region still has failures, `ok` when none has.
 */
export function nextRuleState(rule: IncidentRule, monitorRegions: readonly string[], check: RuleCheck): RuleTransition {
  const streaks = Object.fromEntries(monitorRegions.map((region) => [region, rule.streaks[region] ?? 0]));
  streaks[check.region] = failsRule(rule, check) ? (streaks[check.region] ?? 0) + 1 : 0;
  const confirmedRegions = Object.values(streaks).filter((streak) => streak >= rule.consecutiveFailures).length;
  const confirmed = confirmedRegions >= Math.min(rule.minRegions, monitorRegions.length);
  const now = check.checkedAt;
  if (confirmed && rule.state !== 'firing') return { state: 'firing', streaks, notifiedAt: now, notify: 'down' };
  if (confirmed) {
    const due =
      rule.reminderMinutes !== null &&
      now.getTime() - (rule.notifiedAt?.getTime() ?? 0) >= rule.reminderMinutes * 60_000;
    return due
      ? { state: 'firing', streaks, notifiedAt: now, notify: 'reminder' }
      : { state: 'firing', streaks, notifiedAt: rule.notifiedAt, notify: null };
  }
  const notify = rule.state === 'firing' && rule.notifyRecovery ? 'recovered' : null;
  const state = Object.values(streaks).some((streak) => streak > 0) ? 'pending' : 'ok';
  return { state, streaks, notifiedAt: state === 'ok' ? null : rule.notifiedAt, notify };
}

/**
 * Whether the transition leaves the rule exactly as it is: same state, same `notifiedAt`, nothing told, and the same
 * streaks, a region without a streak counting as a streak of 0 (a rule that never saw a failure stores `{}`).
 */
export function leavesRuleAsItIs(
  rule: Pick<IncidentRule, 'state' | 'streaks' | 'notifiedAt'>,
  transition: RuleTransition,
): boolean {
  if (transition.notify !== null || transition.state !== rule.state) return false;
  if ((transition.notifiedAt?.getTime() ?? null) !== (rule.notifiedAt?.getTime() ?? null)) return false;
  const regions = new Set([...Object.keys(rule.streaks), ...Object.keys(transition.streaks)]);
  return [...regions].every((region) => (rule.streaks[region] ?? 0) === (transition.streaks[region] ?? 0));
}
