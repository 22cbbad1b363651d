import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublicIncidentDto, PublicMaintenanceDto } from '../dto/status-pages.dto';
import { StatusPage } from '../entities/status-page.entity';
import { StatusPageSubscriber } from '../entities/status-page-subscriber.entity';
import {
  type NotificationContent,
  type NotificationKind,
  SubscriberNotification,
} from '../entities/subscriber-notification.entity';
import { coveredComponents, hearsOfMaintenance, type MaintenanceCoverage } from './subscriber-audience';

/*
 * Notifications for a status page's subscribers, written in the caller's unit of work: in the transaction of the
 * change they tell, so they exist exactly when it does (the subscribers' outbox). The notifier sends them after commit.
 */

function notify(
  em: EntityManager,
  subscriber: StatusPageSubscriber,
  kind: NotificationKind,
  content: NotificationContent,
) {
  em.create(SubscriberNotification, { workspace: subscriber.workspace, subscriber, kind, content });
}

const pageView = (page: StatusPage) => ({ title: page.title, slug: page.slug });

/** The confirmation link to an address that asked to subscribe. */
export function noticeConfirmation(em: EntityManager, page: StatusPage, subscriber: StatusPageSubscriber): void {
  notify(em, subscriber, 'confirmation', { page: pageView(page), incident: null, maintenance: null });
}

/** An incident's new update (or its opening) to every confirmed subscriber of its published page. */
export async function noticeIncident(em: EntityManager, page: StatusPage, incident: PublicIncidentDto): Promise<void> {
  if (!page.published) return;
  const subscribers = await em.find(StatusPageSubscriber, { statusPage: page, confirmedAt: { $ne: null } });
  for (const subscriber of subscribers) {
    notify(em, subscriber, 'incident.updated', { page: pageView(page), incident, maintenance: null });
  }
}

/**
 * A maintenance starting or ending to the confirmed subscribers of the workspace's published pages who hear of it
 * (`hearsOfMaintenance`); each page's notice names its own components the maintenance covers.
 */
export async function noticeMaintenance(
  em: EntityManager,
  kind: 'maintenance.started' | 'maintenance.ended',
  window: MaintenanceCoverage & { title: string; message: string | null },
  occurrence: { startsAt: Date; endsAt: Date },
): Promise<void> {
  const pages = (await em.find(StatusPage, { published: true })).filter(
    (page) => coveredComponents(page.components, window).length > 0,
  );
  if (pages.length === 0) return;
  const subscribers = await em.find(StatusPageSubscriber, {
    statusPage: { $in: pages },
    confirmedAt: { $ne: null },
  });
  for (const page of pages) {
    const maintenance: PublicMaintenanceDto = {
      name: window.title,
      message: window.message,
      starts_at: occurrence.startsAt.toISOString(),
      ends_at: occurrence.endsAt.toISOString(),
      components: coveredComponents(page.components, window).map((component) => component.name),
    };
    for (const subscriber of subscribers.filter((candidate) => candidate.statusPage.id === page.id)) {
      if (!hearsOfMaintenance(subscriber.componentIds, page.components, window)) continue;
      notify(em, subscriber, kind, { page: pageView(page), incident: null, maintenance });
    }
  }
}
