import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { runsWorkers, servesHttp } from '../config/roles';
import type { AppConfig } from '../config/app-config';
import { QUEUES } from '../queues/jobs';
import { CaptureModule } from '../capture/capture.module';
import { ArtifactComparisonWork } from './collection/artifact-comparison';
import { CollectionShortcuts } from './collection/collection-shortcuts';
import { ReleaseCheckFiles } from './collection/release-check-files';
import { ReleaseCheckProcessor } from './collection/release-check.processor';
import { ReleaseCheckQueue } from './collection/release-check-queue';
import { ReleaseCheckRecorder } from './collection/release-check-recorder';
import { SideCaptureWork } from './collection/side-capture';
import { ReleaseCheckEvents } from './release-check-events';
import { ReleaseCheckPresenter } from './release-check.presenter';
import { ReleaseChecksController } from './release-checks.controller';
import { ReleaseChecksService } from './release-checks.service';

@Module({})
export class ReleaseChecksModule {
  static forRoot(config: AppConfig): DynamicModule {
    const workers = runsWorkers(config);
    return {
      module: ReleaseChecksModule,
      imports: [
        BullModule.registerQueue({ name: QUEUES.releaseCaptures }, { name: QUEUES.releaseComparisons }),
        // Only workers capture: an API process never starts a browser.
        ...(workers ? [CaptureModule] : []),
      ],
      controllers: servesHttp(config) ? [ReleaseChecksController] : [],
      providers: [
        ReleaseChecksService,
        ReleaseCheckPresenter,
        ReleaseCheckQueue,
        ReleaseCheckFiles,
        ReleaseCheckEvents,
        ...(workers
          ? [CollectionShortcuts, ReleaseCheckRecorder, SideCaptureWork, ArtifactComparisonWork, ReleaseCheckProcessor]
          : []),
      ],
    };
  }
}
