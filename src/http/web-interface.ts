import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { projectRoot } from '../openapi/contract';

/** Paths the web interface never answers: the API, its docs, and the operations endpoints. */
const NOT_THE_INTERFACE = /^\/(api|docs|health|metrics)(\/|$)/;

/**
 * Serves the web interface (the SPA built into web/dist by `npm run build`) at `/`: its files as they are, and
 * index.html for any other page path, so links such as /release-checks/<id> open the right screen.
 */
export function serveWebInterface(app: NestExpressApplication): void {
  const root = join(projectRoot(), 'web', 'dist');
  const index = join(root, 'index.html');
  // Built file names carry a content hash, so they may be cached for long; index.html must not be.
  app.useStaticAssets(root, { index: false, immutable: true, maxAge: '365d' });
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
