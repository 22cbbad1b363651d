import { createHash, hkdfSync } from 'node:crypto';
import { openText, sealText } from '../secrets/sealed-text';
import { ValidationFailed } from '../errors/domain-errors';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Printable ASCII (space to `~`): what an HTTP header carries faithfully. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]+$';
const PRINTABLE = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The header's value as a key, or a 400 naming the header. */
export function parseIdempotencyKey(value: string | string[]): string {
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !PRINTABLE.test(key)) {
    throw ValidationFailed.field(
      IDEMPOTENCY_HEADER,
      `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
    );
  }
  return key;
}

/** JSON with every object's keys sorted, so equal values give equal text whatever order a client sent. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Where a key applies: one workspace (or none), one credential, one method and route. */
export interface IdempotencyScope {
  workspaceId: string | null;
  /** `key:<id>` for an API key, `user:<id>` for a person's session. */
  credential: string;
  method: string;
  /** The route's template, e.g. `/api/v1/monitors/:id/rules`; its parameters are part of the request instead. */
  route: string;
  key: string;
}

export function scopeHash(scope: IdempotencyScope): string {
  return sha256(
    [scope.workspaceId ?? '-', scope.credential, scope.method.toUpperCase(), scope.route, scope.key].join('\n'),
  );
}

/** What a repeat is compared by: path parameters, query and body, as canonical JSON. */
export function requestHash(request: { params: unknown; query: unknown; body: unknown }): string {
  return sha256(canonicalJson({ params: request.params, query: request.query, body: request.body ?? null }));
}

/** The answer replayed to a repeat. */
export interface StoredAnswer {
  status: number;
  /** The JSON text first sent, or null for an empty body. */
  body: string | null;
  location: string | null;
}

/**
 * The stored answer is encrypted with a key derived from the Idempotency-Key, which the table holds only inside a
 * SHA-256: reading the table alone never reveals a secret that an answer showed once.
 */
function cipherKey(scope: IdempotencyScope): Buffer {
  return Buffer.from(hkdfSync('sha256', scope.key, scopeHash(scope), 'vigil idempotent answer', 32));
}

export function sealAnswer(scope: IdempotencyScope, answer: Omit<StoredAnswer, 'status'>): string {
  return sealText(cipherKey(scope), JSON.stringify(answer));
}

export function openAnswer(scope: IdempotencyScope, sealed: string): Omit<StoredAnswer, 'status'> {
  return JSON.parse(openText(cipherKey(scope), sealed)) as Omit<StoredAnswer, 'status'>;
}
