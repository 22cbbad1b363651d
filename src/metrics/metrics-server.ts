import { createServer, type Server } from 'node:http';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { problem, problemFrom, type ProblemResponse } from '../common/errors/problem-details';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { servesHttp } from '../config/roles';
import { metricsRefusal, mayReadMetrics } from './metrics-token.guard';
import { MetricsService } from './metrics.service';

/**
 * `GET /metrics` on METRICS_PORT for the roles that serve no HTTP (worker, scheduler): what they count (deliveries,
 * crawl pages, scan durations, schedule lag) exists only in their own process. The same token rule as the API's route.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server?: Server;

  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metricsPort;
    if (servesHttp(this.config) || port === null) return;
    const server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      const answer = (status: number, headers: Record<string, string>, body: string): void => {
        response.writeHead(status, headers).end(request.method === 'HEAD' ? undefined : body);
      };
      const refuse = ({ status, headers, body }: ProblemResponse): void =>
        answer(status, { ...headers, 'Content-Type': 'application/problem+json' }, JSON.stringify(body));

      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return refuse(problem('not_found', `No route matches ${path}.`, path));
      }
      if (!mayReadMetrics(this.config.metricsToken, request.headers.authorization)) {
        return refuse(problemFrom(metricsRefusal(), path));
      }
      this.metrics.registry.metrics().then(
        (text) => answer(200, { 'Content-Type': this.metrics.registry.contentType }, text),
        (error: unknown) => {
          this.logger.error({ err: error }, 'could not collect metrics');
          refuse(problemFrom(error, path));
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(new Error(`cannot serve metrics on METRICS_PORT=${port} (${error.code ?? error.message})`)),
      );
      server.listen(port, () => resolve());
    });
    this.server = server;
    this.logger.log(`metrics on http://localhost:${port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
