import type { NextFunction, Request, Response } from 'express';

export const API_PREFIX = '/api/v1';

/**
 * `/api/<path>` is a deprecated alias of `/api/v1/<path>`: the request is served by the v1 route, and the
 * response says so with `Deprecation` and a `successor-version` link.
 */
export function versionAliasMiddleware(request: Request, response: Response, next: NextFunction): void {
  const url = request.url;
  if (url.startsWith('/api/') && !url.startsWith(`${API_PREFIX}/`) && !/^\/api\/v1(\?|$)/.test(url)) {
    request.url = `${API_PREFIX}${url.slice('/api'.length)}`;
    const successor = request.url.split('?')[0];
    response.setHeader('Deprecation', 'true');
    response.setHeader('Link', `<${successor}>; rel="successor-version"`);
  }
  next();
}
