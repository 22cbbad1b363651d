/**
 * Errors the services throw. Each carries a stable `code`; the problem-details filter maps codes to
 * HTTP statuses in one place, so services never speak HTTP.
 */
export const PROBLEM_CODES = {
  validation_failed: { status: 400, title: 'The request is invalid' },
  target_not_public: { status: 400, title: 'The target is not a public address' },
  unauthenticated: { status: 401, title: 'Authentication required' },
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
  not_found: { status: 404, title: 'Not found' },
  conflict: { status: 409, title: 'Conflict' },
  email_taken: { status: 409, title: 'The email address is already registered' },
  key_revoked: { status: 409, title: 'The API key is revoked' },
  key_expired: { status: 409, title: 'The API key has expired' },
  stale_revision: { status: 409, title: 'The revision is stale' },
  release_check_incomplete: { status: 409, title: 'The release check is incomplete' },
  collection_in_progress: { status: 409, title: 'Evidence is still being collected' },
  already_reviewed: { status: 409, title: 'This revision has been reviewed' },
  reviewer_not_distinct: { status: 409, title: 'A second person must review this check' },
  review_incomplete: { status: 409, title: 'Pairs with differences are still undecided' },
  pairs_rejected: { status: 409, title: 'A pair of this revision is rejected' },
  pair_has_no_differences: { status: 409, title: 'This pair has no differences to decide' },
  last_admin: { status: 409, title: 'A workspace needs an admin' },
  already_member: { status: 409, title: 'The person is a member already' },
  scan_not_completed: { status: 409, title: 'The scan is not completed' },
  crawl_finished: { status: 409, title: 'The crawl has ended' },
  plan_limit_reached: { status: 409, title: "The plan's limit is reached" },
  slug_taken: { status: 409, title: 'The slug is taken' },
  incident_resolved: { status: 409, title: 'The incident is resolved' },
  run_not_ready: { status: 409, title: 'The run is not ready' },
  idempotency_key_in_flight: { status: 409, title: 'A request with this Idempotency-Key is still running' },
  no_page: { status: 409, title: 'The monitor has no page' },
  not_a_heartbeat: { status: 409, title: 'The monitor is not a heartbeat monitor' },
  maintenance_not_active: { status: 409, title: 'The maintenance window is not active' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  request_key_reused: { status: 422, title: 'The request key was used for a different request' },
  idempotency_key_reused: { status: 422, title: 'The Idempotency-Key was used for a different request' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal: { status: 500, title: 'Internal server error' },
  unavailable: { status: 503, title: 'Service unavailable' },
  check_timed_out: { status: 503, title: 'The check did not finish in time' },
  plan_stale: { status: 409, title: 'The workspace changed since the plan' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ProblemCode,
    message: string,
    /** Extra problem members, such as `required_scope` or `errors`. */
    readonly members: Record<string, unknown> = {},
    /** Extra response headers, such as `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationFailed extends DomainError {
  constructor(readonly errors: FieldError[]) {
    super('validation_failed', errors.map((error) => `${error.field}: ${error.message}`).join('; '), { errors });
  }

  static field(field: string, message: string): ValidationFailed {
    return new ValidationFailed([{ field, message }]);
  }
}

export class Unauthenticated extends DomainError {
  constructor(message = 'Send a valid API key in X-API-Key, or a session token as Authorization: Bearer.') {
    super('unauthenticated', message, {}, { 'WWW-Authenticate': 'Bearer' });
  }
}

export class InsufficientScope extends DomainError {
  constructor(
    readonly requiredScope: string,
    message?: string,
  ) {
    super('insufficient_scope', message ?? `These credentials lack the scope ${requiredScope}.`, {
      required_scope: requiredScope,
    });
  }
}

export class NotFound extends DomainError {
  constructor(what: string, detail = `${what} not found.`) {
    super('not_found', detail);
  }
}

export class RateLimited extends DomainError {
  constructor(retryAfterSeconds: number) {
    super(
      'rate_limited',
      `Rate limit reached; retry in ${retryAfterSeconds} s.`,
      {},
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
