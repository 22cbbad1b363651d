import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { NotFound } from '../common/errors/domain-errors';
import { type Page, pageOf, pageWindow } from '../common/pagination/pagination';
import type { ListDeliveriesQuery, WebhookDeliveryDto } from './dto/alerts.dto';
import { WebhookDelivery } from './entities/webhook-delivery.entity';

/** The workspace's delivery log (the request's scope filters every query), and redelivery. */
@Injectable()
export class DeliveriesService {
  constructor(private readonly em: EntityManager) {}

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
    return pageOf(deliveries.map(present), total, query);
  }

  async get(id: string): Promise<WebhookDeliveryDto> {
    return present(await this.owned(id));
  }

  /**
   * The same event to the same destination again, as a new delivery, due at once (the receiver sees the same
   * webhook-id). It is asked for by hand, so it keeps no order with the monitor's other events.
   */
  async redeliver(id: string): Promise<WebhookDeliveryDto> {
    const original = await this.owned(id);
    const again = this.em.create(WebhookDelivery, {
      workspace: original.workspace,
      event: original.event,
      destination: original.destination,
      eventSeq: original.eventSeq,
    });
    await this.em.flush();
    return present(again);
  }

  private async owned(id: string): Promise<WebhookDelivery> {
    const delivery = await this.em.findOne(WebhookDelivery, { id }, { populate: ['event', 'destination'] });
    if (!delivery) throw new NotFound('Delivery');
    return delivery;
  }
}

function present(delivery: WebhookDelivery): WebhookDeliveryDto {
  const { config } = delivery.destination;
  return {
    id: delivery.id,
    event_id: delivery.event.id,
    event_type: delivery.event.type,
    destination_id: delivery.destination.id,
    url: config.url ?? config.webhook_url ?? `mailto:${(config.to ?? []).join(',')}`,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    created_at: delivery.createdAt.toISOString(),
    request: delivery.request ?? { headers: {}, body: '' },
  };
}
