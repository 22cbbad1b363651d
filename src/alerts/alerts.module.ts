import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { runsWorkers, servesHttp } from '../config/roles';
import { AlertsController } from './alerts.controller';
import { AlertsProcessor } from './alerts.processor';
import { DeliveriesService } from './deliveries.service';
import { DeliveryClaims } from './delivery-claims';
import { DeliveryRunner } from './delivery-runner';
import { EventNotifications } from './event-notifications';
import { DeliverySender } from './delivery-sender';
import { DestinationsService } from './destinations.service';
import { OutboxRelay } from './outbox-relay';
import { RulesService } from './rules.service';
import { PlanGate } from '../users/plan-gate';
import { CodeHostsModule } from '../code-hosts/code-hosts.module';

/**
 * Alert destinations, rules, and the delivery of the outbox's events (in worker processes). Deliveries are claimed
 * from PostgreSQL, not queued in Redis: a claim can pick each destination's due deliveries apart and keep a
 * monitor's events in order, which one first-in, first-out queue cannot.
 */
@Module({})
export class AlertsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AlertsModule,
      imports: [CodeHostsModule.forRoot(config)],
      controllers: servesHttp(config) ? [AlertsController] : [],
      providers: [
        DestinationsService,
        RulesService,
        DeliveriesService,
        DeliverySender,
        PlanGate,
        ...(runsWorkers(config)
          ? [OutboxRelay, EventNotifications, DeliveryClaims, DeliveryRunner, AlertsProcessor]
          : []),
      ],
      // Status pages' subscribers are sent to through the same sender (the SSRF-checked dispatcher, the mailer);
      // declarations make destinations and rules through their services.
      exports: [DeliverySender, DestinationsService, RulesService],
    };
  }
}
