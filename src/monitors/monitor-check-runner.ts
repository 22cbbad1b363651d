import { Inject, Injectable } from '@nestjs/common';
import type { CaptureResult } from '../../libs/capture';
import { checkHttp, type CheckFailure, extractContent, type HttpCheckResult, judgePage } from '../../libs/page-check';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CaptureEngineProvider } from '../capture/capture-engine.provider';
import type { Monitor, PageMetadata } from './entities/monitor.entity';

/** What one check saw: the page-check result, plus a screenshot in browser mode and what the page says of itself. */
export interface PageObservation extends HttpCheckResult {
  screenshot: Buffer | null;
  /** Null when the check failed or read no document. */
  metadata: PageMetadata | null;
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
  | 'assertions'
  | 'createdAt'
>;

/** A monitor with a page to check. */
type PageTarget = CheckTarget & { url: string };

/** Runs one check of a monitor's page: a plain HTTP fetch, or a render in Chromium for browser monitors. */
@Injectable()
export class MonitorCheckRunner {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly capture: CaptureEngineProvider,
  ) {}

  observe(monitor: CheckTarget): Promise<PageObservation> {
    // Heartbeat monitors have no page: their pings and missed slots are recorded without a look.
    if (monitor.url === null) throw new Error(`a ${monitor.mode} monitor has no page to check`);
    const page = { ...monitor, url: monitor.url };
    return monitor.mode === 'browser' ? this.render(page) : this.fetch(page);
  }

  private async fetch(monitor: PageTarget): Promise<PageObservation> {
    const result = await checkHttp({
      url: monitor.url,
      expectations: this.expectations(monitor),
      timeoutMs: monitor.timeoutSeconds * 1000,
      extract: this.extractOptions(monitor),
      assertions: monitor.assertions,
      allowPrivate: this.config.allowPrivateTargets,
    });
    return { ...result, screenshot: null, metadata: metadataOf(result) };
  }

  private async render(monitor: PageTarget): Promise<PageObservation> {
    // The engine's own step timeouts bound a render; a browser monitor's statuses outside 2xx always fail.
    const result = await this.capture.engine.capture({
      url: monitor.url,
      viewport: 'desktop',
      accessibilityScan: false,
      includeHtml: true,
      // Every check of a monitor renders at the same instant: a clock on the page is not a change of the page.
      clockTime: monitor.createdAt.getTime(),
    });
    const responseTimeMs = Math.round(result.duration_ms);
    if (!result.ok) {
      return {
        ok: false,
        // Chromium refuses a bad certificate with a net::ERR_CERT_… navigation error.
        failure:
          result.reason === 'navigation_failed' && /ERR_CERT_/.test(result.message)
            ? 'certificate'
            : CAPTURE_FAILURES[result.reason],
        message: result.message,
        failedAssertions: [],
        statusCode: result.status,
        finalUrl: result.final_url,
        responseTimeMs,
        content: null,
        screenshot: null,
        metadata: null,
        certificate: null,
      };
    }
    const content = extractContent(result.html ?? '', this.extractOptions(monitor));
    const verdict = judgePage(result.status, content, this.expectations(monitor), monitor.selector ?? undefined);
    const observation = {
      ok: verdict === null,
      failure: verdict?.failure ?? null,
      message: verdict?.message ?? null,
      failedAssertions: [],
      statusCode: result.status,
      finalUrl: result.final_url,
      responseTimeMs,
      content,
      screenshot: result.screenshot,
      certificate: result.certificate,
    };
    return { ...observation, metadata: metadataOf(observation) };
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

/** What a passing check's page says of itself; null for a failed check, which is not compared. */
function metadataOf(result: Pick<HttpCheckResult, 'ok' | 'content' | 'statusCode'>): PageMetadata | null {
  if (!result.ok || !result.content) return null;
  return {
    ...result.content.metadata,
    status_class: result.statusCode === null ? null : `${Math.floor(result.statusCode / 100)}xx`,
  };
}
