import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { ArtifactStore } from '../artifacts/artifact-store';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DomainError, NotFound, ValidationFailed } from '../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../common/pagination/pagination';
import { Monitor } from '../monitors/entities/monitor.entity';
import { type HourRange, lastHours } from '../monitors/uptime-reader';
import { API_PREFIX } from '../http/version-alias.middleware';
import { Workspace } from '../workspaces/entities/workspace.entity';
import type { CreateReportDto, ReportDto, ReportRunDto } from './dto/reports.dto';
import { type ReportFormat, type ReportPeriod, Report } from './entities/report.entity';
import { ReportRun } from './entities/report-run.entity';
import { REPORT_MEDIA_TYPES } from './report-files';
import { ReportRunner } from './report-runner';
import { PlanGate } from '../users/plan-gate';
import { inWorkspace } from '../common/tenancy/workspace-scope';

const HOUR_MS = 3_600_000;
const RUNS_SHOWN = 20;

/** The hours a period covers when a run starts now (presets are the uptime API's windows, or last calendar month). */
export function resolvePeriod(period: ReportPeriod, now = new Date()): HourRange {
  if ('from' in period) {
    return {
      from: new Date(Math.floor(Date.parse(period.from) / HOUR_MS) * HOUR_MS),
      to: new Date(Math.ceil(Date.parse(period.to) / HOUR_MS) * HOUR_MS),
    };
  }
  if (period.preset === 'last_7_days') return lastHours(7 * 24, now);
  if (period.preset === 'last_30_days') return lastHours(30 * 24, now);
  const [year, month] = [now.getUTCFullYear(), now.getUTCMonth()];
  return { from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 1)) };
}

export interface ReportFile {
  data: Buffer;
  mediaType: string;
  fileName: string;
  sha256: string;
}

