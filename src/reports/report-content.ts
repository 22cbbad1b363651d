import type { EntityManager } from '@mikro-orm/postgresql';
import { A11yScan } from '../a11y-scans/entities/a11y-scan.entity';
import { Change } from '../changes/entities/change.entity';
import { Monitor } from '../monitors/entities/monitor.entity';
import {
  averageResponseMs,
  type HourRange,
  UPTIME_METHOD,
  type UptimeReader,
  uptimePercent,
} from '../monitors/uptime-reader';
import { ReleaseCheck } from '../release-checks/entities/release-check.entity';
import type { ReportColumn, ReportDocument } from './dto/reports.dto';
import type { Report, ReportType } from './entities/report.entity';

type Content = Pick<ReportDocument, 'method' | 'columns' | 'rows' | 'daily'>;

const columns = (...pairs: [string, string][]): ReportColumn[] => pairs.map(([key, title]) => ({ key, title }));

/**
 * What each report type contains, read through `em`, an EntityManager scoped to the report's workspace (so these
 * queries cannot reach another workspace's rows). Uptime comes from the shared uptime reader, so a report's figures
 * equal `GET /monitors/{id}/uptime` for the same hours.
 */
export class ReportContent {
  constructor(
    private readonly em: EntityManager,
    private readonly uptime: UptimeReader,
  ) {}

  async build(report: Report, period: HourRange, generatedAt: Date): Promise<ReportDocument> {
    const builders: Record<ReportType, () => Promise<Content>> = {
      uptime: () => this.uptimeContent(report, period),
      changes: () => this.changesContent(report, period),
      accessibility: () => this.accessibilityContent(report, period),
      release_checks: () => this.releaseChecksContent(period),
    };
    return {
      report: { id: report.id, name: report.name, type: report.type },
      period: { from: period.from.toISOString(), to: period.to.toISOString() },
      generated_at: generatedAt.toISOString(),
      ...(await builders[report.type]()),
    };
  }

  /** The report's monitors (all of the workspace's when it names none), by name. */
  private monitors(report: Report): Promise<Pick<Monitor, 'id' | 'name' | 'url'>[]> {
    const where = report.monitorIds.length ? { id: { $in: report.monitorIds } } : {};
    return this.em.find(Monitor, where, { orderBy: { name: 'asc', id: 'asc' }, fields: ['id', 'name', 'url'] });
  }

  private async uptimeContent(report: Report, period: HourRange): Promise<Content> {
    const monitors = await this.monitors(report);
    const ids = monitors.map((monitor) => monitor.id);
    const [totals, daily] = await Promise.all([
      this.uptime.totals(this.em, ids, period),
      this.uptime.daily(this.em, ids, period),
    ]);
    return {
      method: `${UPTIME_METHOD} Hours are whole UTC hours from the period's start up to its end.`,
      columns: columns(
        ['monitor_id', 'Monitor id'],
        ['monitor', 'Monitor'],
        ['url', 'URL'],
        ['checks', 'Checks'],
        ['passed', 'Passed'],
        ['uptime_percent', 'Uptime %'],
        ['avg_response_ms', 'Average response (ms)'],
      ),
      rows: monitors.map((monitor) => {
        const sums = totals.get(monitor.id) ?? { checks: 0, passed: 0, responseMsSum: 0 };
        return {
          monitor_id: monitor.id,
          monitor: monitor.name,
          url: monitor.url,
          checks: sums.checks,
          passed: sums.passed,
          uptime_percent: uptimePercent(sums),
          avg_response_ms: averageResponseMs(sums),
        };
      }),
      daily: daily.map((day) => ({
        monitor_id: day.monitorId,
        date: day.date,
        checks: day.checks,
        uptime: uptimePercent(day),
        avg_response_ms: averageResponseMs(day),
      })),
    };
  }

