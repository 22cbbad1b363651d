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
import { type CrawlJob, JOBS, QUEUES } from '../queues/jobs';
import { serveResumableWork } from '../queues/resumable-worker';
import { CrawlRunner } from './crawl-runner';

/** The crawl queue's adapter in worker processes; the runner owns the work. */
@Injectable()
export class CrawlProcessor implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private stop?: () => Promise<void>;

  constructor(
    @InjectQueue(QUEUES.crawls) private readonly queue: Queue,
    private readonly runner: CrawlRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = serveResumableWork<CrawlJob>(
      this.queue,
      {
        label: 'crawl',
        jobName: JOBS.runCrawl,
        concurrency: this.config.crawl.concurrency,
        run: (job) => this.runner.run(job),
        recordFailure: (job) => this.runner.recordFailure(job),
        resumeUnfinished: () => this.runner.resumeUnfinished(),
      },
      new Logger(CrawlProcessor.name),
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
