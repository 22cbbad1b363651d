import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { Queue } from 'bull';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

function isBullQueue(candidate: unknown): candidate is Queue {
  const queue = candidate as Partial<Queue> | null;
  return (
    typeof queue?.getJobCounts === 'function' && typeof queue?.name === 'string' && typeof queue?.add === 'function'
  );
}

/** Prometheus metrics of one app instance (its own registry, so instances in one process stay apart). */
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

  constructor(private readonly modules: ModulesContainer) {
    collectDefaultMetrics({ register: this.registry, prefix: 'vigil_' });
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
