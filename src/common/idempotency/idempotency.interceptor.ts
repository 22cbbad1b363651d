import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { defer, lastValueFrom, type Observable } from 'rxjs';
import { accessRuleOf } from '../auth/access-rule';
import type { AuthenticatedRequest } from '../auth/principal';
import { actsInWorkspace } from '../tenancy/acting-workspace';
import { IDEMPOTENT } from './idempotent.decorator';
import { type IdempotencyScope, parseIdempotencyKey, requestHash } from './idempotency-key';
import { IdempotencyStore } from './idempotency.store';

/**
 * Serves `Idempotency-Key` on routes marked `@Idempotent()`: the first request with a key runs and its answer is
 * kept; a repeat with the same request gets that answer again (status, body, Location) without running; another
 * request with the key is a 422, and a repeat while the first still runs a 409. An error answer is not kept.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || !this.reflector.get<boolean>(IDEMPOTENT, context.getHandler())) {
      return next.handle();
    }
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers['idempotency-key'];
    if (header === undefined) return next.handle();
    // Run to the end even if the client goes away: the claim must be completed or released either way.
    return defer(() => this.serve(context, next, parseIdempotencyKey(header)));
  }

  private scopeOf(context: ExecutionContext, key: string): IdempotencyScope {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = request.principal;
    const rule = accessRuleOf(this.reflector, context);
    if (!principal || rule.kind === 'public') {
      throw new Error(`@Idempotent() on ${context.getClass().name}.${context.getHandler().name} needs a caller`);
    }
    return {
      // A route that acts in no workspace (creating one) is scoped by the credential alone: a session's default
      // workspace may change between a request and its retry.
      workspaceId: actsInWorkspace(rule) ? (principal.workspace?.id ?? null) : null,
      credential: principal.kind === 'api_key' ? `key:${principal.keyId}` : `user:${principal.userId}`,
      method: request.method,
      route: (request.route as { path?: string } | undefined)?.path ?? request.path,
      key,
    };
  }

  private async serve(context: ExecutionContext, next: CallHandler, key: string): Promise<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<Response>();
    const scope = this.scopeOf(context, key);
    const claim = await this.store.claim(scope, requestHash(request));

    if (claim.kind === 'replay') {
      const { answer } = claim;
      response.status(answer.status);
      if (answer.location) response.location(answer.location);
      return answer.body === null ? undefined : (JSON.parse(answer.body) as unknown);
    }

    let result: unknown;
    try {
      result = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      await this.store.release(claim.id);
      throw error;
    }
    const location = response.getHeader('Location');
    await this.store.complete(scope, claim.id, {
      status: response.statusCode,
      body: result === undefined ? null : JSON.stringify(result),
      location: typeof location === 'string' ? location : null,
    });
    return result;
  }
}
