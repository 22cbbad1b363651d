import type { Request } from 'express';
import { isUUID } from 'class-validator';
import type { AccessRule } from '../auth/access.decorators';
import type { Principal, WorkspaceAccess } from '../auth/principal';
import { WORKSPACE_ACTS } from '../auth/scopes';
import { NotFound, ValidationFailed } from '../errors/domain-errors';

export const WORKSPACE_HEADER = 'x-workspace-id';

/** The workspace a request names in `X-Workspace-Id`, or null; a value that is not a UUID is a 400. */
export function requestedWorkspaceId(request: Request): string | null {
  const value = request.headers[WORKSPACE_HEADER];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !isUUID(value)) {
    throw ValidationFailed.field('X-Workspace-Id', 'must be the UUID of a workspace you are a member of');
  }
  return value.toLowerCase();
}

/** Routes that act in one workspace: everything a key can call, and a person's acts (reviewing, attesting). */
export function actsInWorkspace(rule: Exclude<AccessRule, { kind: 'public' }>): boolean {
  return rule.kind === 'scopes' || (rule.kind === 'session' && WORKSPACE_ACTS.includes(rule.permission));
}

/**
 * The workspace the request acts in. A key acts in its own and may not name another; a session acts in the one its
 * person belongs to and named (or their first). Either way a workspace the caller is not in is a 404, never a 403.
 */
export function actingWorkspace(principal: Principal, requested: string | null): WorkspaceAccess {
  if (principal.kind === 'api_key') {
    if (requested !== null && requested !== principal.workspace.id) throw workspaceNotFound();
    return principal.workspace;
  }
  if (principal.workspace) return principal.workspace;
  if (requested !== null) throw workspaceNotFound();
  throw new NotFound(
    'Workspace',
    'You are not a member of any workspace. Create one with POST /workspaces, or ask an admin of one to add you.',
  );
}

function workspaceNotFound(): NotFound {
  return new NotFound('Workspace', 'Workspace not found, or you are not a member of it (X-Workspace-Id).');
}
