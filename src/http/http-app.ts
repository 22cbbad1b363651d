import type { Server } from 'node:http';
import { RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import express from 'express';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../app.module';
import { ProblemDetailsFilter, problemErrorMiddleware } from '../common/errors/problem-details.filter';
import { createValidationPipe } from '../common/validation/validation.pipe';
import { YAML_MEDIA_TYPES } from '../declarations/declaration-request';
import type { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { loadContract } from '../openapi/contract';
import { requestIdMiddleware } from './request-id.middleware';
import { API_PREFIX, versionAliasMiddleware } from './version-alias.middleware';
import { serveWebInterface } from './web-interface';

export const BODY_LIMIT = '1mb';
/** A declaration of thousands of monitors is one document: about 250 bytes a monitor with its rule. */
export const DECLARATION_BODY_LIMIT = '16mb';
const PING_BODY_LIMIT = '10kb';

/** Everything about the HTTP surface that is not a route: prefix, parsing, validation, errors, docs. */
export function configureHttpApp(app: NestExpressApplication, config: AppConfig): void {
  app.disable('x-powered-by');
  app.use(requestIdMiddleware);
  app.use(app.get(MetricsService).middleware);
  app.use(versionAliasMiddleware);
  // A heartbeat ping's body is a job's output, of any type, kept as text (before the JSON parser takes JSON ones).
  app.use(`${API_PREFIX}/ping`, express.text({ limit: PING_BODY_LIMIT, type: () => true }));
  app.use(
    `${API_PREFIX}/workspaces/:id/declaration`,
    express.json({ limit: DECLARATION_BODY_LIMIT, type: ['application/json', 'application/*+json'] }),
    // DESIGN's declaration wire also takes the document as YAML (parsed by the route, `DeclarationRequest`).
    express.text({ limit: DECLARATION_BODY_LIMIT, type: YAML_MEDIA_TYPES }),
  );
  app.use(express.json({ limit: BODY_LIMIT, type: ['application/json', 'application/*+json'] }));
  // The status site's forms (subscribe, confirm, RFC 8058's one-click unsubscribe) post form-encoded fields.
  app.use('/status', express.urlencoded({ extended: false, limit: '4kb' }));
  app.use(problemErrorMiddleware);
  serveWebInterface(app, { hsts: config.publicUrl?.startsWith('https:') ?? false });
  app.setGlobalPrefix('api/v1', {
    exclude: [
      { path: 'health', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
      { path: 'metrics', method: RequestMethod.GET },
      { path: 'downloads/vigil-gate.tgz', method: RequestMethod.GET },
      { path: 'status/-/status.css', method: RequestMethod.GET },
      { path: 'status/:slug', method: RequestMethod.GET },
      { path: 'status/:slug/feed.atom', method: RequestMethod.GET },
      { path: 'status/:slug/subscribe', method: RequestMethod.POST },
      { path: 'status/:slug/confirm', method: RequestMethod.ALL },
      { path: 'status/:slug/unsubscribe', method: RequestMethod.ALL },
    ],
  });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ProblemDetailsFilter());
  // The docs show openapi.yaml as written: the contract, not what the code happens to generate.
  SwaggerModule.setup('docs', app, loadContract().document as unknown as OpenAPIObject, {
    customSiteTitle: 'Vigil API',
    raw: false,
  });
  app.enableShutdownHooks();
}

export async function createHttpApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  configureHttpApp(app, config);
  const server: Server = app.getHttpServer();
  server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
  server.headersTimeout = config.http.headersTimeoutMs;
  await app.init();
  return app;
}
