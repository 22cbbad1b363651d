import { ApiProperty } from '@nestjs/swagger';
import { DeclarationKeyProperty } from '../../common/validation/declaration-key';
import {
  ASSERTION_OPERATORS,
  ASSERTION_TYPES,
  type AssertionOperator,
  type AssertionType,
  type CheckFailure,
} from '../../../libs/page-check';
import { PageOf } from '../../common/pagination/pagination';
import { CHECK_TRIGGERS, type CheckTrigger } from '../entities/monitor-check.entity';
import { MONITOR_MODES, MONITOR_STATUSES, type MonitorMode, type MonitorStatus } from '../entities/monitor.entity';
import { type HeartbeatScheduleDto, SCHEDULE_ANSWER } from './heartbeat.dto';
import { ExpectedStatusDto, TrackedValueSpecDto, TRACKED_VALUE_KINDS } from './monitor-requests.dto';

export const CHECK_FAILURES = [
  'status',
  'keyword_missing',
  'selector_missing',
  'timeout',
  'network',
  'target_not_public',
  'too_many_redirects',
  'too_large',
  'assertion',
  'certificate',
  'heartbeat_missed',
  'heartbeat_failed',
] as const satisfies readonly CheckFailure[];
export const UPTIME_WINDOWS = ['24h', '7d', '30d'] as const;
export type UptimeWindow = (typeof UPTIME_WINDOWS)[number];
export const BADGE_STYLES = ['flat', 'flat-square', 'plastic', 'for-the-badge', 'social'] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];

const nullableString = { type: 'string', nullable: true } as const;
const nullableDateTime = { type: 'string', format: 'date-time', nullable: true } as const;

export class MonitorAssertionDto {
  @ApiProperty({ enum: ASSERTION_TYPES, enumName: 'AssertionType' })
  type: AssertionType;

  @ApiProperty(nullableString)
  property: string | null;

  @ApiProperty({ enum: ASSERTION_OPERATORS, enumName: 'AssertionOperator' })
  operator: AssertionOperator;

  @ApiProperty(nullableString)
  value: string | null;
}

export class FailedAssertionDto extends MonitorAssertionDto {
  @ApiProperty({ ...nullableString, description: 'The value read, as text; null when there was none to read.' })
  actual: string | null;

  @ApiProperty({ type: 'string', description: 'The failure in words, e.g. `$.temp is 83, expected < 80`.' })
  message: string;
}

export class ServedCertificateDto {
  @ApiProperty({ type: 'string', format: 'date-time', description: "The certificate's `notAfter`." })
  expires_at: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  valid_from: string;

  @ApiProperty({
    type: 'string',
    description:
      "The issuer's distinguished name, e.g. `C=US, O=Let's Encrypt, CN=R11` (browser monitors: its common name).",
  })
  issuer: string;

  @ApiProperty({ type: 'string', description: "The subject's distinguished name, e.g. `CN=shop.example.com`." })
  subject: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'SHA-256 of the certificate, colon-separated hex; null for browser monitors (Chromium does not tell it).',
  })
  fingerprint_sha256: string | null;

  @ApiProperty({
    type: 'integer',
    description: 'Whole days from the check (or, on a monitor, from now) to `expires_at`; negative once expired.',
  })
  days_left: number;
}

/** A heartbeat monitor's run state. */
export class HeartbeatDto {
  @ApiProperty({ ...nullableDateTime, description: 'The last success or failure ping.' })
  last_ping_at: string | null;

  @ApiProperty({ ...nullableDateTime, description: 'When the running job said it started; null once it ended.' })
  started_at: string | null;

  @ApiProperty({ ...nullableDateTime, description: 'When the next ping is missed; null while paused.' })
  next_ping_due_at: string | null;
}

export class PingReceiptDto {
  @ApiProperty({ type: 'string', format: 'date-time' })
  received_at: string;
}

