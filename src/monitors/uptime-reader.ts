import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { UptimeDto, UptimeWindow } from './dto/monitor.dto';

const WINDOW_HOURS: Record<UptimeWindow, number> = { '24h': 24, '7d': 7 * 24, '30d': 30 * 24 };

interface UptimeRow {
  checks_24h: string;
  passed_24h: string;
  checks_7d: string;
  passed_7d: string;
  checks_30d: string;
  passed_30d: string;
  /** `[t, average ms]` pairs, oldest first, for the requested history. */
  points: [string, number][] | null;
}

const percent = (passed: number, checks: number): number | null =>
  checks === 0 ? null : Math.round((passed / checks) * 100_000) / 1000;

/**
 * Uptime and response times from the hourly rollups: at most 720 rows per monitor and region for 30 days, however
 * many checks ran, read once by one statement through an index that holds every column it needs (an index-only
 * scan of a few pages rather than 720 heap pages). Windows are whole hours: "24h" is the current hour and the 23
 * before it.
 */
@Injectable()
export class UptimeReader {
  constructor(private readonly em: EntityManager) {}

  async read(monitorId: string, region: string | null, history: UptimeWindow): Promise<UptimeDto> {
    const regionFilter = region === null ? '' : 'and region = ?';
    const since = (hours: number) => `date_trunc('hour', now()) - interval '${hours - 1} hours'`;
    const bucket = history === '30d' ? 'day' : 'hour';
    const [totals] = await this.em.execute<UptimeRow[]>(
      `with hours as (
         select hour, checks, passed, response_ms_sum from monitor_check_rollups
         where monitor_id = ? ${regionFilter} and hour >= ${since(720)}
       )
       select
         coalesce(sum(checks) filter (where hour >= ${since(24)}), 0) as checks_24h,
         coalesce(sum(passed) filter (where hour >= ${since(24)}), 0) as passed_24h,
         coalesce(sum(checks) filter (where hour >= ${since(168)}), 0) as checks_7d,
         coalesce(sum(passed) filter (where hour >= ${since(168)}), 0) as passed_7d,
         coalesce(sum(checks), 0) as checks_30d,
         coalesce(sum(passed), 0) as passed_30d,
         (select json_agg(json_build_array(t, ms) order by t) from (
            select date_trunc('${bucket}', hour) as t, sum(response_ms_sum)::float8 / sum(checks) as ms
            from hours where hour >= ${since(WINDOW_HOURS[history])} group by 1
          ) as buckets) as points
       from hours`,
      [monitorId, ...(region === null ? [] : [region])],
      'all',
    );
    const figure = (checks: string, passed: string) => percent(Number(passed), Number(checks));
    return {
      monitor_id: monitorId,
      region,
      uptime: {
        '24h': figure(totals.checks_24h, totals.passed_24h),
        '7d': figure(totals.checks_7d, totals.passed_7d),
        '30d': figure(totals.checks_30d, totals.passed_30d),
      },
      checks: { '24h': Number(totals.checks_24h), '7d': Number(totals.checks_7d), '30d': Number(totals.checks_30d) },
      history,
      response_times: (totals.points ?? []).map(([t, ms]) => ({
        t: new Date(t).toISOString(),
        ms: Math.round(ms * 10) / 10,
      })),
    };
  }
}
