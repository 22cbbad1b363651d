import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { runsWorkers, servesHttp } from '../config/roles';
import type { AppConfig } from '../config/app-config';
import { QUEUES } from '../queues/jobs';
import { CaptureModule } from '../capture/capture.module';
import { ReleaseCheckCollector } from './release-check-collector';
import { ReleaseCheckProcessor } from './release-check.processor';
import { ReleaseCheckPresenter } from './release-check.presenter';
import { ReleaseChecksController } from './release-checks.controller';
import { ReleaseChecksService } from './release-checks.service';

@Module({})
export class ReleaseChecksModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ReleaseChecksModule,
      imports: [
        BullModule.registerQueue({ name: QUEUES.releaseCaptures }, { name: QUEUES.releaseComparisons }),
        CaptureModule,
      ],
      controllers: servesHttp(config) ? [ReleaseChecksController] : [],
      providers: [
        ReleaseChecksService,
        ReleaseCheckPresenter,
        ReleaseCheckCollector,
        ...(runsWorkers(config) ? [ReleaseCheckProcessor] : []),
      ],
    };
  }
}
