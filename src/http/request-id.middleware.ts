import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/** Echoes a caller's X-Request-Id (when sane) or a new UUID, and keeps it on the request for the logs. */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && ACCEPTABLE_ID.test(incoming) ? incoming : randomUUID();
  (request as Request & { id: string }).id = id;
  response.setHeader('X-Request-Id', id);
  next();
}
