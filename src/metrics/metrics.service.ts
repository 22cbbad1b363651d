import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { Queue } from 'bull';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { acrossWorkspaces } from '../common/tenancy/workspace-scope';

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
/** The delivery states that still owe an attempt (the due index covers exactly these). */
const OPEN_DELIVERY_STATES = ['pending', 'retrying'] as const;
/** What became of a delivery after an attempt: delivered, to be tried again later, or given up. */
const DELIVERY_OUTCOMES = ['succeeded', 'retrying', 'failed'] as const;
/** A crawl's page fetch got an answer (any status), or none (refused, timed out, too many redirects). */
const CRAWL_FETCH_OUTCOMES = ['response', 'failed'] as const;
const A11Y_SCAN_ENDS = ['completed', 'failed'] as const;

export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
export type CrawlFetchOutcome = (typeof CRAWL_FETCH_OUTCOMES)[number];
export type A11yScanEnd = (typeof A11Y_SCAN_ENDS)[number];

function isBullQueue(candidate: unknown): candidate is Queue {
  const queue = candidate as Partial<Queue> | null;
  return (
    typeof queue?.getJobCounts === 'function' && typeof queue?.name === 'string' && typeof queue?.add === 'function'
  );
}

/**
 * Prometheus metrics of one app instance (its own registry, so instances in one process stay apart). Counters and
 * histograms count what this process did; the gauges read shared state (Redis, PostgreSQL) at scrape time, so every
 * instance reports the same figure for them. `registry` is public: other modules register their own metrics in it.
 */
@Injectable()
export class MetricsService implements OnApplicationBootstrap {
  readonly registry = new Registry();
  private queues: Queue[] = [];

  private readonly requests = new Counter({
    name: 'vigil_http_requests_total',
    help: 'HTTP requests by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  private readonly latency = new Histogram({
    name: 'vigil_http_request_duration_seconds',
    help: 'HTTP request latency by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  private readonly deliveries = new Counter({
    name: 'vigil_alert_deliveries_total',
    help: 'Alert delivery attempts recorded by this process, by outcome: succeeded, retrying (failed, tried again later) or failed (for good).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly scheduleLag = new Histogram({
    name: 'vigil_schedule_lag_seconds',
    help: 'How late this scheduler enqueued due monitor checks: from the slot it was due to its enqueueing.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  private readonly crawlPages = new Counter({
    name: 'vigil_crawl_pages_fetched_total',
    help: 'Pages crawls fetched in this process, by outcome: response (any HTTP status) or failed (no answer).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly a11yScanDuration = new Histogram({
    name: 'vigil_a11y_scan_duration_seconds',
    help: 'How long accessibility scans took in this process (all viewports), by how they ended.',
    labelNames: ['status'] as const,
    buckets: [1, 2.5, 5, 10, 20, 30, 60, 120, 300],
    registers: [this.registry],
  });

  constructor(
    private readonly modules: ModulesContainer,
    orm: MikroORM,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'vigil_' });
    // Every series from the start at zero, so a rate over the first event is right and dashboards show no gaps.
    for (const outcome of DELIVERY_OUTCOMES) this.deliveries.inc({ outcome }, 0);
    for (const outcome of CRAWL_FETCH_OUTCOMES) this.crawlPages.inc({ outcome }, 0);
    for (const status of A11Y_SCAN_ENDS) this.a11yScanDuration.zero({ status });
    const queues = () => this.queues;
    new Gauge({
      name: 'vigil_queue_jobs',
      help: 'Jobs in each Bull queue by state, read from Redis at scrape time.',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        for (const queue of queues()) {
          const counts = await queue.getJobCounts();
          for (const state of JOB_STATES) this.set({ queue: queue.name, state }, counts[state]);
        }
      },
    });
    new Gauge({
      name: 'vigil_alert_deliveries',
      help: 'Alert deliveries owing an attempt (all workers together), by status, read from PostgreSQL at scrape time.',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        // One statement over the partial index of open deliveries: its size is the backlog, not the history.
        const rows = await acrossWorkspaces(orm.em).execute<{ status: string; count: number }[]>(
          `select status, count(*)::int as count from webhook_deliveries
           where status in ('pending', 'retrying') group by status`,
          [],
          'all',
        );
        for (const status of OPEN_DELIVERY_STATES) {
          this.set({ status }, rows.find((row) => row.status === status)?.count ?? 0);
        }
      },
    });
    new Gauge({
      name: 'vigil_monitor_certificate_expiry_timestamp_seconds',
      help: "When the certificate each monitor's latest HTTPS check was served expires (Unix time), read from PostgreSQL at scrape time.",
      labelNames: ['workspace_id', 'monitor_id'] as const,
      registers: [this.registry],
      async collect() {
        // Monitors whose checks never went over HTTPS have no series; a deleted monitor's series goes with it.
        this.reset();
        const rows = await acrossWorkspaces(orm.em).execute<
          { workspace_id: string; monitor_id: string; expires: number }[]
        >(
          `select workspace_id, id as monitor_id,
                  extract(epoch from (certificate->>'expiresAt')::timestamptz)::float8 as expires
             from monitors where certificate is not null and not paused`,
          [],
          'all',
        );
        for (const row of rows) this.set({ workspace_id: row.workspace_id, monitor_id: row.monitor_id }, row.expires);
      },
    });
  }

  /** Finds every Bull queue registered in the app, so a new queue is reported without further wiring. */
  onApplicationBootstrap(): void {
    const found = new Map<string, Queue>();
    for (const module of this.modules.values()) {
      for (const provider of module.providers.values()) {
        if (isBullQueue(provider.instance)) found.set(provider.instance.name, provider.instance);
      }
    }
    this.queues = [...found.values()];
  }

  deliveryRecorded(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  checkEnqueued(lagSeconds: number): void {
    this.scheduleLag.observe(Math.max(0, lagSeconds));
  }

  crawlPageFetched(outcome: CrawlFetchOutcome): void {
    this.crawlPages.inc({ outcome });
  }

  a11yScanEnded(status: A11yScanEnd, seconds: number): void {
    this.a11yScanDuration.observe({ status }, seconds);
  }

  /** Express middleware: records each request under its route template (never the raw URL, which is unbounded). */
  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const route = (request.route as { path?: string } | undefined)?.path ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.requests.inc({ method: request.method, route, status: String(response.statusCode) });
      this.latency.observe({ method: request.method, route }, seconds);
    });
    next();
  };
}
