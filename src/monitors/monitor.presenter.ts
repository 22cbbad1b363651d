import { daysLeft, type ServedCertificate } from '../../libs/net-guard';
import { API_PREFIX } from '../http/version-alias.middleware';
import type {
  CheckResultDto,
  HeartbeatDto,
  MonitorDto,
  ServedCertificateDto,
  TrackedValueDto,
} from './dto/monitor.dto';
import type { HeartbeatScheduleDto } from './dto/heartbeat.dto';
import type { MonitorCheck } from './entities/monitor-check.entity';
import type { Monitor } from './entities/monitor.entity';
import type { TrackedValueReadingRecord } from './entities/tracked-value-reading.entity';
import type { HeartbeatSchedule } from './heartbeat-schedule';

/** The public URL path of a badge. */
export const badgePath = (token: string): string => `${API_PREFIX}/badges/${token}.svg`;

/** The public URL path a heartbeat monitor's job pings. */
export const pingPath = (token: string): string => `${API_PREFIX}/ping/${token}`;

/**
 * A monitor in its wire shape (openapi.yaml's Monitor). `origin` (`https://vigil.example.com`, see `@PublicOrigin()`)
 * makes a heartbeat's ping URL absolute: a job is given it as it is.
 */
export function presentMonitor(monitor: Monitor, origin: string): MonitorDto {
  const schedule = monitor.mode === 'heartbeat' ? monitor.heartbeat : null;
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
    schedule: schedule && scheduleView(schedule),
    grace_seconds: schedule?.graceSeconds ?? null,
    ping_url: schedule && monitor.heartbeatToken ? `${origin}${pingPath(monitor.heartbeatToken)}` : null,
    heartbeat: schedule && heartbeatView(monitor),
    parent_id: monitor.parent?.id ?? null,
    declaration_key: monitor.declarationKey,
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
    failed_assertions: check.failedAssertions ?? [],
    content_hash: check.contentHash,
    certificate: check.certificate && certificateView(check.certificate, check.checkedAt),
  };
}

/** `{interval_seconds}` or `{cron, timezone}`, as the monitor's `schedule` answers it. */
function scheduleView(schedule: HeartbeatSchedule): HeartbeatScheduleDto {
  return schedule.cron === null
    ? { interval_seconds: schedule.intervalSeconds! }
    : { cron: schedule.cron, timezone: schedule.timezone };
}

/** A heartbeat monitor's run state: its last ping, the job running, and when the next ping is missed. */
function heartbeatView(monitor: Monitor): HeartbeatDto {
  return {
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
