import { createHash, randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { ArtifactStore } from '../artifacts/artifact-store';
import { CaptureEngineProvider } from '../capture/capture-engine.provider';
import { acrossWorkspaces, workspaceUnitOfWork } from '../common/tenancy/workspace-scope';
import { UptimeReader } from '../monitors/uptime-reader';
import { JOBS, QUEUES, type ReportJob, reportJobId, reportJobOptions } from '../queues/jobs';
import type { ReportDocument } from './dto/reports.dto';
import type { ReportFormat } from './entities/report.entity';
import { ReportRun } from './entities/report-run.entity';
import { ReportContent } from './report-content';
import { reportCsv, reportHtml, reportJson } from './report-files';

const UNFINISHED = ['queued', 'generating'] as const;

/**
 * Each attempt writes a file of its own: an attempt that lost its job to another worker can still finish its render,
 * and must not replace the file of a run the other attempt already marked ready.
 */
export const reportArtifactKey = (run: Pick<ReportRun, 'id'>, format: ReportFormat): string =>
  `reports/${run.id}/${randomUUID()}.${format}`;

/**
 * Generates report runs in workers. A run's file is stored whole (the store writes all or nothing) before one
 * statement marks the run ready with its size and sha256, only if it is still unfinished: a worker that dies
 * mid-render leaves the run to its job's retry, and a ready run is never written again.
 */
@Injectable()
export class ReportRunner {
  constructor(
    private readonly orm: MikroORM,
    @InjectQueue(QUEUES.reports) private readonly queue: Queue<ReportJob>,
    private readonly uptime: UptimeReader,
    private readonly artifacts: ArtifactStore,
    private readonly capture: CaptureEngineProvider,
  ) {}

  async enqueue(runId: string): Promise<void> {
    const job = { runId };
    await this.queue.add(JOBS.generateReport, job, reportJobOptions(job));
  }

  async run({ runId }: ReportJob): Promise<void> {
    // The job's own row, read across workspaces to learn whose it is; the rest runs in the report's workspace only.
    const run = await acrossWorkspaces(this.orm.em).findOne(
      ReportRun,
      { id: runId, status: { $in: [...UNFINISHED] } },
      { populate: ['report'] },
    );
    if (!run) return;
    const report = run.report;
    const em = workspaceUnitOfWork(this.orm.em, report.workspace.id);
    await em.nativeUpdate(ReportRun, { id: run.id, status: { $in: [...UNFINISHED] } }, { status: 'generating' });
    const document = await new ReportContent(em, this.uptime).build(
      report,
      { from: run.periodFrom, to: run.periodTo },
      new Date(),
    );
    const file = await this.render(report.format, document);
    const key = reportArtifactKey(run, report.format);
    await this.artifacts.put(key, file);
    const marked = await em.nativeUpdate(
      ReportRun,
      { id: run.id, status: { $in: [...UNFINISHED] } },
      {
        status: 'ready',
        generatedAt: new Date(document.generated_at),
        size: file.length,
        sha256: createHash('sha256').update(file).digest('hex'),
        artifactKey: key,
      },
    );
    // Another attempt finished first, or the report was deleted meanwhile: this file belongs to nothing.
    if (!marked) await this.artifacts.delete(key);
  }

  /** Ends a run whose job failed for good; the message describes the run, never the machinery. */
  async recordFailure({ runId }: ReportJob): Promise<void> {
    const run = await acrossWorkspaces(this.orm.em).findOne(ReportRun, { id: runId }, { populate: ['report'] });
    if (!run) return;
    await workspaceUnitOfWork(this.orm.em, run.report.workspace.id).nativeUpdate(
      ReportRun,
      { id: runId, status: { $in: [...UNFINISHED] } },
      { status: 'failed', failure: 'The report could not be generated after several attempts; generate it again.' },
    );
  }

  /** Re-queues runs whose job was lost and ends runs whose job failed for good. */
  async resumeUnfinished(): Promise<number> {
    const em = acrossWorkspaces(this.orm.em);
    const runs = await em.find(ReportRun, { status: { $in: [...UNFINISHED] } }, { fields: ['id'] });
    let resumed = 0;
    for (const { id } of runs) {
      const job = await this.queue.getJob(reportJobId({ runId: id }));
      if (!job) await this.enqueue(id);
      else if (await job.isFailed()) await this.recordFailure({ runId: id });
      else continue;
      resumed += 1;
    }
    return resumed;
  }

  private async render(format: ReportFormat, document: ReportDocument): Promise<Buffer> {
    switch (format) {
      case 'json':
        return reportJson(document);
      case 'csv':
        return reportCsv(document);
      case 'pdf':
        return this.capture.engine.renderPdf({ html: reportHtml(document) });
    }
  }
}
