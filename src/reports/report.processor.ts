import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bull';
import { JOBS, QUEUES, type ReportJob } from '../queues/jobs';
import { serveResumableWork } from '../queues/resumable-worker';
import { ReportRunner } from './report-runner';

/** The report queue's adapter in worker processes; the runner owns the work. */
@Injectable()
export class ReportProcessor implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private stop?: () => Promise<void>;

  constructor(
    @InjectQueue(QUEUES.reports) private readonly queue: Queue,
    private readonly runner: ReportRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = serveResumableWork<ReportJob>(
      this.queue,
      {
        label: 'report run',
        jobName: JOBS.generateReport,
        // PDFs wait for the capture budget's slots like scans; CSV and JSON are quick.
        concurrency: 2,
        run: (job) => this.runner.run(job),
        recordFailure: (job) => this.runner.recordFailure(job),
        resumeUnfinished: () => this.runner.resumeUnfinished(),
      },
      new Logger(ReportProcessor.name),
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
