import { BullModule, getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { runsScheduler, runsWorkers, servesHttp } from '../config/roles';
import { monitorCheckQueue } from '../queues/jobs';
import { CaptureModule } from '../capture/capture.module';
import { BadgesController } from './badges.controller';
import { HeartbeatsController } from './heartbeats.controller';
import { HeartbeatsService } from './heartbeats.service';
import { MonitorCheckProcessor } from './monitor-check.processor';
import { MonitorCheckRecorder } from './monitor-check-recorder';
import { RoutineCheckWriter } from './routine-check-writer';
import { CheckAssessor } from './check-assessment';
import { MonitorCheckRunner } from './monitor-check-runner';
import { MonitorQueues } from './monitor-queues';
import { MonitorScheduler } from './monitor-scheduler';
import { MonitorsController } from './monitors.controller';
import { MonitorsService } from './monitors.service';
import { UptimeReader } from './uptime-reader';
import { PlanGate } from '../users/plan-gate';

@Module({})
export class MonitorsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: MonitorsModule,
      imports: [
        BullModule.registerQueue(...config.regions.map((region) => ({ name: monitorCheckQueue(region) }))),
        CaptureModule,
      ],
      controllers: servesHttp(config) ? [MonitorsController, BadgesController, HeartbeatsController] : [],
      providers: [
        MonitorsService,
        // Pings are answered by the API, rate limited like it.
        ...(servesHttp(config) ? [HeartbeatsService] : []),
        {
          provide: MonitorQueues,
          useFactory: (...queues: Queue[]) => new MonitorQueues(config.regions, queues),
          inject: config.regions.map((region) => getQueueToken(monitorCheckQueue(region))),
        },
        UptimeReader,
        PlanGate,
        MonitorCheckRunner,
        CheckAssessor,
        MonitorCheckRecorder,
        RoutineCheckWriter,
        ...(runsWorkers(config) ? [MonitorCheckProcessor] : []),
        ...(runsScheduler(config) ? [MonitorScheduler] : []),
      ],
      exports: [MonitorsService, UptimeReader],
    };
  }
}
