import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type A11yScanJob, failedForGood, JOBS, QUEUES } from '../queues/jobs';
import { A11yScanRunner } from './a11y-scan-runner';

const RESUME_INTERVAL_MS = 60_000;

/** The scan queue's adapter in worker processes; the runner owns the work. */
@Injectable()
export class A11yScanProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(A11yScanProcessor.name);
  private resumeTimer?: NodeJS.Timeout;

  constructor(
    @InjectQueue(QUEUES.a11yScans) private readonly queue: Queue,
    private readonly runner: A11yScanRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // As many scans as capture slots; they wait for those slots behind release checks and monitors.
    this.queue
      .process(JOBS.runA11yScan, this.config.captureConcurrency, (job: Job<A11yScanJob>) => this.runner.run(job.data))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'accessibility scans stopped'));
    this.queue.on('failed', (job: Job<A11yScanJob> | null, error: Error) => void this.onFailed(job, error));
    this.resumeTimer = setInterval(() => void this.resume(), RESUME_INTERVAL_MS);
    this.resumeTimer.unref();
    void this.resume();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.resumeTimer);
    await this.queue.close();
  }

  private async onFailed(job: Job<A11yScanJob> | null, error: Error | undefined): Promise<void> {
    if (!job || !failedForGood(job)) return;
    this.logger.error({ err: error ?? job.failedReason, job: job.id }, 'accessibility scan failed for good');
    try {
      await this.runner.recordFailure(job.data);
    } catch (recordError) {
      this.logger.error({ err: recordError, job: job.id }, 'could not record the failure yet');
    }
  }

  private async resume(): Promise<void> {
    try {
      const resumed = await this.runner.resumeUnfinished();
      if (resumed) this.logger.log(`resumed or ended ${resumed} lost accessibility scan(s)`);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not resume unfinished accessibility scans');
    }
  }
}
