import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import type { ServedCertificate } from '../../libs/net-guard';
import type { CheckFailure, FailedAssertion } from '../../libs/page-check';
import { whenDatabaseAnswers } from '../db/database-outage';
import type { CheckTrigger } from './entities/monitor-check.entity';
import type { MonitorStatus, RegionStatus } from './entities/monitor.entity';

/** What one check of a monitor found, as a result row stores it. */
export interface CheckResult {
  region: string;
  trigger: CheckTrigger;
  scheduledFor: Date;
  checkedAt: Date;
  ok: boolean;
  statusCode: number | null;
  responseTimeMs: number;
  failure: CheckFailure | null;
  message: string | null;
  /** The assertions the response did not meet; null for none. */
  failedAssertions: FailedAssertion[] | null;
  contentHash: string | null;
  certificate: ServedCertificate | null;
  /** The maintenance window muting the monitor's alerts when the check ran: it then counts apart in uptime. */
  maintenanceWindowId: string | null;
}

/**
 * The monitor `m`'s alert rules (all of them: which ones checks move is the alerting code's business) as jsonb, in one
 * order, with `notifiedAtMs` as epoch milliseconds so that the text does not depend on the session's time zone. Read
 * with the monitor by the check, and again by the routine write's guard: the same expression both times.
 */
export const MONITOR_RULES_SQL = `(select coalesce(jsonb_agg(jsonb_build_object(
    'id', r.id, 'event', r.event, 'enabled', r.enabled, 'state', r.state, 'streaks', r.streaks,
    'consecutiveFailures', r.consecutive_failures, 'minRegions', r.min_regions, 'thresholdMs', r.threshold_ms,
    'notifyRecovery', r.notify_recovery, 'reminderMinutes', r.reminder_minutes,
    'daysBefore', r.days_before, 'firedFor', r.fired_for, 'held', r.held_since is not null,
    'notifiedAtMs', round(extract(epoch from r.notified_at) * 1000)::bigint) order by r.id), '[]'::jsonb)
  from alert_rules r where r.monitor_id = m.id)`;

/** A short version of the monitor `m`'s rules: it differs whenever anything the routine decision reads of them does. */
export const RULES_FINGERPRINT_SQL = `md5(${MONITOR_RULES_SQL}::text)`;

/**
 * A check that changes nothing but counts, as `isRoutineCheck` decided from the monitor as the check read it. `seen`
 * is that monitor: the write applies only while the monitor and its rules are still exactly that.
 */
export interface RoutineCheck extends CheckResult {
  monitorId: string;
  /** A heartbeat's ping or missed slot: the next deadline it sets, and the ping's time (null for a missed slot). */
  heartbeat: { nextCheckAt: Date; pingedAt: Date | null } | null;
  seen: {
    /** The monitor's last heartbeat ping: a missed slot is only written while no ping came since. */
    heartbeatPingedAt: Date | null;
    status: MonitorStatus;
    regionStatus: RegionStatus;
    regions: string[];
    contentHash: string | null;
    /** The monitor's stored certificate. */
    certificate: ServedCertificate | null;
    /** `RULES_FINGERPRINT_SQL` as read with the monitor. */
    rulesFingerprint: string;
  };
}

interface Waiting {
  check: RoutineCheck;
  resolve: (checkId: string | null) => void;
  reject: (error: unknown) => void;
}

/** Checks written by one statement at most. */
const MAX_BATCH = 500;
/**
 * How long the first check of a batch waits for others: a few milliseconds of a job's time for far fewer commits. A
 * heartbeat's ping does not wait (its job waits for the answer), nor do checks that waited for a write to end.
 */
const BATCH_WINDOW_MS = 10;
/**
 * Batch statements running at once. Two overlap one batch's wait for PostgreSQL with the next one's gathering; their
 * monitors never overlap (a check of a monitor being written waits for the next batch), so they never wait for each
 * other's row locks, let alone deadlock.
 */
const MAX_WRITES_IN_FLIGHT = 2;

/**
 * One statement (so one commit) for a batch of routine checks: each monitor's `last_checked_at`, the result rows and
 * the hourly rollups, for the monitors whose every check in the batch was decided on the monitor and rules as they
 * still are. Whether a check is routine is decided by `isRoutineCheck`, not here: this only guards that decision.
 *
 * The guard compares the monitor's row under the lock the UPDATE takes (re-read if another transaction changed it
 * meanwhile) and the rules' fingerprint as of the statement's snapshot. A rule change committed before that snapshot
 * fails the guard; one committed after it (by a transaction the UPDATE may wait for) comes after this write in every
 * respect: this write changes no rule, and `last_checked_at`, the rollups and the results add up in either order.
 */
