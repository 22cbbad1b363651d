import type { SubscriberMessage } from '../../alerts/delivery-sender';
import type { StatusPageSubscriber } from '../entities/status-page-subscriber.entity';
import type { NotificationContent, NotificationKind } from '../entities/subscriber-notification.entity';

/** The links a notification carries. */
export interface NotificationLinks {
  page: string;
  unsubscribe: string;
  /** For a confirmation only. */
  confirm: string | null;
}

const INCIDENT_WORDS = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

/** What a notification says to a person: a subject and a few lines of text. */
function words(
  kind: NotificationKind,
  content: NotificationContent,
  links: NotificationLinks,
): { subject: string; lines: string[] } {
  const { page, incident, maintenance } = content;
  switch (kind) {
    case 'confirmation':
      return {
        subject: `Confirm your subscription to ${page.title}`,
        lines: [
          `Someone (we hope you) asked to be told of incidents and maintenance on ${page.title}.`,
          `Confirm here: ${links.confirm}`,
          'If it was not you, ignore this message: nothing is sent without the confirmation.',
        ],
      };
    case 'incident.updated': {
      const latest = incident!.updates[incident!.updates.length - 1];
      return {
        subject: `[${page.title}] ${incident!.title}: ${INCIDENT_WORDS[incident!.status]}`,
        lines: [
          `${INCIDENT_WORDS[latest.status]} (${latest.created_at}): ${latest.message}`,
          `Impact: ${incident!.impact}`,
        ],
      };
    }
    case 'maintenance.started':
    case 'maintenance.ended':
      return {
        subject: `[${page.title}] Maintenance ${kind === 'maintenance.started' ? 'started' : 'ended'}: ${maintenance!.name}`,
        lines: [
          kind === 'maintenance.started'
            ? `Maintenance began at ${maintenance!.starts_at} and is planned to end at ${maintenance!.ends_at}.`
            : `Maintenance ended at ${maintenance!.ends_at}.`,
          `Affects: ${maintenance!.components.join(', ')}`,
          ...(maintenance!.message ? [maintenance!.message] : []),
        ],
      };
  }
}

/**
 * A notification as sent to its subscriber: an e-mail with the page's and the one-click unsubscribe links, or, for a
 * webhook, the JSON body openapi.yaml's `StatusPageNotification` describes.
 */
export function subscriberMessage(
  subscriber: Pick<StatusPageSubscriber, 'kind' | 'address'>,
  kind: NotificationKind,
  content: NotificationContent,
  links: NotificationLinks,
  sentAt: Date,
): SubscriberMessage {
  if (subscriber.kind === 'webhook') {
    return {
      kind: 'webhook',
      url: subscriber.address,
      body: {
        type: kind,
        status_page: { title: content.page.title, url: links.page },
        incident: content.incident,
        maintenance: content.maintenance,
        unsubscribe_url: links.unsubscribe,
        sent_at: sentAt.toISOString(),
      },
    };
  }
  const { subject, lines } = words(kind, content, links);
  return {
    kind: 'email',
    to: subscriber.address,
    subject,
    text: [...lines, '', `Status page: ${links.page}`, `Unsubscribe with one click: ${links.unsubscribe}`].join('\n'),
    unsubscribeUrl: links.unsubscribe,
  };
}
