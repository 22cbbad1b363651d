import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/outbox';
import { noticeMaintenance } from '../status-pages/subscribers/subscriber-notices';
import type { MaintenanceWindow } from './entities/maintenance-window.entity';
import { nextTransition, occurrenceAt, type Occurrence } from './maintenance-calendar';

/**
 * Brings what receivers were told of a window up to date with `now`, in the caller's transaction (which holds the
 * window's row): `maintenance.ended` for an announced occurrence no longer under way (it ended, was ended early, or
 * the window changed or is being deleted), then `maintenance.started` for one under way and not yet announced. Sets
 * when to look again. Called by the announcer when that time comes, and by every change to a window, so each
 * occurrence is told once, started before ended, whoever notices first: to the workspace's destinations (the outbox)
 * and to the subscribers of its status pages who hear of it. `deleting`: the window is going away.
 */
export async function announceTransitions(
  em: EntityManager,
  window: MaintenanceWindow,
  now: Date,
  deleting = false,
): Promise<void> {
  const current = deleting ? null : occurrenceAt(window, now);
  const announced = window.announcedStart;
  if (announced && announced.getTime() !== current?.startsAt.getTime()) {
    const plannedEnd = new Date(announced.getTime() + window.durationMinutes * 60_000);
    await tell(em, window, 'maintenance.ended', { startsAt: announced, endsAt: plannedEnd < now ? plannedEnd : now });
    window.announcedStart = null;
  }
  if (current && !window.announcedStart) {
    await tell(em, window, 'maintenance.started', current);
    window.announcedStart = current.startsAt;
  }
  window.nextTransitionAt = deleting ? null : nextTransition(window, now);
}

async function tell(
  em: EntityManager,
  window: MaintenanceWindow,
  type: 'maintenance.started' | 'maintenance.ended',
  occurrence: Occurrence,
): Promise<void> {
  await noticeMaintenance(em, type, window, occurrence);
  recordEvent(em, {
    workspaceId: window.workspace.id,
    type,
    data: {
      maintenance_window: {
        id: window.id,
        name: window.title,
        message: window.message,
        effect: window.mode,
        // Empty: every monitor of the workspace.
        monitor_ids: window.monitorIds,
      },
      starts_at: occurrence.startsAt.toISOString(),
      ends_at: occurrence.endsAt.toISOString(),
    },
    // One order per window: a receiver never hears of an end before the start it ends.
    orderingKey: window.id,
  });
}
