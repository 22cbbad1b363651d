import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { PublicStatusController, StatusSiteController } from './public-status.controller';
import { PublicStatusCache } from './public-status-cache';
import { PublicStatusService } from './public-status.service';
import { StatusPagesController } from './status-pages.controller';
import { StatusPagesService } from './status-pages.service';
import { PlanGate } from '../users/plan-gate';
import { runsWorkers, servesHttp } from '../config/roles';
import { SubscriberNotifier } from './subscribers/subscriber-notifier';
import { SubscriptionLinks } from './subscribers/subscription-links';
import { SubscriptionsService } from './subscribers/subscriptions.service';

@Module({})
export class StatusPagesModule {
  /**
   * `monitors` is the application's MonitorsModule (the same instance), for its uptime reader; `alerts` its
   * AlertsModule, whose sender the subscribers' notifier sends through.
   */
  static forRoot(config: AppConfig, monitors: DynamicModule, alerts: DynamicModule): DynamicModule {
    return {
      module: StatusPagesModule,
      imports: [monitors, alerts],
      // The public read comes first: `/status-pages/public/x` must never be taken for a page id.
      controllers: servesHttp(config) ? [PublicStatusController, StatusSiteController, StatusPagesController] : [],
      providers: [
        StatusPagesService,
        PublicStatusService,
        PublicStatusCache,
        PlanGate,
        SubscriptionLinks,
        // Subscribing is public and rate limited, like the rest of the API (whose limiter only API processes have).
        ...(servesHttp(config) ? [SubscriptionsService] : []),
        ...(runsWorkers(config) ? [SubscriberNotifier] : []),
      ],
      exports: [StatusPagesService],
    };
  }
}
