import { InjectQueue } from '@nestjs/bull';
import { LockMode } from '@mikro-orm/core';
import { type EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { HostLimiter, PoliteFetcher } from '../../libs/crawl';
import { acrossWorkspaces, inWorkspace, jobUnitOfWork } from '../common/tenancy/workspace-scope';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { recordEvent } from '../events/outbox';
import { MetricsService } from '../metrics/metrics.service';
import { type CrawlJob, crawlJobId, crawlJobOptions, JOBS, QUEUES } from '../queues/jobs';
import { type CrawlEnd, CrawlSession } from './crawl-session';
import { Crawl } from './entities/crawl.entity';

/**
 * Runs crawls in worker processes. A crawl's frontier and results are in the database, so a job that runs again (a
 * retry, a worker that died and another that took the job over) continues where the recorded crawl stands.
 */
@Injectable()
export class CrawlRunner {
  /** Shared by every crawl in this process, so two crawls of one host are polite together. */
  private readonly fetcher: PoliteFetcher;

  constructor(
    private readonly orm: MikroORM,
    @InjectQueue(QUEUES.crawls) private readonly queue: Queue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    const { crawl } = config;
    this.fetcher = new PoliteFetcher({
      guard: { allowPrivate: config.allowPrivateTargets },
      limiter: new HostLimiter(crawl.hostConcurrency),
      timeoutMs: crawl.requestTimeoutMs,
      backoffBaseMs: crawl.backoffBaseMs,
      backoffMaxMs: crawl.backoffMaxMs,
      retries: crawl.retries,
    });
  }

  async enqueue(crawlId: string): Promise<void> {
    const job: CrawlJob = { crawlId };
    await this.queue.add(JOBS.runCrawl, job, crawlJobOptions(job));
  }

  async run(job: CrawlJob): Promise<void> {
    const em = await jobUnitOfWork(this.orm.em, Crawl, job.crawlId);
    if (!em) return;
    const unfinished = { id: job.crawlId, status: { $in: ['queued', 'running'] as const } };
    if (!(await em.nativeUpdate(Crawl, unfinished, { status: 'running' }))) return;
    const crawl = await em.findOneOrFail(Crawl, { id: job.crawlId });
    if (!crawl.startedAt) await em.nativeUpdate(Crawl, { id: crawl.id }, { startedAt: new Date() });
    const session = new CrawlSession(
      em,
      {
        id: crawl.id,
        url: crawl.url,
        origin: crawl.origin,
        maxPages: crawl.maxPages,
        maxDepth: crawl.maxDepth,
        include: crawl.include,
        exclude: crawl.exclude,
        sitemapsRead: crawl.sitemapsReadAt !== null,
      },
      this.fetcher,
      {
        concurrency: this.config.crawl.hostConcurrency,
        delayCapMs: this.config.crawl.backoffMaxMs,
        isCancelled: async () => (await em.count(Crawl, { id: crawl.id, status: 'cancelled' })) > 0,
        onPageFetched: (outcome) => this.metrics.crawlPageFetched(outcome.kind),
      },
    );
    await this.finish(em, crawl.id, await session.run());
  }

  /** A job that failed on every attempt ends its crawl; the pages found so far stay. */
  async recordFailure(job: CrawlJob): Promise<void> {
    const em = await jobUnitOfWork(this.orm.em, Crawl, job.crawlId);
    const message = 'the crawl could not go on; start a new crawl';
    if (em) await this.finish(em, job.crawlId, { status: 'failed', failure: { reason: 'interrupted', message } });
  }

  /** Re-queues unfinished crawls whose job was lost (Redis emptied) and ends those whose job failed for good. */
  async resumeUnfinished(): Promise<number> {
    const em = acrossWorkspaces(this.orm.em);
    const crawls = await em.find(Crawl, { status: { $in: ['queued', 'running'] } }, { fields: ['id'] });
    let resumed = 0;
    for (const { id } of crawls) {
      const job = await this.queue.getJob(crawlJobId({ crawlId: id }));
      if (!job) await this.enqueue(id);
      else if (await job.isFailed()) await this.recordFailure({ crawlId: id });
      else continue;
      resumed += 1;
    }
    return resumed;
  }

  /**
   * Ends the crawl under its row lock, unless it ended already (cancelled meanwhile): duplicates by canonical link
   * are settled, and `crawl.completed` is recorded in the same transaction.
   */
  private async finish(jobEm: EntityManager, crawlId: string, end: CrawlEnd): Promise<void> {
    await jobEm.transactional(async (em) => {
      const crawl = await em.findOne(Crawl, { id: crawlId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!crawl || (crawl.status !== 'queued' && crawl.status !== 'running')) return;
      if (end.status === 'completed') await settleCanonicalDuplicates(em, crawl.id);
      await endCrawl(em, crawl, end);
    });
  }
}

/**
 * A page whose canonical link names another page of the crawl (one that is its own canonical) is that page's
 * duplicate, not a page of its own.
 */
async function settleCanonicalDuplicates(em: EntityManager, crawlId: string): Promise<void> {
  await em.execute(
    `update crawl_urls p set state = 'skipped', skip_reason = 'duplicate'
      from crawls c
      where c.id = p.crawl_id and ${inWorkspace(em, 'c.workspace_id')}
        and p.crawl_id = ? and p.state = 'page' and p.canonical is not null
        and p.canonical <> p.url and p.canonical <> coalesce(p.final_url, p.url)
        and exists (
          select 1 from crawl_urls q
           where q.crawl_id = p.crawl_id and q.state = 'page' and q.id <> p.id
             and (q.url = p.canonical or q.final_url = p.canonical)
             and (q.canonical is null or q.canonical in (q.url, q.final_url)))`,
    [crawlId],
    'run',
  );
}

/** Ends the crawl (completed, failed or cancelled) and records `crawl.completed`, in the caller's transaction. */
export async function endCrawl(em: EntityManager, crawl: Crawl, end: CrawlEnd): Promise<void> {
  crawl.status = end.status;
  crawl.stopReason = end.status === 'completed' ? end.stopReason : null;
  crawl.failure = end.status === 'failed' ? end.failure : null;
  crawl.completedAt = new Date();
  const [{ pages }] = await em.execute<{ pages: number }[]>(
    `select count(*)::int as pages from crawl_urls u join crawls c on c.id = u.crawl_id
      where ${inWorkspace(em, 'c.workspace_id')} and u.crawl_id = ? and u.state = 'page'`,
    [crawl.id],
  );
  recordEvent(em, {
    workspaceId: crawl.workspace.id,
    type: 'crawl.completed',
    data: {
      crawl_id: crawl.id,
      url: crawl.url,
      origin: crawl.origin,
      status: end.status,
      stop_reason: crawl.stopReason,
      failure: crawl.failure,
      pages_found: pages,
    },
  });
}
