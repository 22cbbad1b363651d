import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { GITLAB_COM } from '../code-hosts/code-host-sender';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DomainError, NotFound } from '../common/errors/domain-errors';
import { OutboxEvent } from '../events/event.entity';
import { type Page, pageOf, pageWindow } from '../common/pagination/pagination';
import type { ListDeliveriesQuery, WebhookDeliveryDto } from './dto/alerts.dto';
import { type AlertDestination, CODE_HOST_PROVIDERS } from './entities/alert-destination.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';

/** The workspace's delivery log (the request's scope filters every query), and redelivery. */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(query: ListDeliveriesQuery): Promise<Page<WebhookDeliveryDto>> {
    const [deliveries, total] = await this.em.findAndCount(
      WebhookDelivery,
      {
        ...(query.destination_id ? { destination: query.destination_id } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.event_type ? { event: { type: query.event_type } } : {}),
      },
      { populate: ['event', 'destination'], orderBy: { createdAt: 'desc', id: 'desc' }, ...pageWindow(query) },
    );
    return pageOf(
      deliveries.map((delivery) => this.present(delivery)),
      total,
      query,
    );
  }

  async get(id: string): Promise<WebhookDeliveryDto> {
    return this.present(await this.owned(id));
  }

  /**
   * The same event to the same destination again, as a new delivery, due at once (the receiver sees the same
   * webhook-id). It is asked for by hand, so it keeps no order with the monitor's other events.
   */
  async redeliver(id: string): Promise<WebhookDeliveryDto> {
    const original = await this.owned(id);
    const codeHost = (CODE_HOST_PROVIDERS as readonly string[]).includes(original.destination.type);
    if (codeHost) await this.assertLatestOfItsCheck(original);
    const again = this.em.create(WebhookDelivery, {
      workspace: original.workspace,
      event: original.event,
      destination: original.destination,
      eventSeq: original.eventSeq,
      // A status keeps its place in its check's lane, behind anything still being sent.
      lane: codeHost ? original.lane : null,
    });
    await this.em.flush();
    return this.present(again);
  }

  /**
   * A code host shows the gate as of the event sent: sending an earlier one again (an approval after a rejection or a
   * rerun) would show a gate the check no longer has. Only the check's latest event may go again.
   */
  private async assertLatestOfItsCheck(delivery: WebhookDelivery): Promise<void> {
    const latest = await this.em.findOne(
      OutboxEvent,
      { orderingKey: delivery.event.orderingKey },
      { orderBy: { seq: 'desc' }, fields: ['id'] },
    );
    if (latest && latest.id !== delivery.event.id) {
      throw new DomainError(
        'conflict',
        'The release check has moved on since this status was sent; sending it again would show a gate it no longer ' +
          'has. Redeliver the delivery of its latest event instead.',
      );
    }
  }

  private async owned(id: string): Promise<WebhookDelivery> {
    const delivery = await this.em.findOne(WebhookDelivery, { id }, { populate: ['event', 'destination'] });
    if (!delivery) throw new NotFound('Delivery');
    return delivery;
  }

  private present(delivery: WebhookDelivery): WebhookDeliveryDto {
    return {
      id: delivery.id,
      event_id: delivery.event.id,
      event_type: delivery.event.type,
      destination_id: delivery.destination.id,
      url: this.addressOf(delivery.destination),
      status: delivery.status,
      attempts: delivery.attempts,
      next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
      created_at: delivery.createdAt.toISOString(),
      request: delivery.request ?? { headers: {}, body: '' },
    };
  }

  /** Where a destination's deliveries go: its URL, its addresses, or its code host's API. */
  private addressOf(destination: AlertDestination): string {
    const { config } = destination;
    switch (destination.type) {
      case 'github':
        return this.config.githubApiUrl;
      case 'gitlab':
        return `${config.base_url ?? GITLAB_COM}/api/v4`;
      case 'email':
        return `mailto:${(config.to ?? []).join(',')}`;
      default:
        return config.url ?? config.webhook_url ?? '';
    }
  }
}
