import { HttpException, HttpStatus } from '@nestjs/common';
import { DomainError, PROBLEM_CODES, ProblemCode } from './domain-errors';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  [member: string]: unknown;
}

export interface ProblemResponse {
  status: number;
  headers: Record<string, string>;
  body: ProblemBody;
}

/**
 * HTTP exceptions raised by the framework rather than by our code. A bare 403 is not among them: every refusal here
 * is an InsufficientScope naming the missing scope, so a 403 without one would be a bug (answered as a 500).
 */
const CODE_BY_STATUS: Partial<Record<number, ProblemCode>> = {
  [HttpStatus.BAD_REQUEST]: 'validation_failed',
  [HttpStatus.UNAUTHORIZED]: 'unauthenticated',
  [HttpStatus.NOT_FOUND]: 'not_found',
  [HttpStatus.METHOD_NOT_ALLOWED]: 'not_found',
  [HttpStatus.CONFLICT]: 'conflict',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'payload_too_large',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'unsupported_media_type',
  [HttpStatus.TOO_MANY_REQUESTS]: 'rate_limited',
  [HttpStatus.SERVICE_UNAVAILABLE]: 'unavailable',
};

export function problem(
  code: ProblemCode,
  detail: string,
  instance: string,
  members: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): ProblemResponse {
  const { status, title } = PROBLEM_CODES[code];
  return {
    status,
    // RFC 9110: a 401 names how to authenticate.
    headers: status === 401 ? { 'WWW-Authenticate': 'Bearer', ...headers } : headers,
    body: { type: `urn:vigil:problem:${code}`, title, status, detail, instance, code, ...members },
  };
}

/** The error that express's body parser raises (it has a `type` and a `status`). */
function bodyParserErrorType(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const type = (error as { type?: unknown }).type;
  return typeof type === 'string' && type.includes('.') ? type : null;
}

/** Maps anything thrown while serving a request to an RFC 9457 problem. Never exposes internals. */
export function problemFrom(error: unknown, instance: string): ProblemResponse {
  if (error instanceof DomainError) {
    return problem(error.code, error.message, instance, error.members, error.headers);
  }
  switch (bodyParserErrorType(error)) {
    case 'entity.too.large': {
      // The parser's own limit: 1 MiB for JSON bodies, 10 KiB for a heartbeat ping's output.
      const limit = Number((error as { limit?: unknown }).limit ?? 1024 * 1024);
      const size = limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MiB` : `${limit / 1024} KiB`;
      return problem('payload_too_large', `The request body is larger than ${size}.`, instance);
    }
    case 'entity.parse.failed':
      return problem('validation_failed', 'The request body is not valid JSON.', instance, {
        errors: [{ field: 'body', message: 'must be valid JSON' }],
      });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return problem('unsupported_media_type', 'Send the body as UTF-8 JSON.', instance);
    default:
      break;
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = CODE_BY_STATUS[status];
    if (code) {
      const detail = status === 404 || status === 405 ? `No route matches ${instance}.` : error.message;
      // A 400 always says what was wrong, field by field.
      const members = code === 'validation_failed' ? { errors: [{ field: 'request', message: detail }] } : {};
      return problem(code, detail, instance, members);
    }
  }
  return problem('internal', 'Something went wrong on our side. It has been logged.', instance);
}
