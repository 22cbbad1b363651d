import { daysLeft, type ServedCertificate } from '../../libs/net-guard';
import { API_PREFIX } from '../http/version-alias.middleware';
import type {
  CheckResultDto,
  HeartbeatDto,
  MonitorDto,
  ServedCertificateDto,
  TrackedValueDto,
} from './dto/monitor.dto';
import type { MonitorCheck } from './entities/monitor-check.entity';
import type { Monitor } from './entities/monitor.entity';
import type { TrackedValueReadingRecord } from './entities/tracked-value-reading.entity';

/** The public URL path of a badge. */
export const badgePath = (token: string): string => `${API_PREFIX}/badges/${token}.svg`;

/** The public URL path a heartbeat monitor's job pings. */
export const pingPath = (token: string): string => `${API_PREFIX}/ping/${token}`;

/** A monitor in its wire shape (openapi.yaml's Monitor). */
export function presentMonitor(monitor: Monitor): MonitorDto {
  return {
    id: monitor.id,
    name: monitor.name,
    url: monitor.url,
    mode: monitor.mode,
    interval_seconds: monitor.intervalSeconds,
    timeout_seconds: monitor.timeoutSeconds,
    expected_status: { min: monitor.expectedStatusMin, max: monitor.expectedStatusMax },
    keyword: monitor.keyword,
    selector: monitor.selector,
    regions: monitor.regions,
    tracked_values: monitor.trackedValues,
    visual_threshold: monitor.visualThreshold,
    assertions: monitor.assertions,
    unstable_lines: monitor.volatile.lines,
    status: monitor.status,
    paused: monitor.paused,
    certificate: monitor.certificate && certificateView(monitor.certificate, new Date()),
    heartbeat: heartbeatView(monitor),
    parent_id: monitor.parent?.id ?? null,
    badge_enabled: monitor.badgeToken !== null,
    badge_url: monitor.badgeToken === null ? null : badgePath(monitor.badgeToken),
    last_checked_at: monitor.lastCheckedAt?.toISOString() ?? null,
    next_check_at: monitor.paused ? null : (monitor.nextCheckAt?.toISOString() ?? null),
    created_at: monitor.createdAt.toISOString(),
    updated_at: monitor.updatedAt.toISOString(),
  };
}

export function presentCheck(check: MonitorCheck): CheckResultDto {
  return {
    id: check.id,
    monitor_id: check.monitor.id,
    region: check.region,
    trigger: check.trigger,
    checked_at: check.checkedAt.toISOString(),
    ok: check.ok,
    status_code: check.statusCode,
    response_time_ms: check.responseTimeMs,
    failure: check.failure,
    message: check.message,
    content_hash: check.contentHash,
    certificate: check.certificate && certificateView(check.certificate, check.checkedAt),
  };
}

/** A heartbeat monitor's ping URL, schedule and last run; null for other monitors. */
function heartbeatView(monitor: Monitor): HeartbeatDto | null {
  const { heartbeat: schedule, heartbeatToken: token } = monitor;
  if (!schedule || !token) return null;
  return {
    ping_url: pingPath(token),
    interval_seconds: schedule.intervalSeconds,
    cron: schedule.cron,
    timezone: schedule.timezone,
    grace_seconds: schedule.graceSeconds,
    last_ping_at: monitor.heartbeatPingedAt?.toISOString() ?? null,
    started_at: monitor.heartbeatStartedAt?.toISOString() ?? null,
    next_ping_due_at: monitor.paused ? null : (monitor.nextCheckAt?.toISOString() ?? null),
  };
}

/** A served certificate in its wire shape, with the whole days left as of `at`. */
export function certificateView(certificate: ServedCertificate, at: Date): ServedCertificateDto {
  return {
    expires_at: certificate.expiresAt,
    valid_from: certificate.validFrom,
    issuer: certificate.issuer,
    subject: certificate.subject,
    fingerprint_sha256: certificate.fingerprintSha256,
    days_left: daysLeft(certificate, at),
  };
}

export function presentReading(reading: TrackedValueReadingRecord): TrackedValueDto {
  return {
    id: reading.id,
    monitor_id: reading.monitor.id,
    name: reading.name,
    kind: reading.kind,
    raw: reading.raw,
    amount: reading.amount,
    currency: reading.currency,
    region: reading.region,
    captured_at: reading.capturedAt.toISOString(),
  };
}
