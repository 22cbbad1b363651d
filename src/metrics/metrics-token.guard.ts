import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Unauthenticated } from '../common/errors/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Whether a request may read the metrics: always when no token is configured, else only with
 * `Authorization: Bearer <token>`. The comparison is of digests in constant time, so neither the token's characters
 * nor its length can be learnt from response times.
 */
export function mayReadMetrics(token: string | null, authorization: string | undefined): boolean {
  if (token === null) return true;
  const presented = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(presented), digest(token)) && presented !== '';
}

export const metricsRefusal = (): Unauthenticated =>
  new Unauthenticated('Send the metrics token (METRICS_TOKEN) as Authorization: Bearer <token>.');

/** Guards `GET /metrics` with METRICS_TOKEN when that is set (the route is public to the API's own auth). */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (!mayReadMetrics(this.config.metricsToken, request.headers.authorization)) throw metricsRefusal();
    return true;
  }
}
