import { daysLeft, type ServedCertificate } from '../../libs/net-guard';
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
  | 'daysBefore'
  | 'firedFor'
>;

/** What of a check a rule's incident state moves on. */
export interface RuleCheck {
  region: string;
  ok: boolean;
  responseTimeMs: number;
  checkedAt: Date;
  /** The certificate the check was served over HTTPS; null for http or when no handshake completed. */
  certificate: ServedCertificate | null;
  /** The maintenance window muting the monitor's alerts when the check ran; null outside maintenance. */
  maintenanceWindowId: string | null;
}

/** What a rule tells about a check: the monitor went down (or a reminder that it still is), or it recovered. */
export type RuleNotice = 'down' | 'reminder' | 'recovered';

/** A rule's incident state after a check, and what the check makes it tell. */
export interface RuleTransition {
  state: RuleState;
  /** Failing checks in a row, per region of the monitor (and the check's region). */
  streaks: Record<string, number>;
  notifiedAt: Date | null;
  /** The certificate a `certificate_expiry` rule fired for; null for other rules and while not firing. */
  firedFor: string | null;
  notify: RuleNotice | null;
}

/** Whether checks move the rule's state: enabled `down`, `response_time` and `certificate_expiry` rules. */
export function movesWithChecks(rule: Pick<IncidentRule, 'event' | 'enabled'>): boolean {
  return (
    rule.enabled && (rule.event === 'down' || rule.event === 'response_time' || rule.event === 'certificate_expiry')
  );
}

/** Whether the check counts as a failure for the rule: a failed check for `down`, a slow pass for `response_time`. */
export function failsRule(rule: Pick<IncidentRule, 'event' | 'thresholdMs'>, check: RuleCheck): boolean {
  return rule.event === 'down' ? !check.ok : check.ok && check.responseTimeMs > (rule.thresholdMs ?? 0);
}

/** The rule as it is, telling nothing. */
const unchanged = (rule: IncidentRule): RuleTransition => ({
  state: rule.state,
  streaks: rule.streaks,
  notifiedAt: rule.notifiedAt,
  firedFor: rule.firedFor,
  notify: null,
});

/**
 * Where a check moves a rule's incident (pure: the caller applies it). The check's region's streak grows on a failing
 * check and resets on any other; the incident is confirmed once `minRegions` of the monitor's regions (at most all of
 * them) have failed `consecutiveFailures` times in a row. Confirmed, the rule fires and tells `down`, or, firing
 * already, tells a `reminder` every `reminderMinutes`; unconfirmed, a firing rule recovers (telling `recovered` when
 * the rule asks for it) and the rule is `pending` while any region still has failures, `ok` when none has. A check
 * made during maintenance leaves the rule as it is.
 */
export function nextRuleState(rule: IncidentRule, monitorRegions: readonly string[], check: RuleCheck): RuleTransition {
  // Maintenance holds every rule where it is: nothing fires, recovers or reminds, and nothing is kept to tell later.
  if (check.maintenanceWindowId !== null) return unchanged(rule);
  if (rule.event === 'certificate_expiry') return nextCertificateRuleState(rule, check);
  const streaks = Object.fromEntries(monitorRegions.map((region) => [region, rule.streaks[region] ?? 0]));
  streaks[check.region] = failsRule(rule, check) ? (streaks[check.region] ?? 0) + 1 : 0;
  const confirmedRegions = Object.values(streaks).filter((streak) => streak >= rule.consecutiveFailures).length;
  const confirmed = confirmedRegions >= Math.min(rule.minRegions, monitorRegions.length);
  const now = check.checkedAt;
  if (confirmed && rule.state !== 'firing') {
    return { state: 'firing', streaks, notifiedAt: now, firedFor: null, notify: 'down' };
  }
  if (confirmed) {
    const due =
      rule.reminderMinutes !== null &&
      now.getTime() - (rule.notifiedAt?.getTime() ?? 0) >= rule.reminderMinutes * 60_000;
    return due
      ? { state: 'firing', streaks, notifiedAt: now, firedFor: null, notify: 'reminder' }
      : { state: 'firing', streaks, notifiedAt: rule.notifiedAt, firedFor: null, notify: null };
  }
  const notify = rule.state === 'firing' && rule.notifyRecovery ? 'recovered' : null;
  const state = Object.values(streaks).some((streak) => streak > 0) ? 'pending' : 'ok';
  return { state, streaks, notifiedAt: state === 'ok' ? null : rule.notifiedAt, firedFor: null, notify };
}

