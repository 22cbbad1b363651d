import { createVigilClient, type Schemas } from '../api-client';
import { serviceRoot } from './base-url';
import { type CheckView, type CollectionStatus, type Gate, parseCheck, printable, type Summary } from './check';
import { annotation } from './github-actions';
import { describeError, describeProblem, isAbort } from './problem';

/** Only `passed` (0) means the release may go. */
export const EXIT_CODES = { passed: 0, failed: 1, deadline: 2, requestFailure: 3, usage: 4 } as const;

export interface GateOptions {
  /**
   * The service's address as `--base-url` takes it: its origin (plus the path it is served under, if any), or that
   * followed by `/api/v1`, e.g. `https://vigil.example.com` or `https://vigil.example.com/api/v1`.
   */
  baseUrl: string;
  apiKey: string;
  /** The CreateReleaseCheckRequest body; the service validates it. */
  request: Schemas['CreateReleaseCheckRequest'];
  /** Total deadline, from the start. */
  timeoutSeconds: number;
  /** Bound on each HTTP request (also cut short by the deadline). */
  requestTimeoutSeconds: number;
  pollIntervalSeconds: number;
  /** Standard output is only the result line (GateResult as JSON); the log goes to standard error. */
  json?: boolean;
  /** Annotate the run with `::notice::`/`::error::` workflow commands (on standard error). */
  githubActions?: boolean;
}

/** The `--json` result line: what a CI step needs to go on (null before a check exists). */
export interface GateResult {
  id: string | null;
  revision: number | null;
  gate: Gate | null;
  collection_status: CollectionStatus | null;
  /** Absolute: the service's root and the check's review page. */
  review_url: string | null;
  /** The revision's counts: pairs, differences, what moves on its own, and the pairs still awaiting a decision. */
  summary: Summary | null;
  exit_code: number;
}

export interface GateIO {
  /** Writes one line (no newline included) to standard output; must not buffer. */
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** The transport under the bounded fetch; the global fetch by default. */
  fetch?: typeof fetch;
}

/** What one HTTP exchange amounted to. */
type Outcome =
  | { kind: 'check'; check: CheckView }
  | { kind: 'rate-limited'; waitMs: number }
  | { kind: 'transient'; reason: string }
  | { kind: 'fatal'; reason: string }
  | { kind: 'deadline' };

interface Exchange {
  data?: string;
  error?: unknown;
  response: Response;
}

/**
 * Submits a release check and polls it until the gate is decided or the deadline passes. Returns the exit code:
 * 0 passed; 1 failed; 2 deadline passed with the gate pending; 3 request failure or malformed response; 4 a base
 * URL that is not one.
 */
export async function runGate(options: GateOptions, io: GateIO): Promise<number> {
  const root = serviceRoot(options.baseUrl);
  if (!root.ok) {
    io.stderr(`vigil-gate: ${root.message}`);
    return EXIT_CODES.usage;
  }
  const run = new GateRun(options, root.root, io);
  let code: number;
  try {
    code = await run.run();
  } catch (error) {
    // A bug here must never look like a passed gate.
    code = run.fail(`unexpected error: ${describeError(error)}`);
  }
  run.conclude(code);
  return code;
}

class GateRun {
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly deadline: number;
  private readonly pollMs: number;
  private readonly requestTimeoutMs: number;
  /** Whether the current request's bound is the deadline rather than --request-timeout. */
  private boundByDeadline = false;
  private failures = 0;
  /** The check as last seen, for the result line and the annotation. */
  private latest: CheckView | null = null;
  /** Why the gate ends in a request failure (exit 3), for the annotation. */
  private problem: string | null = null;

  constructor(
    private readonly options: GateOptions,
    /** The service's root: the API is under `/api/v1`, review links are relative to it. */
    private readonly root: string,
    private readonly io: GateIO,
  ) {
    this.now = io.now ?? Date.now;
    this.sleep = io.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    this.deadline = this.now() + options.timeoutSeconds * 1000;
    this.pollMs = options.pollIntervalSeconds * 1000;
    this.requestTimeoutMs = options.requestTimeoutSeconds * 1000;
  }

  async run(): Promise<number> {
    const transport = this.io.fetch ?? globalThis.fetch;
    const bounded = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const limit = Math.min(this.requestTimeoutMs, Math.max(this.remaining(), 1));
      this.boundByDeadline = limit < this.requestTimeoutMs;
      // Redirects are not followed: the API key would travel to wherever the redirect points.
      return transport(input, { ...init, signal: AbortSignal.timeout(limit), redirect: 'manual' });
    };
    const client = createVigilClient({ baseUrl: this.root, apiKey: this.options.apiKey, fetch: bounded });

