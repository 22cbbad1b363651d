import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Counter } from 'prom-client';
import { CAPTURE_OUTCOMES, CaptureEngine, type CaptureOutcome } from '../../libs/capture';
import { closeScreenshotWorker } from '../../libs/compare';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';

/**
 * One browser per worker process (launched on first use), with one capture budget (CAPTURE_CONCURRENCY slots) that
 * release checks, browser monitors, accessibility scans and report PDFs share, and the screenshot-comparison worker
 * thread; both closed when the process shuts down. Captures are counted by outcome in `vigil_captures_total` when the
 * app has metrics.
 */
@Injectable()
export class CaptureEngineProvider implements OnApplicationShutdown {
  readonly engine: CaptureEngine;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Optional() metrics?: MetricsService) {
    this.engine = new CaptureEngine({
      executablePath: config.chromiumPath,
      allowPrivateTargets: config.allowPrivateTargets,
      maxConcurrentCaptures: config.captureConcurrency,
      ...(metrics ? { onOutcome: countCaptures(metrics) } : {}),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.engine.close(), closeScreenshotWorker()]);
  }
}

function countCaptures(metrics: MetricsService): (outcome: CaptureOutcome) => void {
  const captures = new Counter({
    name: 'vigil_captures_total',
    help:
      'Page captures in this process by outcome: captured, missing_evidence (the page failed), infrastructure_error ' +
      '(the machinery failed; the job is retried) and browser_relaunch (a capture or PDF restarted on a new browser ' +
      'because the one running it went away).',
    labelNames: ['outcome'] as const,
    registers: [metrics.registry],
  });
  // Every outcome is reported from the start, so a rate over it never begins with a gap.
  for (const outcome of CAPTURE_OUTCOMES) captures.inc({ outcome }, 0);
  return (outcome) => captures.inc({ outcome });
}
