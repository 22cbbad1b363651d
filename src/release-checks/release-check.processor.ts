import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type CaptureSideJob, type CompareArtifactJob, failedForGood, JOBS, QUEUES } from '../queues/jobs';
import { ReleaseCheckCollector } from './release-check-collector';

const RESUME_INTERVAL_MS = 60_000;

/** The queue's adapter in worker processes: takes jobs and hands them to the collector, which owns the work. */
@Injectable()
export class ReleaseCheckProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReleaseCheckProcessor.name);
  private resumeTimer?: NodeJS.Timeout;

  constructor(
    @InjectQueue(QUEUES.releaseCaptures) private readonly captures: Queue,
    @InjectQueue(QUEUES.releaseComparisons) private readonly comparisons: Queue,
    private readonly collector: ReleaseCheckCollector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const stopped = (error: unknown) => this.logger.warn({ err: error }, 'release-check processing stopped');
    // Twice the capture budget: while a job writes its files and rows, the next one already holds the free slot.
    this.captures
      .process(JOBS.captureSide, this.config.captureConcurrency * 2, (job: Job<CaptureSideJob>) =>
        this.collector.captureSide(job.data),
      )
      .catch(stopped);
    // Comparisons are CPU-bound (image diffing, in a worker thread): one at a time per process.
    this.comparisons
      .process(JOBS.compareArtifact, 1, (job: Job<CompareArtifactJob>) => this.collector.compareArtifact(job.data))
      .catch(stopped);
    for (const queue of [this.captures, this.comparisons]) {
      // Bull can report a failure for a job it no longer finds.
      queue.on('failed', (job: Job, error: Error) => void this.onFailed(job as Job | null, error));
    }
    this.resumeTimer = setInterval(() => void this.resume(), RESUME_INTERVAL_MS);
    this.resumeTimer.unref();
    void this.resume();
  }

  /**
   * Before anything else closes (the browser, the database): stop taking jobs and let the running ones finish, so a
   * deploy never turns a good page into a failed capture.
   */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.resumeTimer);
    await Promise.all([this.captures.close(), this.comparisons.close()]);
  }

  /** A job done for good records its failure on the check, so the work ends visibly rather than hangs. */
  private async onFailed(job: Job | null, failure: Error | undefined): Promise<void> {
    if (!job || !failedForGood(job)) return;
    this.logger.error({ err: failure ?? job.failedReason, job: job.id }, `${job.name} failed for good`);
    try {
      if (job.name === JOBS.captureSide) await this.collector.recordFailedCapture(job.data as CaptureSideJob);
      if (job.name === JOBS.compareArtifact) {
        await this.collector.recordFailedComparison(job.data as CompareArtifactJob);
      }
    } catch (recordError) {
      // The job stays in the failed set; the resume sweep finds it there and records the failure then.
      this.logger.error({ err: recordError, job: job.id }, 'could not record the failure yet');
    }
  }

  private async resume(): Promise<void> {
    try {
      const queued = await this.collector.resumeUnfinished();
      if (queued) this.logger.log(`resumed or recorded ${queued} lost release-check job(s)`);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not resume unfinished release checks');
    }
  }
}
