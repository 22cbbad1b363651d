import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ProblemResponse, problemFrom } from './problem-details';

export function sendProblem(response: Response, { status, headers, body }: ProblemResponse): void {
  if (response.headersSent) return;
  response.status(status).set(headers).type('application/problem+json').send(JSON.stringify(body));
}

function pathOf(request: Request): string {
  return request.originalUrl.split('?')[0];
}

/** The one place where errors become HTTP responses. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Problem');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const problem = problemFrom(exception, pathOf(request));
    if (problem.status >= 500) {
      this.logger.error({ err: exception, path: problem.body.instance }, 'request failed');
    }
    sendProblem(http.getResponse<Response>(), problem);
  }
}

/** The same mapping for errors raised by express middleware before Nest routes the request (body parsing). */
export function problemErrorMiddleware(error: unknown, request: Request, response: Response, next: NextFunction): void {
  if (response.headersSent) return next(error);
  sendProblem(response, problemFrom(error, pathOf(request)));
}
