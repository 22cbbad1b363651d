import type { EntityClass } from '@mikro-orm/core';
import { Filter } from '@mikro-orm/decorators/legacy';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Tenancy in one place. Every entity a workspace owns is declared `@WorkspaceScoped()`: a MikroORM filter, on by
 * default, adds `workspace = <the request's workspace>` to every find, count, update and delete of it, and to every
 * join that reaches it from a child (MikroORM joins filtered many-to-one targets on its own). The filter takes its
 * workspace from the EntityManager: the auth guard sets it for each request; code that serves no request (workers,
 * the scheduler, instance administration) says so with `acrossWorkspaces`. An EntityManager that was given neither
 * refuses to query a scoped entity at all ("No arguments provided for filter 'workspace'"): a forgotten scope fails
 * loudly instead of leaking another workspace's rows.
 */
export const WORKSPACE_FILTER = 'workspace';

export type WorkspaceFilterParams = { workspaceId: string } | { allWorkspaces: true };

/** Entities a workspace owns: each has a `workspace` relation, which the filter compares. */
type WorkspaceOwned = EntityClass<{ workspace: unknown }>;

export function WorkspaceScoped(): (target: WorkspaceOwned) => void {
  return Filter<WorkspaceOwned>({
    name: WORKSPACE_FILTER,
    default: true,
    cond: (args: Record<string, unknown>) => {
      const params = args as WorkspaceFilterParams;
      return 'allWorkspaces' in params ? {} : { workspace: params.workspaceId };
    },
  });
}

/** From now on, this EntityManager (a request's) sees only this workspace's rows. */
export function scopeToWorkspace(em: EntityManager, workspaceId: string): void {
  em.setFilterParams(WORKSPACE_FILTER, { workspaceId } satisfies WorkspaceFilterParams);
}

/** A fresh unit of work that sees every workspace: for workers, the scheduler and instance administration only. */
export function acrossWorkspaces(em: EntityManager): EntityManager {
  const fork = em.fork();
  fork.setFilterParams(WORKSPACE_FILTER, { allWorkspaces: true } satisfies WorkspaceFilterParams);
  return fork;
}
