import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { JOBS, type MonitorCheckJob } from '../queues/jobs';
import { takeJobs } from '../queues/take-jobs';
import { MonitorCheckRecorder } from './monitor-check-recorder';
import { MonitorQueues } from './monitor-queues';

/** Takes the check jobs of this worker's regions (WORKER_REGIONS) and hands them to the recorder. */
@Injectable()
export class MonitorCheckProcessor implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(MonitorCheckProcessor.name);

  constructor(
    private readonly queues: MonitorQueues,
    private readonly recorder: MonitorCheckRecorder,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    for (const region of this.config.workerRegions) {
      takeJobs<MonitorCheckJob>(
        this.queues.queue(region),
        JOBS.checkMonitor,
        this.config.checkConcurrency,
        (check) => this.recorder.run(check),
        this.logger,
        `monitor checks in ${region}`,
      );
    }
  }

  /**
   * Starts stopping with the other processors (Bull's close takes half a second, see serveResumableWork; it answers
   * the same promise when called again); a failure shows where it is awaited.
   */
  onModuleDestroy(): void {
    this.close().catch(() => undefined);
  }

  /** Stop taking checks and let running ones finish before the database and browser close. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.close();
  }

  private async close(): Promise<void> {
    await Promise.all(this.config.workerRegions.map((region) => this.queues.queue(region).close()));
  }
}