    const created = await this.submit(() =>
      client.POST('/release-checks', { body: this.options.request, parseAs: 'text' }),
    );
    if (typeof created === 'number') return created;
    this.latest = created;
    this.say(`release check: ${created.id}`);
    return this.poll(created, () =>
      client.GET('/release-checks/{id}', { params: { path: { id: created.id } }, parseAs: 'text' }),
    );
  }

  /** POST until it answers; request_key makes a retry after a transient failure safe. */
  private async submit(post: () => Promise<Exchange>): Promise<CheckView | number> {
    const label = 'POST /release-checks';
    for (;;) {
      if (this.remaining() <= 0) {
        return this.fail(
          `the deadline of ${this.options.timeoutSeconds} s passed before the release check was ` +
            `created (${this.failures} failed attempts)`,
        );
      }
      const outcome = await this.exchange(label, post, [200, 201]);
      switch (outcome.kind) {
        case 'check':
          return outcome.check;
        case 'fatal':
          return this.fail(outcome.reason);
        case 'rate-limited':
          await this.wait(outcome.waitMs);
          break;
        case 'transient':
          this.failures += 1;
          this.io.stderr(`vigil-gate: ${outcome.reason}; retrying`);
          await this.wait(this.pollMs);
          break;
        case 'deadline':
          break;
      }
    }
  }

  private async poll(created: CheckView, get: () => Promise<Exchange>): Promise<number> {
    const label = `GET /release-checks/${created.id}`;
    let check = created;
    let lastError: string | null = null;
    let delay = this.pollMs;
    while (check.gate === 'pending') {
      if (this.remaining() <= 0) return this.timedOut(check, lastError);
      await this.wait(delay);
      if (this.remaining() <= 0) return this.timedOut(check, lastError);
      const outcome = await this.exchange(label, get, [200]);
      delay = this.pollMs;
      switch (outcome.kind) {
        case 'check':
          if (outcome.check.id !== created.id) {
            return this.fail(`malformed response from ${label}: it describes check ${printable(outcome.check.id, 80)}`);
          }
          if (outcome.check.revision !== check.revision) {
            this.io.stderr(`vigil-gate: the check was rerun: revision ${check.revision} → ${outcome.check.revision}`);
          }
          check = outcome.check;
          this.latest = check;
          lastError = null;
          break;
        case 'fatal':
          this.fail(outcome.reason);
          this.report(check);
          return EXIT_CODES.requestFailure;
        case 'rate-limited':
          // An answer, not a failure: the service is up and asks us to slow down.
          delay = outcome.waitMs;
          lastError = null;
          break;
        case 'transient':
          this.failures += 1;
          lastError = outcome.reason;
          this.io.stderr(`vigil-gate: ${outcome.reason}; retrying`);
          break;
        case 'deadline':
          break;
      }
    }
    this.report(check);
    return check.gate === 'passed' ? EXIT_CODES.passed : EXIT_CODES.failed;
  }

  private timedOut(check: CheckView, lastError: string | null): number {
    const waited = `the deadline of ${this.options.timeoutSeconds} s passed`;
    if (lastError) {
      this.fail(`${waited}; the last poll failed: ${lastError} (${this.failures} failed requests)`);
    } else {
      this.io.stderr(
        `vigil-gate: ${waited} with the gate still ${check.gate}; a person can review revision ` +
          `${check.revision} at the review page (${this.failures} failed requests)`,
      );
    }
    this.report(check);
    return lastError ? EXIT_CODES.requestFailure : EXIT_CODES.deadline;
  }

  /** The outcome, for the CI log: gate, revision (record it with any approval), evidence and the review page. */
  private report(check: CheckView): void {
    const { summary, review } = check;
    this.say(`gate: ${check.gate}`);
    this.say(`revision: ${check.revision}`);
    this.say(
      `collection: ${check.collectionStatus} (pairs: ${summary.pairs}, captured: ${summary.captured}, ` +
        `missing: ${summary.missing}, with differences: ${summary.with_differences}, ` +
        `moving on their own: ${summary.unstable}, new findings: ${summary.new_findings})`,
    );
    if (check.gate === 'pending' && check.collectionStatus === 'completed') {
      const waiting = summary.awaiting_decision;
      this.say(
        waiting > 0
          ? `${waiting} of ${summary.with_differences} pair(s) with differences await a decision at ${this.reviewPage(check)}`
          : `every pair with differences is decided; the review awaits submission at ${this.reviewPage(check)}`,
      );
    }
    if (review) {
      // The status says the decision (approved/rejected); who decided which revision goes with it.
      const decided = review.reviewer
        ? ` by ${printable(review.reviewer, 200)} at revision ${review.revision ?? '?'}`
        : '';
      this.say(`review: ${printable(review.status, 40)}${decided}`);
    }
    this.say(`review page: ${this.reviewPage(check)}`);
  }

  /** A line of the log: standard output, or standard error when standard output is the JSON result. */
  private say(line: string): void {
    if (this.options.json) this.io.stderr(line);
    else this.io.stdout(line);
  }

  private reviewPage(check: CheckView): string {
    return `${this.root}${check.reviewUrl}`;
  }

  /** Records why the gate could not be decided and logs it; returns exit 3. */
  fail(reason: string): number {
    this.problem = reason;
    this.io.stderr(`vigil-gate: ${reason}`);
    return EXIT_CODES.requestFailure;
  }

  /** The end of a run: the JSON result line (--json) and the annotation (GitHub Actions). Never throws. */
  conclude(code: number): void {
    const check = this.latest;
    if (this.options.githubActions) {
      const [kind, message] = this.verdict(code, check);
      this.io.stderr(annotation(kind, message));
    }
    if (this.options.json) {
      const result: GateResult = {
        id: check?.id ?? null,
        revision: check?.revision ?? null,
        gate: check?.gate ?? null,
        collection_status: check?.collectionStatus ?? null,
        review_url: check ? this.reviewPage(check) : null,
        summary: check?.summary ?? null,
        exit_code: code,
      };
      this.io.stdout(JSON.stringify(result));
    }
  }

  /** The annotation: a notice only when the release may go, an error otherwise. */
  private verdict(code: number, check: CheckView | null): ['notice' | 'error', string] {
    const which = check ? `release check ${check.id}, revision ${check.revision}` : 'no release check was created';
    const page = check ? ` Review page: ${this.reviewPage(check)}` : '';
    const reviewer = check?.review?.reviewer ? ` by ${printable(check.review.reviewer, 200)}` : '';
    if (code === EXIT_CODES.passed) return ['notice', `Passed: ${which}, approved${reviewer}.${page}`];
    if (code === EXIT_CODES.deadline) {
      return ['error', `Still pending after ${this.options.timeoutSeconds} s: a person has to review ${which}.${page}`];
    }
    if (code === EXIT_CODES.failed && check) {
      const { summary, review } = check;
      const decision = review ? `; review: ${printable(review.status, 40)}${reviewer}` : '';
      return [
        'error',
        `Failed: ${which}: collection ${check.collectionStatus} (missing: ${summary.missing}, with differences: ` +
          `${summary.with_differences}, new findings: ${summary.new_findings})${decision}.${page}`,
      ];
    }
    return ['error', `Not decided: ${this.problem ?? 'a request failed'}; ${which}.${page}`];
  }

  /** One request, classified. Each is bounded by --request-timeout and by the deadline. */
  private async exchange(label: string, send: () => Promise<Exchange>, expected: number[]): Promise<Outcome> {
    const started = this.now();
    let result: Exchange;
    try {
      result = await send();
    } catch (error) {
      if (isAbort(error)) {
        if (this.boundByDeadline) return { kind: 'deadline' };
        return { kind: 'transient', reason: `${label}: no answer within ${this.options.requestTimeoutSeconds} s` };
      }
      return { kind: 'transient', reason: `${label} failed: ${describeError(error)}` };
    }
    const { response } = result;
    const status = response.status;
    if (expected.includes(status)) {
      const parsed = parseCheck(result.data);
      if (parsed.ok) return { kind: 'check', check: parsed.check };
      return { kind: 'fatal', reason: `malformed response from ${label} (${status}): ${parsed.reason}` };
    }
    if (status === 429) {
      const asked = retryAfterMs(response.headers.get('Retry-After'), this.now()) ?? this.pollMs;
      // A floor against a busy loop on `Retry-After: 0`; the deadline caps the wait either way.
      const waitMs = Math.min(Math.max(asked, 250), Math.max(this.remaining(), 0));
      this.io.stderr(`vigil-gate: ${label} was rate limited; retrying in ${Math.ceil(waitMs / 1000)} s`);
      return { kind: 'rate-limited', waitMs };
    }
    if (status >= 500 || status === 408) {
      const problem = describeProblem(result.error);
      return { kind: 'transient', reason: `${label} answered ${status}${problem} after ${this.now() - started} ms` };
    }
    if (status >= 300 && status < 400) {
      const location = printable(response.headers.get('Location') ?? '', 200);
      return {
        kind: 'fatal',
        reason: `${label} answered a redirect (${status} to ${location || '?'}); pass the service's address as --base-url`,
      };
    }
    return { kind: 'fatal', reason: `${label} answered ${status}${describeProblem(result.error)}` };
  }

  private remaining(): number {
    return this.deadline - this.now();
  }

  private async wait(ms: number): Promise<void> {
    const bounded = Math.min(ms, this.remaining());
    if (bounded > 0) await this.sleep(bounded);
  }
}

/** Retry-After as delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
