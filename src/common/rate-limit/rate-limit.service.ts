import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RedisService } from '../../redis/redis.module';
import type { Principal } from '../auth/principal';
import { RateLimited } from '../errors/domain-errors';

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

  /**
   * Spends one request of an authenticated caller's bucket: one per API key, one per person for sessions (whichever
   * workspace they act in). Sets the RateLimit-* headers on the response and refuses with 429 once the bucket is spent.
   */
  async admit(principal: Principal, response: Response): Promise<void> {
    const bucket = principal.kind === 'api_key' ? `key:${principal.keyId}` : `user:${principal.userId}`;
    const state = await this.consume(bucket, principal.rateLimitPerMinute);
    response.set({
      'RateLimit-Limit': String(state.limit),
      'RateLimit-Remaining': String(state.remaining),
      'RateLimit-Reset': String(state.resetSeconds),
    });
    if (!state.allowed) throw new RateLimited(state.resetSeconds);
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