export class MonitorDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string' })
  name: string;

  @ApiProperty({ ...nullableString, description: 'The checked URL; null for `heartbeat` monitors.' })
  url: string | null;

  @ApiProperty({ enum: MONITOR_MODES, enumName: 'MonitorMode' })
  mode: MonitorMode;

  @ApiProperty({ type: 'integer' })
  interval_seconds: number;

  @ApiProperty({ type: 'integer' })
  timeout_seconds: number;

  @ApiProperty({ type: () => ExpectedStatusDto })
  expected_status: ExpectedStatusDto;

  @ApiProperty(nullableString)
  keyword: string | null;

  @ApiProperty(nullableString)
  selector: string | null;

  @ApiProperty({ type: 'string', isArray: true })
  regions: string[];

  @ApiProperty({ type: () => [TrackedValueSpecDto] })
  tracked_values: TrackedValueSpecDto[];

  @ApiProperty({
    type: 'number',
    description: 'Browser monitors record a `visual` change when the screenshot differs by more than this share.',
  })
  visual_threshold: number;

  @ApiProperty({ type: () => [MonitorAssertionDto] })
  assertions: MonitorAssertionDto[];

  @ApiProperty({
    type: 'string',
    isArray: true,
    description:
      'Lines seen to move on their own (they differed between two looks moments apart), as patterns with each run of digits written `#`; left out of the watched text, so they never make a change.',
  })
  unstable_lines: string[];

  @ApiProperty({ enum: MONITOR_STATUSES, enumName: 'MonitorStatus' })
  status: MonitorStatus;

  @ApiProperty({ type: 'boolean' })
  paused: boolean;

  @ApiProperty({
    type: () => ServedCertificateDto,
    nullable: true,
    description: 'The certificate the latest HTTPS check was served (null before one, and for plain HTTP).',
  })
  certificate: ServedCertificateDto | null;

  @ApiProperty({
    ...SCHEDULE_ANSWER,
    description: '`heartbeat` monitors: when pings are expected; null for the others.',
  })
  schedule: HeartbeatScheduleDto | null;

  @ApiProperty({ type: 'integer', nullable: true, description: '`heartbeat` monitors: how late a ping may be.' })
  grace_seconds: number | null;

  @ApiProperty({
    type: 'string',
    format: 'uri',
    nullable: true,
    description: '`heartbeat` monitors: the secret URL a job pings; null for the others.',
  })
  ping_url: string | null;

  @ApiProperty({
    type: () => HeartbeatDto,
    nullable: true,
    description: '`heartbeat` monitors: the last ping and the running job; null for the others.',
  })
  heartbeat: HeartbeatDto | null;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description:
      "The monitor this one depends on. While the parent is down, this monitor's new alerts are held (not sent, " +
      "listed on the parent's `held-alerts`); its checks and history go on, and recoveries are still sent.",
  })
  parent_id: string | null;

  @DeclarationKeyProperty()
  declaration_key: string | null;

  @ApiProperty({ type: 'boolean' })
  badge_enabled: boolean;

  @ApiProperty({ ...nullableString, description: 'The public badge image, when enabled.' })
  badge_url: string | null;

  @ApiProperty(nullableDateTime)
  last_checked_at: string | null;

  @ApiProperty({ ...nullableDateTime, description: 'When the next scheduled check is due; null while paused.' })
  next_check_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  updated_at: string;
}

export class MonitorListDto extends PageOf(MonitorDto, 'MonitorList') {}

export class CheckResultDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  monitor_id: string;

  @ApiProperty({ type: 'string' })
  region: string;

  @ApiProperty({ type: 'string', enum: CHECK_TRIGGERS })
  trigger: CheckTrigger;

  @ApiProperty({ type: 'string', format: 'date-time' })
  checked_at: string;

  @ApiProperty({ type: 'boolean', description: "Whether the check passed (the monitor's expectations were met)." })
  ok: boolean;

  @ApiProperty({ type: 'integer', nullable: true })
  status_code: number | null;

  @ApiProperty({ type: 'integer' })
  response_time_ms: number;

  @ApiProperty({ enum: CHECK_FAILURES, enumName: 'CheckFailure', nullable: true })
  failure: CheckFailure | null;

  @ApiProperty(nullableString)
  message: string | null;

  @ApiProperty({
    type: () => [FailedAssertionDto],
    description: "The monitor's assertions the response did not meet, each with the value read.",
  })
  failed_assertions: FailedAssertionDto[];

  @ApiProperty({ ...nullableString, description: 'SHA-256 of the watched text.' })
  content_hash: string | null;

  @ApiProperty({
    type: () => ServedCertificateDto,
    nullable: true,
    description:
      'The certificate the server presented, for an HTTPS check (also when it was refused: the check then fails\nwith `certificate`); null for plain HTTP and when no TLS handshake completed.\n',
  })
  certificate: ServedCertificateDto | null;
}

