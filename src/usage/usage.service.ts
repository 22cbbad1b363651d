import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { RedisService } from '../redis/redis.module';
import { Monitor } from '../monitors/entities/monitor.entity';
import { ReleaseCheck } from '../release-checks/entities/release-check.entity';

const DAY_SECONDS = 24 * 3600;
/** Counts are gathered in memory and added to Redis this often: one INCRBY per user, not one per request. */
const FLUSH_INTERVAL_MS = 1000;

function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function startOfUtcMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/**
 * Per-user usage counters, kept in Redis so every API replica adds to the same numbers. Requests are counted in
 * memory first and flushed every second (and at shutdown), so counting costs no round trip on the request path.
 */
@Injectable()
export class UsageService implements OnApplicationShutdown {
  private readonly logger = new Logger(UsageService.name);
  private pending = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisService,
    private readonly em: EntityManager,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  private requestsKey(userId: string, at: Date): string {
    return this.redis.key('usage', 'requests', userId, utcDay(at));
  }

  /** Counts one API request. Never delays or fails the request it counts. */
  recordRequest(userId: string, at = new Date()): void {
    const key = this.requestsKey(userId, at);
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  /** Today's requests: those every instance has flushed, plus this instance's not yet flushed. */
  async requestsToday(userId: string, at = new Date()): Promise<number> {
    const key = this.requestsKey(userId, at);
    return Number((await this.redis.client.get(key)) ?? 0) + (this.pending.get(key) ?? 0);
  }

  /** Release checks the user created this calendar month (UTC). */
  releaseChecksThisMonth(userId: string, at = new Date()): Promise<number> {
    return this.em.count(ReleaseCheck, { user: userId, createdAt: { $gte: startOfUtcMonth(at) } });
  }

  monitors(userId: string): Promise<number> {
    return this.em.count(Monitor, { user: userId });
  }

  /** Monitor checks run this calendar month (UTC), from the hourly rollups (raw results may be pruned). */
  async checksThisMonth(userId: string, at = new Date()): Promise<number> {
    const [row] = await this.em.execute<{ total: string }[]>(
      `select coalesce(sum(r.checks), 0) as total from monitor_check_rollups r
       join monitors m on m.id = r.monitor_id where m.user_id = ? and r.hour >= ?`,
      [userId, startOfUtcMonth(at)],
    );
    return Number(row?.total ?? 0);
  }

  async flush(): Promise<void> {
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    const pipeline = this.redis.client.pipeline();
    for (const [key, count] of batch) pipeline.incrby(key, count).expire(key, 2 * DAY_SECONDS);
    try {
      await pipeline.exec();
    } catch (error) {
      // Put the counts back; the next flush tries again.
      for (const [key, count] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + count);
      this.logger.warn({ err: error }, 'could not flush usage counters');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
