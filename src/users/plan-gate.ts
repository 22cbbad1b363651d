import type { EntityClass } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Workspace } from '../workspaces/entities/workspace.entity';
import { planLimits } from './plans';

/** The plan limits that count resources a workspace creates. */
export type CountedLimit = 'monitors' | 'alert_destinations' | 'status_pages' | 'reports';

const WORDS: Record<CountedLimit, string> = {
  monitors: 'monitors',
  alert_destinations: 'alert destinations',
  status_pages: 'status pages',
  reports: 'reports',
};

/**
 * The one place creates check their workspace's plan: `409 plan_limit_reached` naming the limit, the plan, what it
 * allows and what is used. Counts go through the request's workspace scope, like every query of a request, and the
 * check and the create commit together.
 */
@Injectable()
export class PlanGate {
  constructor(
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Runs `create` in a transaction that holds the workspace's lock for this limit, after checking there is room for
   * `adding` more: two creates at once cannot both take the last place. What `create` makes with `tx` is committed
   * with the check, or not at all.
   */
  async withRoom<T>(
    workspaceId: string,
    limit: CountedLimit,
    counted: EntityClass<{ workspace: unknown }>,
    adding: number,
    create: (tx: EntityManager) => Promise<T> | T,
    /** Which rows of `counted` count, when not all do. */
    countedWhere: object = {},
  ): Promise<T> {
    return this.em.transactional(async (tx) => {
      await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`plan:${workspaceId}:${limit}`]);
      const workspace = await tx.findOneOrFail(Workspace, { id: workspaceId });
      const allowed = planLimits(this.config.plans, workspace.plan)[limit];
      const used = await tx.count(counted, countedWhere);
      if (used + adding > allowed) {
        throw new DomainError(
          'plan_limit_reached',
          `The ${workspace.plan} plan allows ${allowed} ${WORDS[limit]}; this workspace has ${used}` +
            (adding === 1 ? ', so it cannot add another.' : `, and ${adding} more would exceed it.`),
          { limit, plan: workspace.plan, allowed, used },
        );
      }
      return create(tx);
    });
  }
}
