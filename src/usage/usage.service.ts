import { EntityManager } from '@mikro-orm/postgresql';
import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { BackgroundPasses } from '../common/background/background-passes';
import type { RepeatingPass } from '../common/background/repeating-pass';
import { RedisService } from '../redis/redis.module';
import { Monitor } from '../monitors/entities/monitor.entity';
import { ReleaseCheck } from '../release-checks/entities/release-check.entity';
import { ALERT_DESTINATIONS, AlertDestination } from '../alerts/entities/alert-destination.entity';
import { UptimeReader } from '../monitors/uptime-reader';
import { Report } from '../reports/entities/report.entity';
import { StatusPage } from '../status-pages/entities/status-page.entity';

const DAY_SECONDS = 24 * 3600;
/** Counts are gathered in memory and added to Redis this often: one INCRBY per workspace, not one per request. */
const FLUSH_INTERVAL_MS = 1000;

function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function startOfUtcMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export interface WorkspaceUsage {
  monitors: number;
  checks_this_month: number;
  release_checks_this_month: number;
  alert_destinations: number;
  status_pages: number;
  reports: number;
  api_requests_today: number;
}

/**
 * Per-workspace usage counters, kept in Redis so every API replica adds to the same numbers. Requests are counted in
 * memory first and flushed every second (and at shutdown), so counting costs no round trip on the request path.
 */
@Injectable()
export class UsageService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(UsageService.name);
  private pending = new Map<string, number>();
  private readonly pass: RepeatingPass;

  constructor(
    private readonly redis: RedisService,
    private readonly em: EntityManager,
    private readonly uptime: UptimeReader,
    passes: BackgroundPasses,
  ) {
    this.pass = passes.every(
      this.logger,
      { name: 'usage-flush', what: 'flush usage counters', everyMs: FLUSH_INTERVAL_MS },
      () => this.flush(),
    );
  }

  private requestsKey(workspaceId: string, at: Date): string {
    return this.redis.key('usage', 'requests', workspaceId, utcDay(at));
  }

  /** Counts one API request in a workspace. Never delays or fails the request it counts. */
  recordRequest(workspaceId: string, at = new Date()): void {
    const key = this.requestsKey(workspaceId, at);
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  /** The workspace's usage; called in a request acting in that workspace (the counts go through its scope). */
  async ofWorkspace(workspaceId: string, at = new Date()): Promise<WorkspaceUsage> {
    const monthStart = startOfUtcMonth(at);
    const [monitors, releaseChecks, destinations, statusPages, reports, checks, requests] = await Promise.all([
      this.em.count(Monitor, {}),
      this.em.count(ReleaseCheck, { createdAt: { $gte: monthStart } }),
      this.em.count(AlertDestination, ALERT_DESTINATIONS),
      this.em.count(StatusPage, {}),
      this.em.count(Report, {}),
      // From the hourly rollups (raw results may be pruned), through the one reader of them.
      this.uptime.workspaceChecks(this.em, monthStart),
      this.requestsToday(workspaceId, at),
    ]);
    return {
      monitors,
      checks_this_month: checks,
      release_checks_this_month: releaseChecks,
      alert_destinations: destinations,
      status_pages: statusPages,
      reports,
      api_requests_today: requests,
    };
  }

  /** Today's requests: those every instance has flushed, plus this instance's not yet flushed. */
  async requestsToday(workspaceId: string, at = new Date()): Promise<number> {
    const key = this.requestsKey(workspaceId, at);
    // Read before the GET is sent: a flush starting while the GET is under way takes these counts out of `pending`,
    // and its INCRBY goes on this connection after the GET, so reading `pending` afterwards would miss them.
    const unflushed = this.pending.get(key) ?? 0;
    return Number((await this.redis.client.get(key)) ?? 0) + unflushed;
  }

  async flush(): Promise<void> {
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    // Commands, not a pipeline object: the connection auto-pipelines them in the order they are called, so they go
    // after a GET that `requestsToday` sent before this flush began (an explicit pipeline would be written first).
    const { client } = this.redis;
    try {
      await Promise.all(
        [...batch].flatMap(([key, count]) => [client.incrby(key, count), client.expire(key, 2 * DAY_SECONDS)]),
      );
    } catch (error) {
      // Put the counts back; the next flush tries again.
      for (const [key, count] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + count);
      this.logger.warn({ err: error }, 'could not flush usage counters');
    }
  }

  /** The last counts go to Redis before its connection closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.pass.stop();
    await this.flush();
  }
}
