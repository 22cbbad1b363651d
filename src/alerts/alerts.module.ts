import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { runsWorkers, servesHttp } from '../config/roles';
import { QUEUES } from '../queues/jobs';
import { AlertsController } from './alerts.controller';
import { AlertsProcessor } from './alerts.processor';
import { DeliveriesService } from './deliveries.service';
import { DeliveryRunner } from './delivery-runner';
import { DeliverySender } from './delivery-sender';
import { DestinationsService } from './destinations.service';
import { RulesService } from './rules.service';

/** Alert destinations, rules, and the delivery of the outbox's events (in worker processes). */
@Module({})
export class AlertsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AlertsModule,
      imports: [BullModule.registerQueue({ name: QUEUES.deliveries })],
      controllers: servesHttp(config) ? [AlertsController] : [],
      providers: [
        DestinationsService,
        RulesService,
        DeliveriesService,
        DeliveryRunner,
        DeliverySender,
        ...(runsWorkers(config) ? [AlertsProcessor] : []),
      ],
    };
  }
}
