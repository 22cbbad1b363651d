import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { servesHttp } from '../config/roles';
import { PublicStatusController, StatusSiteController } from './public-status.controller';
import { PublicStatusCache } from './public-status-cache';
import { PublicStatusService } from './public-status.service';
import { StatusPagesController } from './status-pages.controller';
import { StatusPagesService } from './status-pages.service';
import { PlanGate } from '../users/plan-gate';

@Module({})
export class StatusPagesModule {
  /** `monitors` is the application's MonitorsModule (the same instance), for its uptime reader. */
  static forRoot(config: AppConfig, monitors: DynamicModule): DynamicModule {
    return {
      module: StatusPagesModule,
      imports: [monitors],
      // The public read comes first: `/status-pages/public/x` must never be taken for a page id.
      controllers: servesHttp(config) ? [PublicStatusController, StatusSiteController, StatusPagesController] : [],
      providers: [StatusPagesService, PublicStatusService, PublicStatusCache, PlanGate],
    };
  }
}