  private async changesContent(report: Report, period: HourRange): Promise<Content> {
    const monitors = await this.monitors(report);
    const changes = await this.em.find(
      Change,
      { monitor: { $in: monitors.map((monitor) => monitor.id) }, detectedAt: { $gte: period.from, $lt: period.to } },
      { orderBy: { detectedAt: 'asc', id: 'asc' } },
    );
    const names = new Map(monitors.map((monitor) => [monitor.id, monitor.name]));
    return {
      method: 'Every change detected in the period, archived ones included, oldest first.',
      columns: columns(
        ['detected_at', 'Detected at'],
        ['monitor_id', 'Monitor id'],
        ['monitor', 'Monitor'],
        ['kind', 'Kind'],
        ['region', 'Region'],
        ['summary', 'Summary'],
        ['feedback', 'Feedback'],
        ['archived', 'Archived'],
      ),
      rows: changes.map((change) => ({
        detected_at: change.detectedAt.toISOString(),
        monitor_id: change.monitor.id,
        monitor: names.get(change.monitor.id) ?? null,
        kind: change.kind,
        region: change.region,
        summary: change.summary.text,
        feedback: change.feedback,
        archived: change.archived,
      })),
    };
  }

  private async accessibilityContent(report: Report, period: HourRange): Promise<Content> {
    const monitors = await this.monitors(report);
    const scans = await this.em.find(
      A11yScan,
      {
        monitor: { $in: monitors.map((monitor) => monitor.id) },
        status: 'completed',
        completedAt: { $gte: period.from, $lt: period.to },
      },
      { orderBy: { completedAt: 'asc', id: 'asc' } },
    );
    const names = new Map(monitors.map((monitor) => [monitor.id, monitor.name]));
    return {
      method:
        'Completed axe-core scans (WCAG 2 A/AA and 2.1 AA) in the period; new and fixed are against the baseline ' +
        'attested when each scan completed, empty when there was none.',
      columns: columns(
        ['completed_at', 'Completed at'],
        ['scan_id', 'Scan id'],
        ['monitor', 'Monitor'],
        ['url', 'URL'],
        ['violations', 'Violations'],
        ['critical', 'Critical'],
        ['serious', 'Serious'],
        ['moderate', 'Moderate'],
        ['minor', 'Minor'],
        ['needs_review', 'Needs review'],
        ['new', 'New'],
        ['fixed', 'Fixed'],
      ),
      rows: scans.map((scan) => ({
        completed_at: scan.completedAt?.toISOString() ?? null,
        scan_id: scan.id,
        monitor: names.get(scan.monitor.id) ?? null,
        url: scan.url,
        violations: scan.summary?.violations ?? null,
        critical: scan.summary?.by_impact.critical ?? null,
        serious: scan.summary?.by_impact.serious ?? null,
        moderate: scan.summary?.by_impact.moderate ?? null,
        minor: scan.summary?.by_impact.minor ?? null,
        needs_review: scan.summary?.needs_review ?? null,
        new: scan.summary?.new ?? null,
        fixed: scan.summary?.fixed ?? null,
      })),
    };
  }

  private async releaseChecksContent(period: HourRange): Promise<Content> {
    const checks = await this.em.find(
      ReleaseCheck,
      { createdAt: { $gte: period.from, $lt: period.to } },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    return {
      method: 'Release checks opened in the period, with their gate as it stands now, oldest first.',
      columns: columns(
        ['created_at', 'Opened at'],
        ['release_check_id', 'Release check id'],
        ['name', 'Name'],
        ['revision', 'Revision'],
        ['gate', 'Gate'],
        ['collection_status', 'Collection'],
        ['pairs', 'Page pairs'],
        ['missing', 'Missing evidence'],
        ['completed_at', 'Collected at'],
      ),
      rows: checks.map((check) => ({
        created_at: check.createdAt.toISOString(),
        release_check_id: check.id,
        name: check.name,
        revision: check.revision,
        gate: check.gate,
        collection_status: check.collectionStatus,
        pairs: check.summary.pairs,
        missing: check.summary.missing,
        completed_at: check.completedAt?.toISOString() ?? null,
      })),
    };
  }
}
