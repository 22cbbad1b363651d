import { EntityManager } from '@mikro-orm/postgresql';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { Authenticator } from '../../auth/authenticator';
import { UsageService } from '../../usage/usage.service';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { actingWorkspace, actsInWorkspace, requestedWorkspaceId } from '../tenancy/acting-workspace';
import { scopeToWorkspace } from '../tenancy/workspace-scope';
import { accessRuleOf } from './access-rule';
import { authorize } from './authorize';
import type { AuthenticatedRequest } from './principal';

/**
 * Global guard: authenticates the caller unless the route is public, spends one request of the caller's rate-limit
 * bucket (so every answer from here on, a 403 or 404 included, carries the RateLimit-* headers), settles the
 * workspace the request acts in, scopes the request's unit of work to it (every query of a workspace-owned entity is
 * filtered from here on), then checks the route's rule.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly rateLimits: RateLimitService,
    private readonly usage: UsageService,
    private readonly em: EntityManager,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = accessRuleOf(this.reflector, context);
    if (rule.kind === 'public') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<Response>();
    const principal = await this.authenticator.authenticate(request, response);
    request.principal = principal;
    await this.rateLimits.admit(principal, response);
    if (actsInWorkspace(rule)) {
      principal.workspace = actingWorkspace(principal, requestedWorkspaceId(request));
      scopeToWorkspace(this.em, principal.workspace.id);
    }
    authorize(principal, rule);
    if (principal.workspace) this.usage.recordRequest(principal.workspace.id);
    return true;
  }
}
