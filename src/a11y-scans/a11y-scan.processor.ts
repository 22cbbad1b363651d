import { InjectQueue } from '@nestjs/bull';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import type { Queue } from 'bull';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type A11yScanJob, JOBS, QUEUES } from '../queues/jobs';
import { serveResumableWork } from '../queues/resumable-worker';
import { A11yScanRunner } from './a11y-scan-runner';

/** The scan queue's adapter in worker processes; the runner owns the work. */
@Injectable()
export class A11yScanProcessor implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private stop?: () => Promise<void>;

  constructor(
    @InjectQueue(QUEUES.a11yScans) private readonly queue: Queue,
    private readonly runner: A11yScanRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = serveResumableWork<A11yScanJob>(
      this.queue,
      {
        label: 'accessibility scan',
        jobName: JOBS.runA11yScan,
        // As many scans as capture slots; they wait for those slots behind release checks and monitors.
        concurrency: this.config.captureConcurrency,
        run: (job) => this.runner.run(job),
        recordFailure: (job) => this.runner.recordFailure(job),
        resumeUnfinished: () => this.runner.resumeUnfinished(),
      },
      new Logger(A11yScanProcessor.name),
    );
  }

  /** Starts stopping with the other processors (see serveResumableWork); a failure shows where it is awaited. */
  onModuleDestroy(): void {
    this.stop?.().catch(() => undefined);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop?.();
  }
}
