import { createHash } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { normalizeUrl } from '../../libs/crawl';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { DomainError, NotFound, ValidationFailed } from '../common/errors/domain-errors';
import { type Page, pageOf, pageWindow } from '../common/pagination/pagination';
import { assertPublicTarget } from '../common/targets/public-target';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MonitorsService } from '../monitors/monitors.service';
import { Monitor } from '../monitors/entities/monitor.entity';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/entities/workspace.entity';
import { CrawlRunner, endCrawl } from './crawl-runner';
import {
  type CrawlDto,
  type CrawlPageDto,
  type CrawlPagesQuery,
  type CrawlSummaryDto,
  type CreatedMonitorsFromCrawlDto,
  type CreateMonitorsFromCrawlDto,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_PAGES,
  type ListCrawlsQuery,
  type StartCrawlDto,
} from './dto/crawl.dto';
import { inWorkspace } from '../common/tenancy/workspace-scope';
import { Crawl } from './entities/crawl.entity';
import { CrawlUrl, SKIP_REASONS, type SkipReason } from './entities/crawl-url.entity';

export interface StartedCrawl {
  crawl: CrawlSummaryDto;
  /** False when `request_key` named an identical earlier request. */
  created: boolean;
}

/** Crawls of the workspace (the request's scope filters every query): start, read, cancel, monitors from pages. */
@Injectable()
export class CrawlService {
  constructor(
    private readonly em: EntityManager,
    private readonly runner: CrawlRunner,
    private readonly monitors: MonitorsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async start(principal: WorkspacePrincipal, dto: StartCrawlDto): Promise<StartedCrawl> {
    const url = normalizeUrl(dto.url) ?? dto.url;
    const settings = {
      url,
      maxPages: dto.max_pages ?? DEFAULT_MAX_PAGES,
      maxDepth: dto.max_depth ?? DEFAULT_MAX_DEPTH,
      include: dto.include ?? [],
      exclude: dto.exclude ?? [],
    };
    const requestHash = createHash('sha256').update(JSON.stringify(settings)).digest('hex');
    if (dto.request_key) {
      const earlier = await this.em.findOne(Crawl, { requestKey: dto.request_key });
      if (earlier) return this.replay(earlier, requestHash);
    }
    await assertPublicTarget(url, 'url', this.config.allowPrivateTargets);
    const crawl = this.em.create(Crawl, {
      ...settings,
      workspace: this.em.getReference(Workspace, principal.workspace.id),
      origin: new URL(url).origin,
      requestKey: dto.request_key ?? null,
      requestHash,
      createdBy: principal.userId ? this.em.getReference(User, principal.userId) : null,
    });
    try {
      await this.em.flush();
    } catch (error) {
      // Two identical requests at the same moment: the other one created the crawl; answer with it.
      if (!(error instanceof UniqueConstraintViolationException) || !dto.request_key) throw error;
      this.em.clear();
      return this.replay(await this.em.findOneOrFail(Crawl, { requestKey: dto.request_key }), requestHash);
    }
    await this.runner.enqueue(crawl.id);
    return { crawl: (await this.summaries([crawl]))[0], created: true };
  }

  async list(query: ListCrawlsQuery): Promise<Page<CrawlSummaryDto>> {
    const [crawls, total] = await this.em.findAndCount(Crawl, query.status ? { status: query.status } : {}, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      ...pageWindow(query),
    });
    return pageOf(await this.summaries(crawls), total, query);
  }

  /** The crawl with one page of its pages, in the order they were found. */
  async get(id: string, query: CrawlPagesQuery): Promise<CrawlDto> {
    const crawl = await this.owned(id);
    const [rows, total] = await this.em.findAndCount(
      CrawlUrl,
      { crawl, state: 'page' },
      { orderBy: { seq: 'asc' }, ...pageWindow(query) },
    );
    const monitored = await this.monitoredAmong(rows.flatMap((row) => [row.url, row.finalUrl ?? row.url]));
    const [summary] = await this.summaries([crawl]);
    const { pagination } = pageOf([], total, query);
    return { ...summary, pages: rows.map((row) => presentPage(row, monitored)), pagination };
  }

  async cancel(id: string): Promise<CrawlSummaryDto> {
    return this.em.transactional(async (em) => {
      const crawl = await em.findOne(Crawl, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!crawl) throw new NotFound('Crawl');
      if (crawl.status === 'completed' || crawl.status === 'failed') {
        throw new DomainError('crawl_finished', `This crawl is ${crawl.status}; only a queued or running crawl stops.`);
      }
      if (crawl.status !== 'cancelled') await endCrawl(em, crawl, { status: 'cancelled' });
      await em.flush();
      return (await this.summaries([crawl]))[0];
    });
  }

