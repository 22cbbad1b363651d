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

/** A fresh unit of work that sees only this workspace's rows. */
export function workspaceUnitOfWork(em: EntityManager, workspaceId: string): EntityManager {
  const fork = em.fork();
  scopeToWorkspace(fork, workspaceId);
  return fork;
}

/**
 * A fresh unit of work that sees every workspace: for the scheduler, the outbox relay, retention and instance
 * administration, and for a job to read its own row; the job then works in its row's workspace (`jobUnitOfWork`).
 */
export function acrossWorkspaces(em: EntityManager): EntityManager {
  const fork = em.fork();
  fork.setFilterParams(WORKSPACE_FILTER, { allWorkspaces: true } satisfies WorkspaceFilterParams);
  return fork;
}

/**
 * A job's unit of work. A job names its row (a crawl, a release check, a scan); the row is read across workspaces
 * only to learn whose it is, and the job works in a fresh unit of work scoped to that workspace, raw SQL included.
 * Null when the row is gone.
 */
export async function jobUnitOfWork(
  em: EntityManager,
  entity: EntityClass<{ id: string; workspace: { id: string } }>,
  id: string,
): Promise<EntityManager | null> {
  const row = await acrossWorkspaces(em).findOne(entity, { id }, { fields: ['workspace'] });
  return row ? workspaceUnitOfWork(em, row.workspace.id) : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Raw SQL's share of the filter: a condition on a `workspace_id` column that restricts a statement to what the unit
 * of work may see, `column = '<workspace>'` for a request's (or a job scoped to its workspace), `true` for one that
 * said `acrossWorkspaces`. Like the filter it fails closed: a unit of work given neither throws. The workspace id is
 * written into the statement, not bound, so the condition goes anywhere in it without shifting the `?` parameters;
 * it comes from the filter's own parameters and is checked to be a UUID first.
 *
 * Every raw statement that names a workspace's table uses it (test/contract/raw-sql-scope.spec.ts), with the column
 * of the table itself or of the root it is reached through (`join monitors m on m.id = r.monitor_id and ...`).
 */
export function inWorkspace(em: EntityManager, column: string): string {
  const params = em.getFilterParams<Partial<WorkspaceFilterParams>>(WORKSPACE_FILTER);
  if (params && 'allWorkspaces' in params && params.allWorkspaces === true) return 'true';
  const workspaceId = params && 'workspaceId' in params ? params.workspaceId : undefined;
  if (typeof workspaceId !== 'string' || !UUID.test(workspaceId)) {
    throw new Error(`raw SQL on ${column} needs a unit of work scoped to a workspace, or acrossWorkspaces`);
  }
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/.test(column)) throw new Error(`not a column: ${column}`);
  return `${column} = '${workspaceId.toLowerCase()}'`;
}
