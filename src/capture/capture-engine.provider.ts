import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { CaptureEngine } from '../../libs/capture';
import { closeScreenshotWorker } from '../../libs/compare';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * One browser per worker process (launched on first use), with one capture budget (CAPTURE_CONCURRENCY slots) that
 * release checks, browser monitors and accessibility scans share, and the screenshot-comparison worker thread; both
 * closed when the process shuts down.
 */
@Injectable()
export class CaptureEngineProvider implements OnApplicationShutdown {
  readonly engine: CaptureEngine;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.engine = new CaptureEngine({
      executablePath: config.chromiumPath,
      allowPrivateTargets: config.allowPrivateTargets,
      maxConcurrentCaptures: config.captureConcurrency,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.engine.close(), closeScreenshotWorker()]);
  }
}
