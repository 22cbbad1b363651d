import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { DeliverySender } from '../../alerts/delivery-sender';
import { BackgroundPasses } from '../../common/background/background-passes';
import { acrossWorkspaces, workspaceUnitOfWork } from '../../common/tenancy/workspace-scope';
import { StatusPageSubscriber } from '../entities/status-page-subscriber.entity';
import { SubscriberNotification } from '../entities/subscriber-notification.entity';
import { subscriberMessage } from './subscriber-message';
import { SubscriptionLinks } from './subscription-links';

const TICK_MS = 500;
const SENDS_PER_TICK = 20;
/** How long a claimed notification is held by its sender before another may take it (a worker that died). */
const CLAIM_SECONDS = 120;
const MAX_ATTEMPTS = 8;
/** The wait after the nth failed attempt: 30 s, 1 min, 2 min… */
const retryDelayMs = (attempts: number) => 30_000 * 2 ** (attempts - 1);

/**
 * Sends the subscribers' notifications after their transaction committed: claims due ones (`FOR UPDATE SKIP LOCKED`,
 * pushing their due time past the claim, so a worker that dies leaves them to another), sends each once, and records
 * the outcome; a failure is retried with backoff, up to MAX_ATTEMPTS, and a webhook's `410 Gone` ends its
 * subscription. A subscriber who left takes its notifications with it.
 */
@Injectable()
export class SubscriberNotifier {
  private readonly logger = new Logger(SubscriberNotifier.name);

  constructor(
    private readonly orm: MikroORM,
    private readonly sender: DeliverySender,
    private readonly links: SubscriptionLinks,
    passes: BackgroundPasses,
  ) {
    // Stopped before the database closes: a send under way records its outcome first.
    passes.every(
      this.logger,
      { name: 'subscriber-notifier', what: 'send subscriber notifications', everyMs: TICK_MS },
      (stopping) => this.tick(stopping),
    );
  }

  /** Sends what is due, until `stopping` is aborted; returns how many it tried. */
  async tick(stopping?: AbortSignal): Promise<number> {
    // One at a time: each claim outlasts one send (a webhook gives up after 15 s), never a batch of them.
    let sent = 0;
    for (; sent < SENDS_PER_TICK && !stopping?.aborted; sent += 1) {
      const [claimed] = await acrossWorkspaces(this.orm.em).execute<
        { id: string; workspace_id: string; attempts: number }[]
      >(
        `update subscriber_notifications n
            set next_attempt_at = now() + make_interval(secs => ${CLAIM_SECONDS}), attempts = n.attempts + 1
          where n.id = (select id from subscriber_notifications
                         where status = 'pending' and next_attempt_at <= now()
                         order by next_attempt_at limit 1 for update skip locked)
          returning n.id, n.workspace_id, n.attempts`,
        [],
        'all',
      );
      if (!claimed) break;
      await this.send(claimed.id, claimed.workspace_id, claimed.attempts);
    }
    return sent;
  }

  /** Sends the notification claimed as attempt `attempt`, and records the outcome unless another claim took it since. */
  private async send(id: string, workspaceId: string, attempt: number): Promise<void> {
    const em = workspaceUnitOfWork(this.orm.em, workspaceId);
    const notification = await em.findOne(SubscriberNotification, { id }, { populate: ['subscriber'] });
    if (!notification) return;
    const { subscriber, content } = notification;
    const message = subscriberMessage(
      subscriber,
      notification.kind,
      content,
      {
        page: this.links.pageUrl(content.page.slug),
        unsubscribe: await this.links.url(content.page.slug, subscriber.id, 'unsubscribe'),
        confirm:
          notification.kind === 'confirmation'
            ? await this.links.url(content.page.slug, subscriber.id, 'confirm')
            : null,
      },
      new Date(),
    );
    const outcome = await this.sender.notifySubscriber(message);
    if (outcome.gone) {
      // 410 Gone: the receiver asks to be told nothing more, as an unsubscribe would.
      await em.nativeDelete(StatusPageSubscriber, { id: subscriber.id });
      return;
    }
    const recorded = outcome.delivered
      ? { status: 'sent' as const, sentAt: new Date(), lastError: null }
      : {
          status: attempt >= MAX_ATTEMPTS ? ('failed' as const) : ('pending' as const),
          lastError: outcome.attempt.error ?? `answered ${outcome.attempt.response_status}`,
          nextAttemptAt: new Date(Date.now() + retryDelayMs(attempt)),
        };
    await em.nativeUpdate(SubscriberNotification, { id, attempts: attempt }, recorded);
  }
}
