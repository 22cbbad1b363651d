import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { projectRoot } from '../openapi/contract';

/** Paths the web interface never answers: the API, its docs, downloads, public status pages and operations endpoints. */
const NOT_THE_INTERFACE = /^\/(api|docs|downloads|health|metrics|status)(\/|$)/;

export interface WebInterfaceOptions {
  /**
   * Send `Strict-Transport-Security`. Only right when the interface is reached over https, which the service cannot
   * tell from behind a proxy: PUBLIC_URL says so.
   */
  hsts?: boolean;
}

/**
 * The security headers of every interface response (index.html, its assets, the fallback for deep links): a strict
 * Content-Security-Policy (scripts and styles only from the service itself, no inline script, no framing), no
 * framing for older browsers either, no MIME sniffing, no referrer. Screenshots are shown through blob: URLs.
 */
export function webInterfaceHeaders(options: WebInterfaceOptions = {}): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'blob:', 'data:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    noSniff: true,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}

/**
 * Serves the web interface (the SPA built into web/dist by `npm run build`) at `/`: its files as they are, and
 * index.html for any other page path, so links such as /release-checks/<id> open the right screen.
 */
export function serveWebInterface(app: NestExpressApplication, options: WebInterfaceOptions = {}): void {
  const root = join(projectRoot(), 'web', 'dist');
  const index = join(root, 'index.html');
  const headers = webInterfaceHeaders(options);
  // The API and the docs set their own headers; everything else is the interface.
  app.use((request: Request, response: Response, next: NextFunction) =>
    NOT_THE_INTERFACE.test(request.path) ? next() : headers(request, response, next),
  );
  // Built file names carry a content hash, so they may be cached for long; index.html must not be. API requests skip
  // the file lookup: a stat of the disk for every ping or API call was a tenth of the API's time.
  const assets: RequestHandler = express.static(root, { index: false, immutable: true, maxAge: '365d' });
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (NOT_THE_INTERFACE.test(request.path)) next();
    else void assets(request, response, next);
  });
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' || NOT_THE_INTERFACE.test(request.path)) return next();
    if (!existsSync(index)) {
      response.status(503).type('text/plain').send('The web interface is not built: run `npm run build`.\n');
      return;
    }
    response.setHeader('Cache-Control', 'no-cache');
    response.sendFile(index);
  });
}
