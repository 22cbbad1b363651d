import type { EntityManager } from '@mikro-orm/postgresql';
import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable, Optional } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsService } from '../metrics/metrics.service';
import { renderStatusHtml } from './status-site';
import { acrossWorkspaces, workspaceUnitOfWork } from '../common/tenancy/workspace-scope';
import { Monitor } from '../monitors/entities/monitor.entity';
import { UPTIME_METHOD, type UptimeSums, UptimeReader, uptimePercent } from '../monitors/uptime-reader';
import { MaintenanceWindow } from '../maintenance/entities/maintenance-window.entity';
import { nextOccurrence, type Occurrence, occurrenceAt } from '../maintenance/maintenance-calendar';
import type {
  DayStatus,
  PublicIncidentDto,
  PublicMaintenanceDto,
  PublicStatusComponentDto,
  PublicStatusPageDto,
  ServiceStatus,
} from './dto/status-pages.dto';
import { Incident, type IncidentImpact } from './entities/incident.entity';
import { presentIncidents, publicIncident } from './incident.presenter';
import { StatusPage } from './entities/status-page.entity';
import { type CachedPublicPage, PublicStatusCache } from './public-status-cache';

/** A page that is published, as the cache holds it. */
export type PublishedPage = Extract<CachedPublicPage, { found: true }>;

const DAY_MS = 86_400_000;
export const HISTORY_DAYS = 90;
/** How far ahead the page announces maintenance. */
const UPCOMING_MAINTENANCE_DAYS = 7;
const MAX_RESOLVED_INCIDENTS = 50;

const SEVERITY: ServiceStatus[] = ['operational', 'degraded', 'partial_outage', 'major_outage'];
/** The worst status; components under maintenance count only when nothing else reports. */
function worst(statuses: ServiceStatus[]): ServiceStatus {
  const reporting = statuses.filter((status) => status !== 'under_maintenance');
  if (reporting.length === 0 && statuses.length > 0) return 'under_maintenance';
  return SEVERITY[Math.max(0, ...reporting.map((status) => SEVERITY.indexOf(status)))];
}

/** What an open incident of each impact raises the page's status to, at least. */
const IMPACT_STATUS: Record<IncidentImpact, ServiceStatus> = {
  minor: 'degraded',
  major: 'partial_outage',
  critical: 'major_outage',
};

/** A day's status from its uptime (the thresholds the contract's DayStatus states). */
function dayStatus(uptime: number | null): DayStatus {
  if (uptime === null) return 'no_data';
  if (uptime >= 99.9) return 'operational';
  if (uptime >= 99) return 'degraded';
  if (uptime >= 95) return 'partial_outage';
  return 'major_outage';
}

/** A component's status now, from its monitors that are checked (paused and not yet checked ones say nothing). */
function componentStatus(monitors: Pick<Monitor, 'status'>[]): ServiceStatus {
  const reporting = monitors.filter((monitor) => monitor.status === 'up' || monitor.status === 'down');
  const down = reporting.filter((monitor) => monitor.status === 'down').length;
  if (down === 0) return 'operational';
  return down === reporting.length ? 'major_outage' : 'partial_outage';
}

const add = (into: UptimeSums, sums: UptimeSums): void => {
  into.checks += sums.checks;
  into.passed += sums.passed;
  into.responseMsSum += sums.responseMsSum;
};

/** The last `days` UTC days up to today, oldest first, as `YYYY-MM-DD`, and the hours they span. */
export function lastUtcDays(days: number, now = new Date()) {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const dates = Array.from({ length: days }, (_, index) =>
    new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10),
  );
  return { dates, range: { from: new Date(today - (days - 1) * DAY_MS), to: new Date(today + DAY_MS) } };
}

/**
 * Public status pages as visitors read them: computed from what the workspace chose to publish (component names, their
 * status and daily uptime, incidents) and nothing else, through the shared cache.
 */
@Injectable()
export class PublicStatusService {
  /** Pages computed from the database: the cache's misses, which a burst of visitors must not multiply. */
  private readonly computations?: Counter;
  /** The last HTML rendering per slug, reused while its page's ETag holds (90 days × components is not free). */
  private readonly rendered = new Map<string, { etag: string; html: string }>();

  constructor(
    private readonly orm: MikroORM,
    private readonly uptime: UptimeReader,
    private readonly cache: PublicStatusCache,
    @Optional() metrics?: MetricsService,
  ) {
    if (metrics) {
      this.computations = new Counter({
        name: 'vigil_status_page_computations_total',
        help: 'Public status pages computed from the database (cache misses), by this process.',
        registers: [metrics.registry],
      });
    }
  }

  /** The published page of `slug` as served (JSON and ETag), or `found: false`. */
  read(slug: string): Promise<CachedPublicPage> {
    return this.cache.read(slug, async () => {
      this.computations?.inc();
      const page = await this.compute(slug);
      return page === null ? null : JSON.stringify(page);
    });
  }

  /** The page for people, rendered from the served JSON once per ETag. */
  html(slug: string, page: PublishedPage): string {
    const kept = this.rendered.get(slug);
    if (kept?.etag === page.etag) return kept.html;
    const html = renderStatusHtml(JSON.parse(page.json) as PublicStatusPageDto, slug);
    // Bounded: unknown slugs never get here, but a service with many pages must not keep them all.
    if (this.rendered.size >= 1000) this.rendered.delete(this.rendered.keys().next().value!);
    this.rendered.set(slug, { etag: page.etag, html });
    return html;
  }

