import type { Schemas } from '../api-client';

export type Gate = Schemas['Gate'];
export type CollectionStatus = Schemas['CollectionStatus'];
export type Summary = Schemas['ReleaseCheckSummary'];

const GATES: readonly Gate[] = ['pending', 'passed', 'failed'];
const COLLECTION_STATUSES: readonly CollectionStatus[] = ['queued', 'running', 'completed', 'incomplete'];
const SUMMARY_COUNTS = [
  'pairs',
  'captured',
  'missing',
  'with_differences',
  'unstable',
  'awaiting_decision',
  'new_findings',
] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The part of a release check the gate relies on, validated at runtime (the TS types do not check JSON). */
export interface CheckView {
  id: string;
  gate: Gate;
  revision: number;
  collectionStatus: CollectionStatus;
  /** Relative to the service's origin. */
  reviewUrl: string;
  summary: Summary;
  /** Best effort, for the log only: who decided which revision. */
  review: { status: string; reviewer: string | null; revision: number | null } | null;
}

export type Parsed = { ok: true; check: CheckView } | { ok: false; reason: string };

/** Parses and validates a response body; anything the contract does not promise is a malformed response. */
export function parseCheck(text: string | undefined): Parsed {
  if (text === undefined || text.trim() === '') return { ok: false, reason: 'empty body' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, reason: `not JSON: ${printable(text, 80)}` };
  }
  if (!isRecord(body)) return { ok: false, reason: 'not a JSON object' };

  const { id, gate, revision, collection_status: collectionStatus, review_url: reviewUrl, summary } = body;
  // The id goes into CI logs and annotations: a UUID, as the contract promises, cannot break a line there.
  if (typeof id !== 'string' || !UUID.test(id)) return { ok: false, reason: '`id` is not a UUID' };
  if (!GATES.includes(gate as Gate)) return { ok: false, reason: `\`gate\` is not one of ${GATES.join('|')}` };
  if (!Number.isInteger(revision) || (revision as number) < 1) {
    return { ok: false, reason: '`revision` is not a positive integer' };
  }
  if (!COLLECTION_STATUSES.includes(collectionStatus as CollectionStatus)) {
    return { ok: false, reason: `\`collection_status\` is not one of ${COLLECTION_STATUSES.join('|')}` };
  }
  // A link that leaves the service's origin (absolute or protocol-relative) is not something to print as ours, and
  // one with spaces or control characters could break a log line: a path of visible ASCII (URLs percent-encode).
  if (typeof reviewUrl !== 'string' || !/^\/(?!\/)[!-~]*$/.test(reviewUrl)) {
    return { ok: false, reason: '`review_url` is not a path on the service' };
  }
  if (!isRecord(summary) || !SUMMARY_COUNTS.every((key) => isCount(summary[key]))) {
    return { ok: false, reason: '`summary` lacks its counts' };
  }
  // The service passes a gate only on approved, complete evidence; anything else must not let a release go.
  if (gate === 'passed' && collectionStatus !== 'completed') {
    return { ok: false, reason: `\`gate\` is passed but \`collection_status\` is ${String(collectionStatus)}` };
  }

  return {
    ok: true,
    check: {
      id,
      gate: gate as Gate,
      revision: revision as number,
      collectionStatus: collectionStatus as CollectionStatus,
      reviewUrl,
      summary: Object.fromEntries(SUMMARY_COUNTS.map((key) => [key, summary[key]])) as unknown as Summary,
      review: parseReview(body.review),
    },
  };
}

function parseReview(review: unknown): CheckView['review'] {
  if (!isRecord(review) || typeof review.status !== 'string') return null;
  const decision = isRecord(review.decision) ? review.decision : null;
  const reviewer = decision && isRecord(decision.reviewer) ? decision.reviewer : null;
  return {
    status: review.status,
    reviewer: reviewer && typeof reviewer.email === 'string' ? reviewer.email : null,
    revision: decision && Number.isInteger(decision.revision) ? (decision.revision as number) : null,
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 0;
}

/** Server-supplied text on one line, without control characters (no terminal escapes in CI logs), bounded. */
export function printable(text: string, max = 300): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
