import type { ServedCertificate } from '../../libs/net-guard';
import {
  certificateIdentity,
  type IncidentRule,
  leavesRuleAsItIs,
  movesWithChecks,
  nextRuleState,
} from '../alerts/rule-transition';
import type { Monitor, MonitorStatus, PageMetadata, RegionStatus } from './entities/monitor.entity';

/** The monitor as a check read it: what its status, content and alert rules were. */
export type MonitorAsRead = Pick<
  Monitor,
  'regions' | 'status' | 'paused' | 'regionStatus' | 'contentHash' | 'metadata' | 'certificate'
> & {
  /**
   * All of the monitor's alert rules; those that checks do not move are passed over. `held`: the rule fired unheard
   * while the monitor's parent was down (`withParent`), so its next move may tell what it held.
   */
  rules: readonly (IncidentRule & { held?: boolean })[];
};

/** What a check saw, as far as deciding whether it moves anything. */
export interface CheckSeen {
  region: string;
  ok: boolean;
  responseTimeMs: number;
  checkedAt: Date;
  /**
   * The page content the check records: null when it records none (a failed check, or nothing extracted). Its hash is
   * of the stable text: lines the monitor learned move on their own are left out (CheckAssessor).
   */
  content: { contentHash: string; trackedValues: readonly unknown[] } | null;
  /** What the page says of itself, as the check would store it; null when it stores none. */
  metadata: PageMetadata | null;
  /** The certificate the check was served over HTTPS; null for http or when no handshake completed. */
  certificate: ServedCertificate | null;
  /** The maintenance window muting the monitor's alerts when the check ran; null outside maintenance. */
  maintenanceWindowId: string | null;
  /** The screenshot differs from the stored one beyond the monitor's threshold, on a second look too. */
  visualChanged: boolean;
  /** The check saw something move on its own for the first time, which the monitor must remember. */
  learned: boolean;
}

/**
 * Whether a check changes nothing but counts, so that it may be written without the monitor's row lock and the
 * alerting step (the routine writer still applies it only while the monitor and its rules are as read): the monitor
 * is not paused, the check's region keeps its verdict and the monitor its status, the content is the stored one and
 * has no tracked values, the certificate (if any) is the stored one, no rule holds an alert for its parent's outage,
 * and every rule that checks move is left exactly as it is by `nextRuleState`, the transition the alerting step applies.
 */
export function isRoutineCheck(monitor: MonitorAsRead, check: CheckSeen): boolean {
  if (monitor.paused || check.visualChanged || check.learned) return false;
  if (monitor.rules.some((rule) => rule.held)) return false;
  if (check.metadata && !sameMetadata(check.metadata, monitor.metadata)) return false;
  if (check.certificate && !sameCertificate(check.certificate, monitor.certificate)) return false;
  if (check.content && (check.content.contentHash !== monitor.contentHash || check.content.trackedValues.length)) {
    return false;
  }
  const next = deriveStatus(monitor, check.region, check.ok);
  if (next.status !== monitor.status || !sameRegionStatus(next.regionStatus, monitor.regionStatus)) return false;
  return monitor.rules
    .filter(movesWithChecks)
    .every((rule) => leavesRuleAsItIs(rule, nextRuleState(rule, monitor.regions, check)));
}

/** Down when any region's latest check failed, up when one passed and none failed, pending before any. */
export function deriveStatus(
  monitor: Pick<Monitor, 'regions' | 'regionStatus' | 'paused'>,
  region: string,
  ok: boolean,
): { regionStatus: RegionStatus; status: MonitorStatus } {
  const regionStatus: RegionStatus = {};
  for (const name of monitor.regions) {
    const latest = name === region ? (ok ? 'up' : 'down') : monitor.regionStatus[name];
    if (latest) regionStatus[name] = latest;
  }
  const verdicts = Object.values(regionStatus);
  const derived: MonitorStatus = verdicts.includes('down') ? 'down' : verdicts.includes('up') ? 'up' : 'pending';
  return { regionStatus, status: monitor.paused ? 'paused' : derived };
}

function sameMetadata(seen: PageMetadata, stored: PageMetadata | null): boolean {
  return (
    stored !== null &&
    seen.title === stored.title &&
    seen.robots === stored.robots &&
    seen.canonical === stored.canonical &&
    seen.status_class === stored.status_class
  );
}

function sameRegionStatus(a: RegionStatus, b: RegionStatus): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((region) => a[region] === b[region]);
}

function sameCertificate(seen: ServedCertificate, stored: ServedCertificate | null): boolean {
  return stored !== null && certificateIdentity(seen) === certificateIdentity(stored);
}