  /** The page from the database; null for an unknown or unpublished slug. */
  async compute(slug: string, now = new Date()): Promise<PublicStatusPageDto | null> {
    // The page is found by its slug across workspaces; what it shows is read in its own workspace only.
    const page = await acrossWorkspaces(this.orm.em).findOne(StatusPage, { slug, published: true });
    if (!page) return null;
    const em = workspaceUnitOfWork(this.orm.em, page.workspace.id);
    const monitorIds = [...new Set(page.components.flatMap((component) => component.monitor_ids))];
    const monitors = await em.find(Monitor, { id: { $in: monitorIds } }, { fields: ['id', 'status'] });
    const statusOf = new Map(monitors.map((monitor) => [monitor.id, monitor]));
    const { dates, range } = lastUtcDays(HISTORY_DAYS, now);
    const daily = await this.uptime.daily(em, [...statusOf.keys()], range);
    const maintenance = await this.maintenance(em, page, statusOf, now);
    const components = page.components.map((component): PublicStatusComponentDto => {
      const members = new Set(component.monitor_ids.filter((id) => statusOf.has(id)));
      const underWay = maintenance.filter((shown) => shown.active && [...members].some((id) => shown.covers(id)));
      const inMaintenance = (id: string) => underWay.some((shown) => shown.covers(id));
      const reporting = [...members].filter((id) => !inMaintenance(id));
      const byDate = new Map<string, UptimeSums>();
      const total: UptimeSums = { checks: 0, passed: 0, responseMsSum: 0 };
      for (const row of daily) {
        if (!members.has(row.monitorId)) continue;
        const day = byDate.get(row.date) ?? { checks: 0, passed: 0, responseMsSum: 0 };
        add(day, row);
        add(total, row);
        byDate.set(row.date, day);
      }
      return {
        id: component.id,
        name: component.name,
        status:
          members.size > 0 && reporting.length === 0
            ? 'under_maintenance'
            : componentStatus(reporting.map((id) => statusOf.get(id)!)),
        maintenance: underWay[0]?.view ?? null,
        uptime_90d: uptimePercent(total),
        days: dates.map((date) => {
          const uptime = byDate.has(date) ? uptimePercent(byDate.get(date)!) : null;
          return { date, uptime, status: dayStatus(uptime) };
        }),
      };
    });
    const incidents = await this.incidents(em, page, now);
    const openImpacts = incidents
      .filter((incident) => incident.resolved_at === null)
      .map((incident) => IMPACT_STATUS[incident.impact]);
    return {
      title: page.title,
      description: page.description,
      status: worst([...components.map((component) => component.status), ...openImpacts]),
      components,
      maintenance: maintenance.map((shown) => shown.view),
      incidents,
      method: UPTIME_METHOD,
      updated_at: now.toISOString(),
    };
  }

  /**
   * The workspace's maintenance covering any of the page's components: the occurrence under way, or the next one when
   * it starts within UPCOMING_MAINTENANCE_DAYS, soonest first, each with the names of the components it covers.
   */
  private async maintenance(
    em: EntityManager,
    page: StatusPage,
    monitors: Map<string, unknown>,
    now: Date,
  ): Promise<{ active: boolean; view: PublicMaintenanceDto; covers: (monitorId: string) => boolean }[]> {
    const horizon = new Date(now.getTime() + UPCOMING_MAINTENANCE_DAYS * DAY_MS);
    const shown = [];
    for (const window of await em.find(MaintenanceWindow, {}, { orderBy: { createdAt: 'asc', id: 'asc' } })) {
      const covers = (monitorId: string) => window.allMonitors || window.monitorIds.includes(monitorId);
      const components = page.components
        .filter((component) => component.monitor_ids.some((id) => monitors.has(id) && covers(id)))
        .map((component) => component.name);
      if (components.length === 0) continue;
      const current = occurrenceAt(window, now);
      const next = current ? null : nextOccurrence(window, now);
      const occurrence: Occurrence | null = current ?? (next && next.startsAt < horizon ? next : null);
      if (!occurrence) continue;
      shown.push({
        active: current !== null,
        covers,
        view: {
          name: window.title,
          message: window.message,
          starts_at: occurrence.startsAt.toISOString(),
          ends_at: occurrence.endsAt.toISOString(),
          components,
        },
      });
    }
    return shown.sort((a, b) => a.view.starts_at.localeCompare(b.view.starts_at));
  }

  /**
   * Open incidents, all of them however old, then those resolved in the last 90 days (at most 50), newest first, with
   * their updates oldest first.
   */
  private async incidents(em: EntityManager, page: StatusPage, now: Date): Promise<PublicIncidentDto[]> {
    const since = new Date(now.getTime() - HISTORY_DAYS * DAY_MS);
    const newestFirst = { orderBy: { createdAt: 'desc', id: 'desc' } } as const;
    const [open, resolved] = await Promise.all([
      em.find(Incident, { statusPage: page, resolvedAt: null }, newestFirst),
      em.find(
        Incident,
        { statusPage: page, resolvedAt: { $ne: null }, createdAt: { $gte: since } },
        { ...newestFirst, limit: MAX_RESOLVED_INCIDENTS },
      ),
    ]);
    const incidents = [...open, ...resolved].sort(
      (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id),
    );
    return (await presentIncidents(em, incidents)).map(publicIncident);
  }
}