/** The workspace's reports and their runs (the request's scope filters every query). */
@Injectable()
export class ReportsService {
  constructor(
    private readonly em: EntityManager,
    private readonly runner: ReportRunner,
    private readonly artifacts: ArtifactStore,
    private readonly planGate: PlanGate,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(query: PageQuery): Promise<Page<ReportDto>> {
    const [reports, total] = await this.em.findAndCount(
      Report,
      {},
      { orderBy: { createdAt: 'desc', id: 'desc' }, ...pageWindow(query) },
    );
    return pageOf(await this.present(reports), total, query);
  }

  async create(principal: WorkspacePrincipal, input: CreateReportDto): Promise<ReportDto> {
    const monitorIds = input.monitor_ids ?? [];
    if (input.type === 'release_checks' && monitorIds.length) {
      throw ValidationFailed.field('monitor_ids', 'must be empty for a release_checks report');
    }
    const found = new Set(
      (await this.em.find(Monitor, { id: { $in: monitorIds } }, { fields: ['id'] })).map((monitor) => monitor.id),
    );
    const unknown = monitorIds.flatMap((id, index) =>
      found.has(id) ? [] : [{ field: `monitor_ids[${index}]`, message: 'no such monitor in this workspace' }],
    );
    if (unknown.length) throw new ValidationFailed(unknown);
    const report = await this.planGate.withRoom(principal.workspace.id, 'reports', Report, 1, (tx) =>
      tx.create(Report, {
        workspace: tx.getReference(Workspace, principal.workspace.id),
        name: input.name,
        type: input.type,
        monitorIds,
        period:
          'preset' in input.period ? { preset: input.period.preset } : { from: input.period.from, to: input.period.to },
        format: input.format,
      }),
    );
    return (await this.present([report]))[0];
  }

  async get(id: string): Promise<ReportDto> {
    return (await this.present([await this.owned(id)]))[0];
  }

  /** Deletes the report, its runs and their files (files first: a file never outlives knowledge of it unnoticed). */
  async delete(id: string): Promise<void> {
    const report = await this.owned(id);
    const runs = await this.em.find(ReportRun, { report }, { fields: ['artifactKey'] });
    await Promise.all(runs.flatMap((run) => (run.artifactKey ? [this.artifacts.delete(run.artifactKey)] : [])));
    await this.em.remove(report).flush();
  }

  /** Starts a run and waits for it up to REPORT_WAIT_MS (30 s); `finished` says whether it ended (ready or failed) in that time. */
  async generate(id: string): Promise<{ run: ReportRunDto; finished: boolean }> {
    const report = await this.owned(id);
    const period = resolvePeriod(report.period);
    const run = this.em.create(ReportRun, { report, periodFrom: period.from, periodTo: period.to });
    await this.em.flush();
    await this.runner.enqueue(run.id);
    const deadline = Date.now() + this.config.reportWaitMs;
    let current = run;
    for (let pause = 100; Date.now() < deadline; pause = Math.min(pause * 1.5, 1000)) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(deadline - Date.now(), 0))));
      current = (await this.em.findOne(ReportRun, { id: run.id }, { refresh: true })) ?? current;
      if (current.status === 'ready' || current.status === 'failed')
        return { run: presentRun(current), finished: true };
    }
    return { run: presentRun(current), finished: false };
  }

  async getRun(id: string, runId: string): Promise<ReportRunDto> {
    return presentRun(await this.ownedRun(id, runId));
  }

  async download(id: string, runId: string): Promise<ReportFile> {
    const run = await this.ownedRun(id, runId);
    if (run.status !== 'ready' || !run.sha256) {
      throw new DomainError('run_not_ready', `The run is ${run.status}; download it once it is ready.`);
    }
    const data = run.artifactKey ? await this.artifacts.get(run.artifactKey) : null;
    if (!data) throw new NotFound('Report file', 'The file of this run is no longer kept; generate the report again.');
    const format = run.report.format;
    return {
      data,
      mediaType: REPORT_MEDIA_TYPES[format],
      fileName: fileName(run.report.name, run.generatedAt ?? run.createdAt, format),
      sha256: run.sha256,
    };
  }

  private async owned(id: string): Promise<Report> {
    const report = await this.em.findOne(Report, { id });
    if (!report) throw new NotFound('Report');
    return report;
  }

  private async ownedRun(id: string, runId: string): Promise<ReportRun> {
    const run = await this.em.findOne(ReportRun, { id: runId, report: id }, { populate: ['report'] });
    if (!run) throw new NotFound('Report run');
    return run;
  }

  /** Reports with their latest runs (at most 20 each, however many they have), read in one query. */
  private async present(reports: Report[]): Promise<ReportDto[]> {
    // The reports were read through the workspace scope; their runs are picked by those ids.
    const latest = reports.length
      ? await this.em.execute<{ id: string }[]>(
          `select id from (
             select r.id, row_number() over (partition by r.report_id order by r.created_at desc, r.id desc) as position
             from report_runs r join reports p on p.id = r.report_id and ${inWorkspace(this.em, 'p.workspace_id')}
             where r.report_id in (?)
           ) as ranked where position <= ${RUNS_SHOWN}`,
          [reports.map((report) => report.id)],
          'all',
        )
      : [];
    const runs = latest.length
      ? await this.em.find(
          ReportRun,
          { id: { $in: latest.map((run) => run.id) } },
          { orderBy: { createdAt: 'desc', id: 'desc' } },
        )
      : [];
    return reports.map((report) => ({
      id: report.id,
      name: report.name,
      type: report.type,
      monitor_ids: report.monitorIds,
      period: report.period,
      format: report.format,
      runs: runs.filter((run) => run.report.id === report.id).map(presentRun),
      created_at: report.createdAt.toISOString(),
    }));
  }
}

export function presentRun(run: ReportRun): ReportRunDto {
  const downloadable = run.status === 'ready' && run.artifactKey !== null;
  return {
    id: run.id,
    report_id: run.report.id,
    status: run.status,
    period: { from: run.periodFrom.toISOString(), to: run.periodTo.toISOString() },
    created_at: run.createdAt.toISOString(),
    generated_at: run.generatedAt?.toISOString() ?? null,
    size: run.size,
    sha256: run.sha256,
    download_url: downloadable ? `${API_PREFIX}/reports/${run.report.id}/runs/${run.id}/download` : null,
    failure: run.failure,
  };
}

/** `<name>-<date>.<ext>`, in characters every file system and header takes. */
function fileName(name: string, date: Date, format: ReportFormat): string {
  const safe =
    name
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'report';
  return `${safe}-${date.toISOString().slice(0, 10)}.${format}`;
}
