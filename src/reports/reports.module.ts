import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { CaptureModule } from '../capture/capture.module';
import type { AppConfig } from '../config/app-config';
import { runsWorkers, servesHttp } from '../config/roles';
import { QUEUES } from '../queues/jobs';
import { ReportProcessor } from './report.processor';
import { ReportRunner } from './report-runner';
import { ReportsController } from './reports.controller';
import { ReportsService } from './reports.service';
import { PlanGate } from '../users/plan-gate';

@Module({})
export class ReportsModule {
  /** `monitors` is the application's MonitorsModule (the same instance), for its uptime reader. */
  static forRoot(config: AppConfig, monitors: DynamicModule): DynamicModule {
    return {
      module: ReportsModule,
      imports: [BullModule.registerQueue({ name: QUEUES.reports }), CaptureModule, monitors],
      controllers: servesHttp(config) ? [ReportsController] : [],
      providers: [ReportsService, ReportRunner, PlanGate, ...(runsWorkers(config) ? [ReportProcessor] : [])],
    };
  }
}