/**
 * What identifies a served certificate: its fingerprint, or, where the browser does not tell it (browser monitors),
 * its subject, issuer and expiry. A renewed certificate has another either way.
 */
export const certificateIdentity = (certificate: ServedCertificate): string =>
  certificate.fingerprintSha256 ?? `${certificate.subject}|${certificate.issuer}|${certificate.expiresAt}`;

/**
 * A `certificate_expiry` rule's move (no streaks, no confirmation, no reminders): a check served a certificate with at
 * most `daysBefore` days left fires the rule once for that certificate, telling `down` (`certificate.expiring`); a
 * check served another, verified certificate with more days left ends it, telling `recovered` (`certificate.renewed`)
 * when the rule asks. `firedFor` outlives the alert, so the certificate it was for never alerts again (two certificates
 * served in turn during a renewal tell one expiry and one renewal), and an older check of it that commits late, or a
 * refused certificate with a later date, cannot end it. A check served no certificate leaves the rule as it is.
 */
function nextCertificateRuleState(rule: IncidentRule, check: RuleCheck): RuleTransition {
  if (!check.certificate) return unchanged(rule);
  const identity = certificateIdentity(check.certificate);
  if (identity === rule.firedFor) return unchanged(rule);
  if (daysLeft(check.certificate, check.checkedAt) <= (rule.daysBefore ?? 0)) {
    return { state: 'firing', streaks: rule.streaks, notifiedAt: check.checkedAt, firedFor: identity, notify: 'down' };
  }
  if (rule.state !== 'firing' || !check.certificate.verified) return unchanged(rule);
  const notify = rule.notifyRecovery ? 'recovered' : null;
  return { state: 'ok', streaks: rule.streaks, notifiedAt: null, firedFor: rule.firedFor, notify };
}

/**
 * Whether the transition leaves the rule exactly as it is: same state, same `notifiedAt`, nothing told, and the same
 * streaks, a region without a streak counting as a streak of 0 (a rule that never saw a failure stores `{}`).
 */
export function leavesRuleAsItIs(
  rule: Pick<IncidentRule, 'state' | 'streaks' | 'notifiedAt' | 'firedFor'>,
  transition: RuleTransition,
): boolean {
  if (transition.notify !== null || transition.state !== rule.state) return false;
  if (transition.firedFor !== rule.firedFor) return false;
  if ((transition.notifiedAt?.getTime() ?? null) !== (rule.notifiedAt?.getTime() ?? null)) return false;
  const regions = new Set([...Object.keys(rule.streaks), ...Object.keys(transition.streaks)]);
  return [...regions].every((region) => (rule.streaks[region] ?? 0) === (transition.streaks[region] ?? 0));
}

/** A rule's transition once its monitor's parent is taken into account, and whether an alert was held. */
export interface ParentAwareTransition extends RuleTransition {
  /** Since when the rule's alert is held (it fired unheard while the parent was down); null when none is. */
  heldSince: Date | null;
  /** This check's alert was held: record it on the parent's held alerts. */
  held: boolean;
}

/**
 * Dependencies: while the monitor's parent is down, a `down` or `response_time` rule that fires does so unheard (its
 * alert is held, its reminders too), so the parent's outage is told once, by the parent. Once the parent is no longer
 * down, the monitor's own state is told: a rule still firing tells `down` at its next move (or at once, if this check
 * confirms it), and one that recovered meanwhile tells nothing, its `down` having never been told. Checks made
 * during maintenance move nothing (`nextRuleState`), so they release nothing either.
 */
export function withParent(
  rule: Pick<AlertRule, 'event' | 'heldSince' | 'notifiedAt'>,
  transition: RuleTransition,
  check: RuleCheck,
  parentDown: boolean,
): ParentAwareTransition {
  const as = (changes: Partial<ParentAwareTransition> = {}): ParentAwareTransition => ({
    ...transition,
    heldSince: rule.heldSince,
    held: false,
    ...changes,
  });
  if (check.maintenanceWindowId !== null || (rule.event !== 'down' && rule.event !== 'response_time')) return as();
  if (parentDown) {
    if (transition.notify === 'down') return as({ notify: null, heldSince: check.checkedAt, held: true });
    if (transition.notify === 'reminder') return as({ notify: null, notifiedAt: rule.notifiedAt });
    if (transition.notify === 'recovered' && rule.heldSince) return as({ notify: null, heldSince: null });
    return as();
  }
  if (!rule.heldSince) return as();
  if (transition.state === 'firing') {
    return as({ notify: 'down', notifiedAt: check.checkedAt, heldSince: null });
  }
  return as({ notify: null, heldSince: null });
}