export class CheckResultListDto extends PageOf(CheckResultDto, 'CheckResultList') {}

export class CheckRunDto {
  @ApiProperty({ type: () => MonitorDto })
  monitor: MonitorDto;

  @ApiProperty({ type: () => [CheckResultDto], description: 'One result per region.' })
  results: CheckResultDto[];
}

export class UptimeFiguresDto {
  @ApiProperty({ type: 'number', nullable: true, name: '24h' })
  '24h': number | null;

  @ApiProperty({ type: 'number', nullable: true, name: '7d' })
  '7d': number | null;

  @ApiProperty({ type: 'number', nullable: true, name: '30d' })
  '30d': number | null;
}

export class CheckCountsDto {
  @ApiProperty({ type: 'integer', name: '24h' })
  '24h': number;

  @ApiProperty({ type: 'integer', name: '7d' })
  '7d': number;

  @ApiProperty({ type: 'integer', name: '30d' })
  '30d': number;
}

export class ResponseTimePointDto {
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'Start of the hour (or day) the point covers.',
  })
  t: string;

  @ApiProperty({ type: 'number', description: 'Average response time of the checks in it.' })
  ms: number;
}

export class UptimeDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  monitor_id: string;

  @ApiProperty({ ...nullableString, description: 'The region the figures are for; null for all regions together.' })
  region: string | null;

  @ApiProperty({
    type: () => UptimeFiguresDto,
    description: 'Percentage of passed checks (0 to 100); null without checks in the window.',
  })
  uptime: UptimeFiguresDto;

  @ApiProperty({
    type: () => CheckCountsDto,
    description: 'The checks the figures count; those made during maintenance are not among them.',
  })
  checks: CheckCountsDto;

  @ApiProperty({
    type: () => CheckCountsDto,
    description: 'Checks made during a maintenance window, counted apart (neither up nor down).',
  })
  maintenance_checks: CheckCountsDto;

  @ApiProperty({ enum: UPTIME_WINDOWS, enumName: 'UptimeWindow' })
  history: UptimeWindow;

  @ApiProperty({
    type: () => [ResponseTimePointDto],
    description: 'Oldest first; hours or days without checks are left out.',
  })
  response_times: ResponseTimePointDto[];
}

export class BadgeDto {
  @ApiProperty({ type: 'boolean' })
  enabled: boolean;

  @ApiProperty({
    type: 'string',
    description: "The public SVG; anyone with the URL can read the monitor's name and status.",
  })
  url: string;
}

export class TrackedValueDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  monitor_id: string;

  @ApiProperty({ type: 'string' })
  name: string;

  @ApiProperty({ enum: TRACKED_VALUE_KINDS, enumName: 'TrackedValueKind' })
  kind: (typeof TRACKED_VALUE_KINDS)[number];

  @ApiProperty({ ...nullableString, description: "The element's text; null when the selector matched nothing." })
  raw: string | null;

  @ApiProperty({ type: 'number', nullable: true })
  amount: number | null;

  @ApiProperty({ ...nullableString, description: 'ISO 4217 code, for prices whose currency is recognised.' })
  currency: string | null;

  @ApiProperty({ type: 'string' })
  region: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  captured_at: string;
}

export class TrackedValueListDto extends PageOf(TrackedValueDto, 'TrackedValueList') {}
