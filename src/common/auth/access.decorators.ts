import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiHeader, ApiSecurity } from '@nestjs/swagger';
import { ApiProblemResponses } from '../errors/api-problem-responses';
import type { AuthenticatedRequest, Principal, WorkspacePrincipal } from './principal';
import { type Scope, type SessionPermission, WORKSPACE_ACTS } from './scopes';

/** What a route demands of its caller. Every route declares exactly one (a test walks them all). */
export type AccessRule =
  { kind: 'public' } | { kind: 'scopes'; scopes: Scope[] } | { kind: 'session'; permission: SessionPermission };

export const ACCESS_RULE = 'vigil:access-rule';

export const API_KEY_SCHEME = 'ApiKeyAuth';
export const SESSION_SCHEME = 'BearerAuth';

/** No credentials needed. Every route, public or not, may fail with a 500 (documented here and below). */
export function Public(): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(ACCESS_RULE, { kind: 'public' } satisfies AccessRule), ApiProblemResponses(500));
}

/** The optional header naming the workspace a session acts in, on every route that acts in one. */
function ApiWorkspaceHeader(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiHeader({ name: 'X-Workspace-Id', required: false, schema: { type: 'string', format: 'uuid' } }),
    // A malformed header is a 400; a workspace the caller is not in is a 404.
    ApiProblemResponses(400, 404),
  );
}

/**
 * An API key holding every listed scope, or a signed-in session whose workspace role allows it (a viewer only
 * reads). The route acts in the caller's workspace. Drives the guard and documents the route's security, its
 * `x-required-scopes`, the `X-Workspace-Id` header and its 400/401/403/404/429 answers in the contract.
 */
export function RequireScopes(...scopes: [Scope, ...Scope[]]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_RULE, { kind: 'scopes', scopes } satisfies AccessRule),
    ApiSecurity(API_KEY_SCHEME),
    ApiBearerAuth(SESSION_SCHEME),
    ApiExtension('x-required-scopes', scopes),
    ApiWorkspaceHeader(),
    ApiProblemResponses(401, 403, 429, 500),
  );
}

/** A signed-in person's session only (never an API key), with the given permission. */
export function RequireSession(permission: SessionPermission): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_RULE, { kind: 'session', permission } satisfies AccessRule),
    ApiBearerAuth(SESSION_SCHEME),
    ApiExtension('x-required-permission', permission),
    ...(WORKSPACE_ACTS.includes(permission) ? [ApiWorkspaceHeader()] : []),
    ApiProblemResponses(401, 403, 429, 500),
  );
}

/** The caller of a route that acts in a workspace (@RequireScopes, reviewing), with that workspace. */
export const ActingPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): WorkspacePrincipal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal?.workspace) throw new Error('ActingPrincipal used on a route that does not act in a workspace');
  return principal as WorkspacePrincipal;
});

/** The authenticated caller. Only on routes that are not public. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
