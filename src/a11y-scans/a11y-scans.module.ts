import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { CaptureModule } from '../capture/capture.module';
import type { AppConfig } from '../config/app-config';
import { runsWorkers, servesHttp } from '../config/roles';
import { QUEUES } from '../queues/jobs';
import { A11yScanProcessor } from './a11y-scan.processor';
import { A11yScanRunner } from './a11y-scan-runner';
import { A11yScansController } from './a11y-scans.controller';
import { A11yScansService } from './a11y-scans.service';

@Module({})
export class A11yScansModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: A11yScansModule,
      imports: [BullModule.registerQueue({ name: QUEUES.a11yScans }), CaptureModule],
      controllers: servesHttp(config) ? [A11yScansController] : [],
      providers: [A11yScansService, A11yScanRunner, ...(runsWorkers(config) ? [A11yScanProcessor] : [])],
    };
  }
}
