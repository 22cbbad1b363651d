import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { NotFound, RateLimited, ValidationFailed } from '../../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../../common/pagination/pagination';
import { RateLimitService } from '../../common/rate-limit/rate-limit.service';
import { assertPublicTarget } from '../../common/targets/public-target';
import { acrossWorkspaces, jobUnitOfWork, workspaceUnitOfWork } from '../../common/tenancy/workspace-scope';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type {
  StatusPageSubscriberDto,
  SubscribeDto,
  SubscriptionReceiptDto,
  SubscriptionStatus,
} from '../dto/status-pages.dto';
import { StatusPage } from '../entities/status-page.entity';
import { StatusPageSubscriber } from '../entities/status-page-subscriber.entity';
import { noticeConfirmation } from './subscriber-notices';
import { SubscriptionLinks } from './subscription-links';

const receipt = (status: SubscriptionStatus): SubscriptionReceiptDto => ({ status });
/** Confirmation links one address may be sent a minute, whoever asks (the answer does not say whether it was sent). */
const CONFIRMATIONS_PER_MINUTE = 2;

/**
 * Subscriptions to public status pages. Subscribing is public, so it is rate limited per client address, and its
 * answer is the same whether the address was new, waiting or subscribed already: it never tells who subscribed. An
 * e-mail address is told nothing until it follows its confirmation link; links are signed (SubscriptionLinks).
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly em: EntityManager,
    private readonly links: SubscriptionLinks,
    private readonly rateLimits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async subscribe(slug: string, input: SubscribeDto, client: string): Promise<SubscriptionReceiptDto> {
    const allowance = await this.rateLimits.consume(`subscribe:${client}`, this.config.statusSubscriptionsPerMinute);
    if (!allowance.allowed) throw new RateLimited(allowance.resetSeconds);
    // The page is found by its slug across workspaces; the subscription is written in its own workspace.
    const page = await acrossWorkspaces(this.em).findOne(StatusPage, { slug, published: true });
    if (!page) throw new NotFound('Status page', 'No published status page has this address.');
    const kind = this.kindOf(input);
    const componentIds = input.component_ids ?? [];
    const known = new Set(page.components.map((component) => component.id));
    const unknown = componentIds.flatMap((id, index) =>
      known.has(id) ? [] : [{ field: `component_ids[${index}]`, message: 'is not a component of this page' }],
    );
    if (unknown.length) throw new ValidationFailed(unknown);
    if (kind === 'webhook')
      await assertPublicTarget(input.webhook_url!, 'webhook_url', this.config.allowPrivateTargets);
    const address = kind === 'email' ? input.email!.toLowerCase() : input.webhook_url!;

    const em = workspaceUnitOfWork(this.em, page.workspace.id);
    try {
      await em.transactional(async (tx) => {
        const existing = await tx.findOne(StatusPageSubscriber, { statusPage: page.id, address });
        // A subscription already confirmed is left as it is: whoever asks again cannot change what it follows.
        if (existing?.confirmedAt) return;
        const subscriber =
          existing ??
          tx.create(StatusPageSubscriber, {
            workspace: page.workspace,
            statusPage: page.id,
            kind,
            address,
            componentIds,
            confirmedAt: kind === 'webhook' ? new Date() : null,
          });
        subscriber.componentIds = componentIds;
        // However many clients ask, an address waiting for its confirmation is sent at most two links a minute.
        if (kind === 'email' && (await this.mayResend(page.id, address))) noticeConfirmation(tx, page, subscriber);
      });
    } catch (error) {
      // Two requests for one address at once: the other one subscribed it; the answer is the same.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
    return receipt(kind === 'email' ? 'confirmation_sent' : 'subscribed');
  }

  async confirm(token: string): Promise<SubscriptionReceiptDto> {
    const id = await this.links.subscriberOf(token, 'confirm');
    const em = id && (await jobUnitOfWork(this.em, StatusPageSubscriber, id));
    if (!id || !em) throw new NotFound('Subscription');
    await em.nativeUpdate(StatusPageSubscriber, { id, confirmedAt: null }, { confirmedAt: new Date() });
    return receipt('confirmed');
  }

  /** One click: the subscription ends; a second click answers the same. */
  async unsubscribe(token: string): Promise<SubscriptionReceiptDto> {
    const id = await this.links.subscriberOf(token, 'unsubscribe');
    if (!id) throw new NotFound('Subscription');
    const em = await jobUnitOfWork(this.em, StatusPageSubscriber, id);
    if (em) await em.nativeDelete(StatusPageSubscriber, { id });
    return receipt('unsubscribed');
  }

  /** The page's subscribers, for the workspace (the request's scope filters the page). */
  async list(pageId: string, query: PageQuery): Promise<Page<StatusPageSubscriberDto>> {
    const page = await this.owned(pageId);
    const [subscribers, total] = await this.em.findAndCount(
      StatusPageSubscriber,
      { statusPage: page },
      { orderBy: { createdAt: 'asc', id: 'asc' }, ...pageWindow(query) },
    );
    return pageOf(subscribers.map(presentSubscriber), total, query);
  }

  async remove(pageId: string, subscriberId: string): Promise<void> {
    const page = await this.owned(pageId);
    const removed = await this.em.nativeDelete(StatusPageSubscriber, { id: subscriberId, statusPage: page });
    if (!removed) throw new NotFound('Subscriber');
  }

  private async mayResend(pageId: string, address: string): Promise<boolean> {
    const key = `subscribe-confirmation:${pageId}:${createHash('sha256').update(address).digest('base64url')}`;
    return (await this.rateLimits.consume(key, CONFIRMATIONS_PER_MINUTE)).allowed;
  }

  private kindOf(input: SubscribeDto): 'email' | 'webhook' {
    if ((input.email === undefined) === (input.webhook_url === undefined)) {
      throw ValidationFailed.field('email', 'send one of email and webhook_url');
    }
    return input.email !== undefined ? 'email' : 'webhook';
  }

  private async owned(id: string): Promise<StatusPage> {
    const page = await this.em.findOne(StatusPage, { id });
    if (!page) throw new NotFound('Status page');
    return page;
  }
}

function presentSubscriber(subscriber: StatusPageSubscriber): StatusPageSubscriberDto {
  return {
    id: subscriber.id,
    kind: subscriber.kind,
    email: subscriber.kind === 'email' ? subscriber.address : null,
    webhook_url: subscriber.kind === 'webhook' ? subscriber.address : null,
    component_ids: subscriber.componentIds,
    confirmed: subscriber.confirmedAt !== null,
    created_at: subscriber.createdAt.toISOString(),
  };
}
