import { Inject, Injectable } from '@nestjs/common';
import type { CaptureResult } from '../../libs/capture';
import { checkHttp, type CheckFailure, extractContent, type HttpCheckResult, judgePage } from '../../libs/page-check';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CaptureEngineProvider } from '../capture/capture-engine.provider';
import type { Monitor } from './entities/monitor.entity';

/** What one check saw: the page-check result, plus a screenshot in browser mode. */
export interface PageObservation extends HttpCheckResult {
  screenshot: Buffer | null;
}

const CAPTURE_FAILURES: Record<Exclude<CaptureResult, { ok: true }>['reason'], CheckFailure> = {
  http_error: 'status',
  navigation_failed: 'network',
  timeout: 'timeout',
  required_selector_missing: 'selector_missing',
  target_not_public: 'target_not_public',
};

/** What a check needs to know of its monitor. */
export type CheckTarget = Pick<
  Monitor,
  | 'mode'
  | 'url'
  | 'timeoutSeconds'
  | 'expectedStatusMin'
  | 'expectedStatusMax'
  | 'keyword'
  | 'selector'
  | 'trackedValues'
>;

/** Runs one check of a monitor's page: a plain HTTP fetch, or a render in Chromium for browser monitors. */
@Injectable()
export class MonitorCheckRunner {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly capture: CaptureEngineProvider,
  ) {}

  observe(monitor: CheckTarget): Promise<PageObservation> {
    return monitor.mode === 'browser' ? this.render(monitor) : this.fetch(monitor);
  }

  private async fetch(monitor: CheckTarget): Promise<PageObservation> {
    const result = await checkHttp({
      url: monitor.url,
      expectations: this.expectations(monitor),
      timeoutMs: monitor.timeoutSeconds * 1000,
      extract: this.extractOptions(monitor),
      allowPrivate: this.config.allowPrivateTargets,
    });
    return { ...result, screenshot: null };
  }

  private async render(monitor: CheckTarget): Promise<PageObservation> {
    // The engine's own step timeouts bound a render; a browser monitor's statuses outside 2xx always fail.
    const result = await this.capture.engine.capture({
      url: monitor.url,
      viewport: 'desktop',
      accessibilityScan: false,
      includeHtml: true,
    });
    const responseTimeMs = Math.round(result.duration_ms);
    if (!result.ok) {
      return {
        ok: false,
        failure: CAPTURE_FAILURES[result.reason],
        message: result.message,
        statusCode: result.status,
        finalUrl: result.final_url,
        responseTimeMs,
        content: null,
        screenshot: null,
      };
    }
    const content = extractContent(result.html ?? '', this.extractOptions(monitor));
    const verdict = judgePage(result.status, content, this.expectations(monitor), monitor.selector ?? undefined);
    return {
      ok: verdict === null,
      failure: verdict?.failure ?? null,
      message: verdict?.message ?? null,
      statusCode: result.status,
      finalUrl: result.final_url,
      responseTimeMs,
      content,
      screenshot: result.screenshot,
    };
  }

  private expectations(monitor: CheckTarget) {
    return {
      statusMin: monitor.expectedStatusMin,
      statusMax: monitor.expectedStatusMax,
      ...(monitor.keyword === null ? {} : { keyword: monitor.keyword }),
    };
  }

  private extractOptions(monitor: CheckTarget) {
    return {
      ...(monitor.selector === null ? {} : { selector: monitor.selector }),
      trackedValues: monitor.trackedValues,
    };
  }
}
