import type { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { inWorkspace } from '../common/tenancy/workspace-scope';
import type { UptimeDto, UptimeWindow } from './dto/monitor.dto';

const HOUR_MS = 3_600_000;
const WINDOW_HOURS: Record<UptimeWindow, number> = { '24h': 24, '7d': 7 * 24, '30d': 30 * 24 };

/** What uptime counts, in words: shown by status pages and stated in reports, so every figure comes with its method. */
export const UPTIME_METHOD =
  'Uptime is the share of checks that passed, counted over every region each monitor is checked from; ' +
  'time a monitor was paused and hours without checks are left out rather than counted as up or down, ' +
  'and checks made during maintenance are counted apart, neither up nor down.';

/** Hours `[from, to)`: whole hours, as the rollups keep them. */
export interface HourRange {
  from: Date;
  to: Date;
}

/** Checks in some hours: the sums every uptime figure and average response time is made of. */
export interface UptimeSums {
  checks: number;
  passed: number;
  responseMsSum: number;
}

export interface MonitorDaySums extends UptimeSums {
  monitorId: string;
  /** The UTC day, `YYYY-MM-DD`. */
  date: string;
}

/** Percentage of passed checks, to three decimals; null without checks. The one rounding every reader uses. */
export function uptimePercent({ checks, passed }: Pick<UptimeSums, 'checks' | 'passed'>): number | null {
  return checks === 0 ? null : Math.round((passed / checks) * 100_000) / 1000;
}

/** Average response time to a tenth of a millisecond; null without checks. */
export function averageResponseMs({ checks, responseMsSum }: Pick<UptimeSums, 'checks' | 'responseMsSum'>) {
  return checks === 0 ? null : Math.round((responseMsSum / checks) * 10) / 10;
}

/** The last `hours` whole hours up to `now`: the current hour and the ones before it, as the uptime API counts. */
export function lastHours(hours: number, now = new Date()): HourRange {
  const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { from: new Date(currentHour - (hours - 1) * HOUR_MS), to: new Date(currentHour + HOUR_MS) };
}

export const uptimeWindowRange = (window: UptimeWindow, now = new Date()): HourRange =>
  lastHours(WINDOW_HOURS[window], now);

interface SumRow {
  checks: string;
  passed: string;
  response_ms_sum: string;
}

const sums = (row: SumRow): UptimeSums => ({
  checks: Number(row.checks),
  passed: Number(row.passed),
  responseMsSum: Number(row.response_ms_sum),
});

/**
 * The one reader of the hourly rollups: the uptime API, status pages and reports all count through it, so their
 * figures cannot disagree. At most 720 rows per monitor and region for 30 days, however many checks ran, read
 * through an index that holds every column needed (an index-only scan). Windows are whole hours; the API's "24h" is
 * the current hour and the 23 before it. Raw SQL is outside the workspace filter: callers pass monitor ids they
 * already read through it.
 */
/**
 * Each read takes the unit of work it runs in, and the rollups are joined to their monitors under that unit's scope
 * (`inWorkspace`): a request's workspace, a job's once scoped to its workspace, and never an unscoped one.
 */
@Injectable()
export class UptimeReader {
  /**
   * `GET /monitors/{id}/uptime`: the three windows and the response-time history of one monitor, in one statement
   * (the hottest read of the three callers). Its windows are the ranges `totals` takes, filtered the same way.
   */
  async read(em: EntityManager, monitorId: string, region: string | null, history: UptimeWindow): Promise<UptimeDto> {
    const now = new Date();
    const [day, week, month] = (['24h', '7d', '30d'] as const).map((window) => uptimeWindowRange(window, now));
    const regionFilter = region === null ? '' : 'and region = ?';
    const inWindow = (range: HourRange) =>
      `hour >= '${range.from.toISOString()}' and hour < '${range.to.toISOString()}'`;
    const since = uptimeWindowRange(history, now);
    const [row] = await em.execute<
      (Record<`${'checks' | 'passed' | 'maintenance'}_${'day' | 'week' | 'month'}`, string> & {
        points: [string, string, string][] | null;
      })[]
    >(
      `with hours as (
         select hour, checks, passed, response_ms_sum, maintenance from monitor_check_rollups r
           join monitors m on m.id = r.monitor_id and ${inWorkspace(em, 'm.workspace_id')}
         where r.monitor_id = ? ${regionFilter} and ${inWindow(month)}
       )
       select
         coalesce(sum(checks) filter (where ${inWindow(day)}), 0) as checks_day,
         coalesce(sum(passed) filter (where ${inWindow(day)}), 0) as passed_day,
         coalesce(sum(checks) filter (where ${inWindow(week)}), 0) as checks_week,
         coalesce(sum(passed) filter (where ${inWindow(week)}), 0) as passed_week,
         coalesce(sum(checks), 0) as checks_month,
         coalesce(sum(passed), 0) as passed_month,
         coalesce(sum(maintenance) filter (where ${inWindow(day)}), 0) as maintenance_day,
         coalesce(sum(maintenance) filter (where ${inWindow(week)}), 0) as maintenance_week,
         coalesce(sum(maintenance), 0) as maintenance_month,
         (select json_agg(json_build_array(t, checks, response_ms_sum) order by t) from (
            select date_trunc('${history === '30d' ? 'day' : 'hour'}', hour, 'UTC') as t,
                   sum(checks) as checks, sum(response_ms_sum) as response_ms_sum
            from hours where ${inWindow(since)} group by 1 having sum(checks) > 0
          ) as buckets) as points
       from hours`,
      [monitorId, ...(region === null ? [] : [region])],
      'all',
    );
    const figures = (window: 'day' | 'week' | 'month') => ({
      checks: Number(row[`checks_${window}`]),
      passed: Number(row[`passed_${window}`]),
    });
    return {
      monitor_id: monitorId,
      region,
      uptime: {
        '24h': uptimePercent(figures('day')),
        '7d': uptimePercent(figures('week')),
        '30d': uptimePercent(figures('month')),
      },
      checks: { '24h': figures('day').checks, '7d': figures('week').checks, '30d': figures('month').checks },
      maintenance_checks: {
        '24h': Number(row.maintenance_day),
        '7d': Number(row.maintenance_week),
        '30d': Number(row.maintenance_month),
      },
      history,
      response_times: (row.points ?? []).map(([t, checks, responseMsSum]) => ({
        t: new Date(t).toISOString(),
        ms: averageResponseMs({ checks: Number(checks), responseMsSum: Number(responseMsSum) })!,
      })),
    };
  }

  /** Sums per monitor over the hours (all regions, or one); monitors without checks are absent. */
  async totals(
    em: EntityManager,
    monitorIds: string[],
    range: HourRange,
    region: string | null = null,
  ): Promise<Map<string, UptimeSums>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await em.execute<(SumRow & { monitor_id: string })[]>(
      `select r.monitor_id, sum(r.checks) as checks, sum(r.passed) as passed, sum(r.response_ms_sum) as response_ms_sum
       from monitor_check_rollups r
         join monitors m on m.id = r.monitor_id and ${inWorkspace(em, 'm.workspace_id')}
       where r.monitor_id in (?) and r.hour >= ? and r.hour < ? ${region === null ? '' : 'and r.region = ?'}
       group by r.monitor_id`,
      [monitorIds, range.from, range.to, ...(region === null ? [] : [region])],
      'all',
    );
    return new Map(rows.map((row) => [row.monitor_id, sums(row)]));
  }

  /** Sums per monitor and UTC day over the hours (all regions); days without checks are absent. */
  async daily(em: EntityManager, monitorIds: string[], range: HourRange): Promise<MonitorDaySums[]> {
    if (monitorIds.length === 0) return [];
    const rows = await em.execute<(SumRow & { monitor_id: string; date: string })[]>(
      `select r.monitor_id, to_char(r.hour at time zone 'UTC', 'YYYY-MM-DD') as date,
              sum(r.checks) as checks, sum(r.passed) as passed, sum(r.response_ms_sum) as response_ms_sum
       from monitor_check_rollups r
         join monitors m on m.id = r.monitor_id and ${inWorkspace(em, 'm.workspace_id')}
       where r.monitor_id in (?) and r.hour >= ? and r.hour < ?
       group by 1, 2 order by 2, 1`,
      [monitorIds, range.from, range.to],
      'all',
    );
    return rows.map((row) => ({ monitorId: row.monitor_id, date: row.date, ...sums(row) }));
  }

  /** Checks of every monitor of a workspace since a time (those during maintenance too), for usage against the plan. */
  async workspaceChecks(em: EntityManager, since: Date): Promise<number> {
    const [row] = await em.execute<{ total: string }[]>(
      `select coalesce(sum(r.checks + r.maintenance), 0) as total from monitor_check_rollups r
       join monitors m on m.id = r.monitor_id and ${inWorkspace(em, 'm.workspace_id')} where r.hour >= ?`,
      [since],
      'all',
    );
    return Number(row?.total ?? 0);
  }
}