const WRITE_ROUTINE_CHECKS = `
with checks as (
  select * from jsonb_to_recordset(?::jsonb) as c(
    monitor_id uuid, region text, trigger text, scheduled_for timestamptz, checked_at timestamptz, ok boolean,
    status_code int, response_time_ms int, failure text, message text, failed_assertions jsonb, content_hash text,
    certificate jsonb,
    maintenance_window_id uuid,
    next_check_at timestamptz, pinged_at timestamptz, seen_pinged_at timestamptz, seen_status text, seen_region_status jsonb, seen_regions text[], seen_content_hash text,
    seen_certificate jsonb, seen_rules_fingerprint text)
),
touched as (
  update monitors m
     set last_checked_at = greatest(m.last_checked_at, latest.checked_at), updated_at = now(),
         -- heartbeats: the latest ping's (or missed slot's) deadline, and the latest ping, which ends a started run
         next_check_at = case
             when latest.pinged_at is null then coalesce(latest.next_check_at, m.next_check_at)
             -- a ping older than the one recorded (a batch that ran late) moves no deadline
             when latest.pinged_at >= coalesce(m.heartbeat_pinged_at, '-infinity') then latest.next_check_at
             else m.next_check_at
           end,
         heartbeat_pinged_at = greatest(m.heartbeat_pinged_at, latest.pinged_at),
         heartbeat_started_at = case when latest.pinged_at is null then m.heartbeat_started_at end
    from (select monitor_id, max(checked_at) as checked_at, max(next_check_at) as next_check_at,
                 max(pinged_at) as pinged_at
            from checks group by monitor_id) latest
   where m.id = latest.monitor_id
     and not m.paused
     -- every check of the batch for this monitor was decided on the monitor and rules as they still are (a routine
     -- check only ever saw the monitor unpaused)
     and not exists (
       select 1 from checks c
        where c.monitor_id = m.id
          and (m.status <> c.seen_status
               or m.region_status <> c.seen_region_status
               or m.regions <> c.seen_regions
               or m.content_hash is distinct from c.seen_content_hash
               or m.certificate is distinct from c.seen_certificate
               -- a missed heartbeat slot is moot once a ping came (pings themselves add up in any order)
               or (c.next_check_at is not null and c.pinged_at is null
                   and (m.heartbeat_pinged_at is distinct from c.seen_pinged_at
                        -- nor while a ping of the same monitor is in this batch: the full way decides under the lock
                        or exists (select 1 from checks p where p.monitor_id = c.monitor_id and p.pinged_at is not null)))
               or ${RULES_FINGERPRINT_SQL} <> c.seen_rules_fingerprint))
  returning m.id
),
inserted as (
  insert into monitor_checks (id, monitor_id, region, trigger, scheduled_for, checked_at, ok, status_code,
                              response_time_ms, failure, message, failed_assertions, content_hash, certificate,
                              maintenance_window_id)
  select gen_random_uuid(), monitor_id, region, trigger, scheduled_for, checked_at, ok, status_code,
         response_time_ms, failure, message, failed_assertions, content_hash, certificate, maintenance_window_id
    from checks join touched on touched.id = checks.monitor_id
  on conflict (monitor_id, region, scheduled_for) do nothing
  returning id, monitor_id, region, scheduled_for, checked_at, ok, response_time_ms, maintenance_window_id
),
rolled_up as (
  -- checks made during maintenance count apart, in none of the other columns
  insert into monitor_check_rollups as r (monitor_id, region, hour, checks, passed, response_ms_sum, maintenance)
  select monitor_id, region, date_trunc('hour', checked_at),
         count(*) filter (where maintenance_window_id is null),
         count(*) filter (where ok and maintenance_window_id is null),
         coalesce(sum(response_time_ms) filter (where maintenance_window_id is null), 0),
         count(*) filter (where maintenance_window_id is not null)
    from inserted
   group by 1, 2, 3
  on conflict (monitor_id, region, hour) do update set
    checks = r.checks + excluded.checks,
    passed = r.passed + excluded.passed,
    response_ms_sum = r.response_ms_sum + excluded.response_ms_sum,
    maintenance = r.maintenance + excluded.maintenance
)
select id, monitor_id, region, (extract(epoch from scheduled_for) * 1000)::float8 as scheduled_ms from inserted`;

interface WrittenRow {
  id: string;
  monitor_id: string;
  region: string;
  scheduled_ms: number;
}

