import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Observable, tap } from 'rxjs';
import { type Page, setLinkHeader } from './pagination';

function isPage(body: unknown): body is Page<unknown> {
  return (
    typeof body === 'object' && body !== null && Array.isArray((body as Page<unknown>).data) && 'pagination' in body
  );
}

/** Adds the `Link` header to every paginated list, so list controllers only return the page. */
@Injectable()
export class LinkHeaderInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    return next.handle().pipe(
      tap((body) => {
        if (isPage(body)) setLinkHeader(http.getRequest<Request>(), http.getResponse<Response>(), body);
      }),
    );
  }
}
