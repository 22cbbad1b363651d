import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { CaptureSideJob, CompareArtifactJob } from '../../queues/jobs';
import { serveResumableWork } from '../../queues/resumable-worker';
import { ArtifactComparisonWork } from './artifact-comparison';
import { ReleaseCheckQueue } from './release-check-queue';
import { SideCaptureWork } from './side-capture';

/** The release-check queues' adapter in worker processes: captures and comparisons, each resumable on its own. */
@Injectable()
export class ReleaseCheckProcessor implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private stops: Array<() => Promise<void>> = [];

  constructor(
    private readonly queue: ReleaseCheckQueue,
    private readonly captures: SideCaptureWork,
    private readonly comparisons: ArtifactComparisonWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Twice the capture budget: while a job writes its files and rows, the next one already holds the free slot.
    this.captures.concurrency = this.config.captureConcurrency * 2;
    const logger = new Logger(ReleaseCheckProcessor.name);
    this.stops = [
      serveResumableWork<CaptureSideJob>(this.queue.captures, this.captures, logger),
      serveResumableWork<CompareArtifactJob>(this.queue.comparisons, this.comparisons, logger),
    ];
  }

  /** Starts stopping with the other processors (see serveResumableWork); a failure shows where it is awaited. */
  onModuleDestroy(): void {
    for (const stop of this.stops) stop().catch(() => undefined);
  }

  /**
   * Before anything else closes (the browser, the database): stop taking jobs and let the running ones finish, so a
   * deploy never turns a good page into a failed capture.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.stops.map((stop) => stop()));
  }
}
