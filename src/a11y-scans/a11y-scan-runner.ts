import { InjectQueue } from '@nestjs/bull';
import { LockMode } from '@mikro-orm/core';
import { type EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { AxeFinding, Viewport } from '../../libs/capture';
import { placeFindings } from '../../libs/compare';
import { CaptureEngineProvider } from '../capture/capture-engine.provider';
import { acrossWorkspaces, jobUnitOfWork } from '../common/tenancy/workspace-scope';
import { recordEvent } from '../events/outbox';
import { MetricsService } from '../metrics/metrics.service';
import { type A11yScanJob, a11yScanJobId, a11yScanJobOptions, JOBS, QUEUES } from '../queues/jobs';
import { summarize, type ScanResults } from './a11y-comparison';
import { A11yAttestation } from './entities/a11y-attestation.entity';
import { A11yScan, type A11yScanFailure, type ScanFinding } from './entities/a11y-scan.entity';

type Outcome = { results: Omit<ScanResults, 'viewports'> } | { failure: A11yScanFailure };

/**
 * Runs accessibility scans in worker processes: each viewport through the shared capture engine (its budget, its
 * SSRF guard, axe-core in an isolated world; no screenshot), then the whole result written once. A job may run twice
 * (a retry, a worker that died): a scan that has ended is never written again.
 */
@Injectable()
export class A11yScanRunner {
  constructor(
    private readonly orm: MikroORM,
    private readonly capture: CaptureEngineProvider,
    @InjectQueue(QUEUES.a11yScans) private readonly queue: Queue,
    private readonly metrics: MetricsService,
  ) {}

  async enqueue(scanId: string): Promise<void> {
    const job: A11yScanJob = { scanId };
    await this.queue.add(JOBS.runA11yScan, job, a11yScanJobOptions(job));
  }

  async run(job: A11yScanJob): Promise<void> {
    const em = await jobUnitOfWork(this.orm.em, A11yScan, job.scanId);
    if (!em) return;
    const unfinished = { id: job.scanId, status: { $in: ['queued', 'running'] as const } };
    if (!(await em.nativeUpdate(A11yScan, unfinished, { status: 'running' }))) return;
    const scan = await em.findOneOrFail(A11yScan, { id: job.scanId });
    const started = performance.now();
    const outcome = await this.scan(scan.url, scan.viewports);
    this.metrics.a11yScanEnded('failure' in outcome ? 'failed' : 'completed', (performance.now() - started) / 1000);
    await this.finish(em, scan.id, outcome);
  }

  /**
   * A job that failed on every attempt (the browser or the database was down) ends the scan as failed. The record
   * speaks of the page only; what went wrong inside is in the worker's log.
   */
  async recordFailure(job: A11yScanJob): Promise<void> {
    const em = await jobUnitOfWork(this.orm.em, A11yScan, job.scanId);
    const message = 'the page could not be scanned; start a new scan';
    if (em) await this.finish(em, job.scanId, { failure: { reason: 'capture_failed', status_code: null, message } });
  }

  /** Re-queues unfinished scans whose job was lost (Redis emptied) and ends those whose job failed for good. */
  async resumeUnfinished(): Promise<number> {
    const em = acrossWorkspaces(this.orm.em);
    const scans = await em.find(A11yScan, { status: { $in: ['queued', 'running'] } }, { fields: ['id'] });
    let resumed = 0;
    for (const { id } of scans) {
      const job = await this.queue.getJob(a11yScanJobId({ scanId: id }));
      if (!job) await this.enqueue(id);
      else if (await job.isFailed()) await this.recordFailure({ scanId: id });
      else continue;
      resumed += 1;
    }
    return resumed;
  }

  /** Each viewport in turn; the first page that cannot be scanned fails the scan (never zero findings). */
  private async scan(url: string, viewports: Viewport[]): Promise<Outcome> {
    const findings: ScanFinding[] = [];
    const needsReview: ScanFinding[] = [];
    const rules = new Set<string>();
    let axeVersion: string | null = null;
    for (const viewport of viewports) {
      const result = await this.capture.engine.capture({ url, viewport, priority: 'scan', screenshot: false });
      if (!result.ok) {
        const reason = result.reason === 'required_selector_missing' ? 'navigation_failed' : result.reason;
        return { failure: { reason, status_code: result.status, message: `${viewport}: ${result.message}` } };
      }
      findings.push(...placeFindings<AxeFinding, Viewport>(result.findings, viewport));
      needsReview.push(...placeFindings<AxeFinding, Viewport>(result.needs_review, viewport));
      result.axe_rules.forEach((rule) => rules.add(rule));
      axeVersion = result.axe_version;
    }
    return { results: { axeVersion, rulesRun: [...rules].sort(), findings, needsReview } };
  }

  /** Writes the outcome under the scan's row lock, unless another run ended the scan first. */
  private async finish(jobEm: EntityManager, scanId: string, outcome: Outcome): Promise<void> {
    await jobEm.transactional(async (em) => {
      const scan = await em.findOne(A11yScan, { id: scanId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!scan || scan.status === 'completed' || scan.status === 'failed') return;
      scan.completedAt = new Date();
      const status = 'failure' in outcome ? 'failed' : 'completed';
      if ('failure' in outcome) {
        scan.status = status;
        scan.failure = outcome.failure;
      } else {
        const { results } = outcome;
        Object.assign(scan, results, { status });
        const baseline = await baselineOf(em, scan.monitor.id);
        scan.summary = summarize({ ...results, viewports: scan.viewports }, baseline?.scan ?? null);
      }
      recordEvent(em, {
        workspaceId: scan.workspace.id,
        type: 'a11y_scan.completed',
        data: {
          scan_id: scan.id,
          monitor_id: scan.monitor.id,
          status,
          summary: scan.summary,
          failure: scan.failure,
        },
      });
    });
  }
}

/** The monitor's baseline: its newest attestation, with the attested scan's findings loaded. */
export function baselineOf(em: EntityManager, monitorId: string): Promise<A11yAttestation | null> {
  return em.findOne(
    A11yAttestation,
    { monitor: monitorId },
    {
      orderBy: { createdAt: 'desc', id: 'desc' },
      populate: ['scan', 'scan.findings', 'scan.needsReview', 'attestedBy'],
    },
  );
}
