import { Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RedisService } from '../../redis/redis.module';

const WINDOW_SECONDS = 60;

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Per-bucket request counting in Redis (rate-limiter-flexible), shared by every API replica. One limiter per
 * ceiling, all over the same keys: the count lives in Redis and the ceiling is compared per request, so a
 * raised ceiling applies from the next request.
 */
@Injectable()
export class RateLimitService {
  private readonly limiters = new Map<number, RateLimiterRedis>();

  constructor(private readonly redis: RedisService) {}

  private limiterFor(points: number): RateLimiterRedis {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis.client,
        keyPrefix: this.redis.key('ratelimit'),
        points,
        duration: WINDOW_SECONDS,
        // While Redis is unreachable, each process counts on its own rather than refusing every request.
        insuranceLimiter: new RateLimiterMemory({ points, duration: WINDOW_SECONDS }),
      });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }

  async consume(bucket: string, limit: number): Promise<RateLimitState> {
    const state = (result: RateLimiterRes, allowed: boolean): RateLimitState => ({
      allowed,
      limit,
      remaining: Math.max(0, result.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
    });
    try {
      return state(await this.limiterFor(limit).consume(bucket), true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return state(rejection, false);
      throw rejection;
    }
  }
}
