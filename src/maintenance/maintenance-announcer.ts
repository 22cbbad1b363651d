import { LockMode } from '@mikro-orm/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { BackgroundPasses } from '../common/background/background-passes';
import { acrossWorkspaces, workspaceUnitOfWork } from '../common/tenancy/workspace-scope';
import { PublicStatusCache } from '../status-pages/public-status-cache';
import { MaintenanceWindow } from './entities/maintenance-window.entity';
import { announceTransitions } from './maintenance-announcements';

/** How often the announcer looks for windows starting or ending: events are at most this late. */
const TICK_MS = 1_000;
const CLAIM_BATCH = 100;

/**
 * Sends `maintenance.started` and `maintenance.ended` as occurrences begin and end by the clock (changes through the
 * API announce themselves). Each window due is taken under its row lock with SKIP LOCKED, so announcers running side
 * by side never tell an occurrence twice; `announceTransitions` decides what to tell and when to look again.
 */
@Injectable()
export class MaintenanceAnnouncer {
  private readonly logger = new Logger(MaintenanceAnnouncer.name);

  constructor(
    private readonly orm: MikroORM,
    private readonly statusCache: PublicStatusCache,
    passes: BackgroundPasses,
  ) {
    passes.every(this.logger, { name: 'maintenance-announcer', what: 'announce maintenance', everyMs: TICK_MS }, () =>
      this.tick(),
    );
  }

  /** One pass over the windows due now; returns how many it looked at. */
  async tick(): Promise<number> {
    // The due windows' own rows, read across workspaces to learn whose they are; each is then handled in its
    // workspace's unit of work.
    const due = await acrossWorkspaces(this.orm.em).find(
      MaintenanceWindow,
      { nextTransitionAt: { $lte: new Date() } },
      { fields: ['id', 'workspace'], orderBy: { nextTransitionAt: 'asc' }, limit: CLAIM_BATCH },
    );
    for (const { id, workspace } of due) await this.announce(id, workspace.id);
    return due.length;
  }

  private async announce(id: string, workspaceId: string): Promise<void> {
    const em = workspaceUnitOfWork(this.orm.em, workspaceId);
    const announced = await em.transactional(async (tx) => {
      const window = await tx.findOne(
        MaintenanceWindow,
        { id, nextTransitionAt: { $lte: new Date() } },
        { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
      );
      if (window) await announceTransitions(tx, window, new Date());
      return window !== null;
    });
    // The workspace's status pages show the maintenance that began or ended from their next read.
    if (announced) await this.statusCache.invalidateWorkspace(em);
  }
}