const slotKey = (monitorId: string, region: string, scheduledMs: number) => `${monitorId} ${region} ${scheduledMs}`;

/**
 * Group commit for routine checks, which are nearly all of them: instead of a transaction of its own (lock, read,
 * insert, upsert, update, commit), each waits up to BATCH_WINDOW_MS and is written with the others in one statement.
 * A check answers its id once that statement has committed, or null when it was not written (its monitor or its
 * rules moved since it read them, or its slot was already recorded): the recorder then records it the full way.
 */
@Injectable()
export class RoutineCheckWriter {
  private readonly logger = new Logger(RoutineCheckWriter.name);
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writes = 0;
  /** The monitors of the batches being written. */
  private readonly writingMonitors = new Set<string>();

  constructor(private readonly orm: MikroORM) {}

  write(check: RoutineCheck): Promise<string | null> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ check, resolve, reject });
      if (this.waiting.length >= MAX_BATCH || check.trigger === 'ping') this.flushSoon(0);
      else this.flushSoon(BATCH_WINDOW_MS);
    });
  }

  private flushSoon(delayMs: number): void {
    if (this.writes >= MAX_WRITES_IN_FLIGHT) return; // a write that ends takes what waits
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writes += 1;
      void this.drain().finally(() => {
        this.writes -= 1;
        if (this.waiting.length > 0) this.flushSoon(0);
      });
    }, delayMs);
  }

  /** Takes up to MAX_BATCH waiting checks whose monitors no running write holds, in arrival order. */
  private takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const left: Waiting[] = [];
    for (const entry of this.waiting) {
      const free = batch.length < MAX_BATCH && !this.writingMonitors.has(entry.check.monitorId);
      (free ? batch : left).push(entry);
    }
    this.waiting = left;
    return batch;
  }

  private async drain(): Promise<void> {
    const batch = this.takeBatch();
    if (batch.length === 0) return;
    const monitors = new Set(batch.map((entry) => entry.check.monitorId));
    for (const id of monitors) this.writingMonitors.add(id);
    try {
      const written = await whenDatabaseAnswers(() => this.writeBatch(batch.map((entry) => entry.check)), {
        onWait: (error) => this.logger.warn({ err: error }, `PostgreSQL is unreachable: ${batch.length} checks wait`),
      });
      for (const { check, resolve } of batch) {
        resolve(written.get(slotKey(check.monitorId, check.region, check.scheduledFor.getTime())) ?? null);
      }
    } catch (error) {
      // PostgreSQL answered, and refused the statement: one check must not take the others with it, so each is
      // written on its own and only the one at fault is refused.
      if (batch.length === 1) batch[0].reject(error);
      else for (const entry of batch) await this.writeAlone(entry);
    } finally {
      for (const id of monitors) this.writingMonitors.delete(id);
    }
  }

  private async writeAlone({ check, resolve, reject }: Waiting): Promise<void> {
    try {
      const written = await this.writeBatch([check]);
      resolve(written.get(slotKey(check.monitorId, check.region, check.scheduledFor.getTime())) ?? null);
    } catch (error) {
      reject(error);
    }
  }

  private async writeBatch(checks: RoutineCheck[]): Promise<Map<string, string>> {
    const rows = checks.map((check) => ({
      monitor_id: check.monitorId,
      region: check.region,
      trigger: check.trigger,
      scheduled_for: check.scheduledFor.toISOString(),
      checked_at: check.checkedAt.toISOString(),
      ok: check.ok,
      status_code: check.statusCode,
      response_time_ms: check.responseTimeMs,
      failure: check.failure,
      message: check.message,
      failed_assertions: check.failedAssertions,
      content_hash: check.contentHash,
      certificate: check.certificate,
      maintenance_window_id: check.maintenanceWindowId,
      next_check_at: check.heartbeat?.nextCheckAt.toISOString() ?? null,
      pinged_at: check.heartbeat?.pingedAt?.toISOString() ?? null,
      seen_pinged_at: check.seen.heartbeatPingedAt?.toISOString() ?? null,
      seen_status: check.seen.status,
      seen_region_status: check.seen.regionStatus,
      seen_regions: check.seen.regions,
      seen_content_hash: check.seen.contentHash,
      seen_certificate: check.seen.certificate,
      seen_rules_fingerprint: check.seen.rulesFingerprint,
    }));
    const written = await this.orm.em
      .getConnection()
      .execute<WrittenRow[]>(WRITE_ROUTINE_CHECKS, [JSON.stringify(rows)], 'all');
    return new Map(written.map((row) => [slotKey(row.monitor_id, row.region, row.scheduled_ms), row.id]));
  }
}
