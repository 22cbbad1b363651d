import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { ApiProblemResponses } from '../errors/api-problem-responses';
import type { AuthenticatedRequest, Principal } from './principal';
import type { Scope, SessionPermission } from './scopes';

/** What a route demands of its caller. Every route declares exactly one (a test walks them all). */
export type AccessRule =
  { kind: 'public' } | { kind: 'scopes'; scopes: Scope[] } | { kind: 'session'; permission: SessionPermission };

export const ACCESS_RULE = 'vigil:access-rule';

export const API_KEY_SCHEME = 'ApiKeyAuth';
export const SESSION_SCHEME = 'BearerAuth';

/** No credentials needed. */
export function Public(): MethodDecorator & ClassDecorator {
  return SetMetadata(ACCESS_RULE, { kind: 'public' } satisfies AccessRule);
}

/**
 * An API key holding every listed scope, or any signed-in session. Drives the guard and documents the
 * route's security, its `x-required-scopes` and its 401/403/429 answers in the contract.
 */
export function RequireScopes(...scopes: [Scope, ...Scope[]]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_RULE, { kind: 'scopes', scopes } satisfies AccessRule),
    ApiSecurity(API_KEY_SCHEME),
    ApiBearerAuth(SESSION_SCHEME),
    ApiExtension('x-required-scopes', scopes),
    ApiProblemResponses(401, 403, 429),
  );
}

/** A signed-in person's session only (never an API key), with the given permission. */
export function RequireSession(permission: SessionPermission): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_RULE, { kind: 'session', permission } satisfies AccessRule),
    ApiBearerAuth(SESSION_SCHEME),
    ApiExtension('x-required-permission', permission),
    ApiProblemResponses(401, 403, 429),
  );
}

/** The authenticated caller. Only on routes that are not public. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