  /**
   * Monitors for the picked pages, all or nothing: every URL must be a page this crawl found, the plan must have
   * room. URLs the workspace monitors already are skipped, so a repeated request creates nothing new. The crawl's
   * row lock makes two identical requests at once create each monitor once.
   */
  async createMonitors(
    principal: WorkspacePrincipal,
    id: string,
    dto: CreateMonitorsFromCrawlDto,
    /** The origin of the answer's absolute URLs (`@PublicOrigin()`). */
    origin: string,
  ): Promise<CreatedMonitorsFromCrawlDto> {
    return this.em.transactional(async (em) => {
      const crawl = await em.findOne(Crawl, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!crawl) throw new NotFound('Crawl');
      const urls = [...new Set(dto.urls)];
      const pages = await em.find(CrawlUrl, {
        crawl,
        state: 'page',
        $or: [{ url: { $in: urls } }, { finalUrl: { $in: urls } }],
      });
      const pageOfUrl = new Map<string, CrawlUrl>();
      for (const page of pages) {
        pageOfUrl.set(page.url, page);
        if (page.finalUrl) pageOfUrl.set(page.finalUrl, page);
      }
      const foreign = dto.urls.flatMap((url, index) =>
        pageOfUrl.has(url) ? [] : [{ field: `urls[${index}]`, message: `${url} is not a page this crawl found` }],
      );
      if (foreign.length > 0) throw new ValidationFailed(foreign);

      const monitored = await this.monitoredAmong(pages.flatMap((page) => [page.url, page.finalUrl ?? page.url]));
      const skipped: CreatedMonitorsFromCrawlDto['skipped'] = [];
      const wanted = urls.filter((url) => {
        const page = pageOfUrl.get(url) as CrawlUrl;
        const taken = monitored.has(url) || monitored.has(page.url) || monitored.has(page.finalUrl ?? page.url);
        if (taken) skipped.push({ url, reason: 'already_monitored' });
        return !taken;
      });
      const created = await this.monitors.createMany(
        principal,
        wanted.map((url) => ({
          url,
          name: (pageOfUrl.get(url)?.title ?? new URL(url).pathname).slice(0, 200),
          ...(dto.monitor ?? {}),
        })),
        origin,
      );
      return { created, skipped };
    });
  }

  /** Which of the URLs the workspace monitors already (the scope filter keeps it to this workspace). */
  private async monitoredAmong(urls: string[]): Promise<Set<string>> {
    if (urls.length === 0) return new Set();
    const monitors = await this.em.find(Monitor, { url: { $in: [...new Set(urls)] } }, { fields: ['url'] });
    return new Set(monitors.flatMap((monitor) => monitor.url ?? []));
  }

  /** Summaries with their counts, read for all the crawls in one query. */
  private async summaries(crawls: Crawl[]): Promise<CrawlSummaryDto[]> {
    if (crawls.length === 0) return [];
    // Ids of crawls this request read through its scope, as a PostgreSQL array literal.
    const ids = `{${crawls.map((crawl) => crawl.id).join(',')}}`;
    const counts = await this.em.execute<
      { crawl_id: string; state: string; skip_reason: SkipReason | null; count: number }[]
    >(
      `select u.crawl_id, u.state, u.skip_reason, count(*)::int as count from crawl_urls u
         join crawls c on c.id = u.crawl_id and ${inWorkspace(this.em, 'c.workspace_id')}
        where u.crawl_id = any(?::uuid[]) and u.state in ('page', 'skipped') group by 1, 2, 3`,
      [ids],
    );
    return crawls.map((crawl) => {
      const skipped = Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as Record<SkipReason, number>;
      let pages = 0;
      for (const row of counts.filter((count) => count.crawl_id === crawl.id)) {
        if (row.state === 'page') pages += row.count;
        else if (row.skip_reason) skipped[row.skip_reason] += row.count;
      }
      return presentSummary(crawl, pages, skipped);
    });
  }

  private async replay(earlier: Crawl, requestHash: string): Promise<StartedCrawl> {
    if (earlier.requestHash !== requestHash) {
      throw new DomainError(
        'request_key_reused',
        'This request_key was used for a different crawl. Use a new request_key for a new crawl.',
        { crawl_id: earlier.id },
      );
    }
    return { crawl: (await this.summaries([earlier]))[0], created: false };
  }

  private async owned(id: string): Promise<Crawl> {
    const crawl = await this.em.findOne(Crawl, { id });
    if (!crawl) throw new NotFound('Crawl');
    return crawl;
  }
}

function presentSummary(crawl: Crawl, pages: number, skipped: Record<SkipReason, number>): CrawlSummaryDto {
  return {
    id: crawl.id,
    url: crawl.url,
    origin: crawl.origin,
    status: crawl.status,
    stop_reason: crawl.stopReason,
    failure: crawl.failure,
    max_pages: crawl.maxPages,
    max_depth: crawl.maxDepth,
    include: crawl.include,
    exclude: crawl.exclude,
    request_key: crawl.requestKey,
    pages_found: pages,
    skipped,
    created_at: crawl.createdAt.toISOString(),
    started_at: crawl.startedAt?.toISOString() ?? null,
    completed_at: crawl.completedAt?.toISOString() ?? null,
  };
}

function presentPage(row: CrawlUrl, monitored: Set<string>): CrawlPageDto {
  const finalUrl = row.finalUrl ?? row.url;
  return {
    id: row.id,
    url: row.url,
    final_url: finalUrl,
    status_code: row.statusCode ?? 200,
    title: row.title,
    canonical: row.canonical,
    depth: row.depth,
    found_via: row.foundVia,
    noindex: row.noindex,
    already_monitored: monitored.has(row.url) || monitored.has(finalUrl),
  };
}
