import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { Authenticator } from '../../auth/authenticator';
import { accessRuleOf } from './access-rule';
import { authorize } from './authorize';
import type { AuthenticatedRequest } from './principal';

/** Global guard: authenticates the caller unless the route is public, then checks the route's rule. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = accessRuleOf(this.reflector, context);
    if (rule.kind === 'public') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    request.principal = await this.authenticator.authenticate(request, http.getResponse<Response>());
    authorize(request.principal, rule);
    return true;
  }
}
