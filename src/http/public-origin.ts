import { createParamDecorator, type ExecutionContext, Inject, Injectable, type PipeTransform } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * The origin the service's absolute URLs start with (`https://vigil.example.com`): PUBLIC_URL's when it is set,
 * since behind a proxy the Host header is whatever the client sent; else the one the request came to.
 */
export function publicOrigin(config: Pick<AppConfig, 'publicUrl'>, request: Request): string {
  return config.publicUrl ?? `${request.protocol}://${request.get('host') ?? 'localhost'}`;
}

@Injectable()
export class PublicOriginPipe implements PipeTransform<Request, string> {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  transform(request: Request): string {
    return publicOrigin(this.config, request);
  }
}

const CurrentRequest = createParamDecorator((_data: unknown, context: ExecutionContext): Request =>
  context.switchToHttp().getRequest<Request>(),
);

/** A handler's parameter: the origin its answer's absolute URLs start with (`publicOrigin`). */
export const PublicOrigin = (): ParameterDecorator => CurrentRequest(PublicOriginPipe);
