import { MikroORM } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { BackgroundPasses } from '../common/background/background-passes';
import { acrossWorkspaces } from '../common/tenancy/workspace-scope';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { MonitorQueues } from './monitor-queues';

/** Due monitors claimed per statement; a tick repeats until none are left. */
const CLAIM_BATCH = 1000;
const PRUNE_INTERVAL_MS = 10 * 60_000;
const PRUNE_BATCH = 10_000;
/** Rollups outlive raw results: a year of uptime history. */
const ROLLUP_RETENTION_DAYS = 400;

interface ClaimedSlot {
  id: string;
  regions: string[];
  scheduled_for: Date;
  on_time: boolean;
  /** How late the slot is at its claim, by the database's clock (the one `next_check_at` is set by). */
  lag_seconds: number;
}

/**
 * Enqueues due monitor checks. Each tick claims due monitors with `FOR UPDATE SKIP LOCKED` and moves their
 * `next_check_at` on in the same transaction as the enqueue, so schedulers running side by side never claim a slot
 * twice. A crash between enqueue and commit re-claims the same slot, whose deterministic job id and result key make
 * the second enqueue harmless. Monitors overdue by more than an interval (the scheduler was down) are not checked in
 * one burst: they get a fresh slot spread over their next interval.
 */
@Injectable()
export class MonitorScheduler {
  private readonly logger = new Logger(MonitorScheduler.name);

  constructor(
    private readonly orm: MikroORM,
    private readonly queues: MonitorQueues,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    passes: BackgroundPasses,
  ) {
    // Stopped before the queues and the database close: a claim under way finishes (or rolls back) first.
    const schedule = { name: 'monitor-schedule', what: 'enqueue due monitor checks', everyMs: config.schedulerTickMs };
    passes.every(this.logger, schedule, () => this.tick());
    const prune = { name: 'monitor-prune', what: 'prune old check results', everyMs: PRUNE_INTERVAL_MS };
    passes.every(this.logger, prune, () => this.prune());
  }

  /** One pass: enqueues every slot due now. Returns how many checks were enqueued. */
  async tick(): Promise<number> {
    let enqueued = 0;
    for (;;) {
      const { claimed, checks } = await this.claimAndEnqueue();
      enqueued += checks;
      if (claimed < CLAIM_BATCH) return enqueued;
    }
  }

  private async claimAndEnqueue(): Promise<{ claimed: number; checks: number }> {
    const claimedAt = performance.now();
    const { claimed, checks, lags } = await acrossWorkspaces(this.orm.em).transactional(async (tx) => {
      const slots = await tx.execute<ClaimedSlot[]>(
        `with due as (
           select id, next_check_at from monitors
           where not paused and next_check_at <= now()
           order by next_check_at
           limit ${CLAIM_BATCH}
           for update skip locked
         )
         update monitors m set next_check_at = case
             when due.next_check_at + make_interval(secs => m.interval_seconds) > now()
               then due.next_check_at + make_interval(secs => m.interval_seconds)
             else now() + make_interval(secs => m.interval_seconds * random())
           end
         from due where m.id = due.id
         returning m.id, m.regions, due.next_check_at as scheduled_for,
           -- a heartbeat's missed slot is always recorded, however late: it is what the monitor is for
           (due.next_check_at > now() - make_interval(secs => m.interval_seconds) or m.mode = 'heartbeat') as on_time,
           extract(epoch from clock_timestamp() - due.next_check_at)::float8 as lag_seconds`,
        [],
        'all',
      );
      const checks = slots
        .filter((slot) => slot.on_time)
        .flatMap((slot) =>
          slot.regions
            .filter((region) => this.config.regions.includes(region))
            .map((region) => ({
              monitorId: slot.id,
              region,
              scheduledFor: new Date(slot.scheduled_for).toISOString(),
              trigger: 'scheduled' as const,
            })),
        );
      // Enqueued before the commit: if Redis refuses, the claim rolls back and the next tick tries again.
      await this.queues.enqueue(checks);
      const lags = slots.filter((slot) => slot.on_time).map((slot) => slot.lag_seconds);
      return { claimed: slots.length, checks: checks.length, lags };
    });
    // Observed once committed (a rolled-back claim is claimed and observed again), with the enqueue's own time.
    const enqueueSeconds = (performance.now() - claimedAt) / 1000;
    for (const lag of lags) this.metrics.checkEnqueued(lag + enqueueSeconds);
    return { claimed, checks };
  }

  /** Deletes raw results past the retention and old rollups, in batches that never hold long locks. */
  async prune(): Promise<void> {
    const em = acrossWorkspaces(this.orm.em);
    for (;;) {
      const result = await em.execute<{ affectedRows?: number }>(
        `delete from monitor_checks where ctid in (
           select ctid from monitor_checks where checked_at < now() - make_interval(days => ?) limit ${PRUNE_BATCH})`,
        [this.config.checkRetentionDays],
        'run',
      );
      if ((result.affectedRows ?? 0) < PRUNE_BATCH) break;
    }
    await em.execute(
      `delete from monitor_check_rollups where hour < now() - make_interval(days => ${ROLLUP_RETENTION_DAYS})`,
      [],
      'run',
    );
  }
}
