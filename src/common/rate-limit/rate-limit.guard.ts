import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { UsageService } from '../../usage/usage.service';
import { accessRuleOf } from '../auth/access-rule';
import type { AuthenticatedRequest } from '../auth/principal';
import { RateLimited } from '../errors/domain-errors';
import { RateLimitService } from './rate-limit.service';

/**
 * Global guard after AuthGuard: one bucket per API key (per user for sessions). Sets RateLimit-* headers on
 * every authenticated response and refuses with 429 once the bucket is spent.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly rateLimits: RateLimitService,
    private readonly usage: UsageService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (accessRuleOf(this.reflector, context).kind === 'public') return true;
    const http = context.switchToHttp();
    const principal = http.getRequest<AuthenticatedRequest>().principal;
    if (!principal) throw new Error('RateLimitGuard ran before AuthGuard');
    // Per key for integrations, per person for sessions (whichever workspace they act in).
    const bucket = principal.kind === 'api_key' ? `key:${principal.keyId}` : `user:${principal.userId}`;
    const state = await this.rateLimits.consume(bucket, principal.rateLimitPerMinute);
    http.getResponse<Response>().set({
      'RateLimit-Limit': String(state.limit),
      'RateLimit-Remaining': String(state.remaining),
      'RateLimit-Reset': String(state.resetSeconds),
    });
    if (!state.allowed) throw new RateLimited(state.resetSeconds);
    if (principal.workspace) this.usage.recordRequest(principal.workspace.id);
    return true;
  }
}
