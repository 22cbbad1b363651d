/**
 * How long work whose result is in hand waits for PostgreSQL to come back before it fails: longer than a restart or
 * a failover takes, short enough that a database gone for good fails the job visibly.
 */
export const DATABASE_OUTAGE_WAIT_MS = 60_000;
const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 2000;

/** Socket errors of a server that is not there, or went away mid-conversation. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** SQLSTATEs of a server stopping or starting: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SHUTTING_DOWN = new Set(['57P01', '57P02', '57P03']);
/** node-postgres says these without a code when the connection ends under a query or cannot be made in time. */
const CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * Whether an error says the database could not be reached (stopped, restarting, failing over), rather than that the
 * statement failed: only then may the same work simply be tried again. MikroORM's DriverException keeps the driver's
 * `code`; a cause chain is followed too.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // Duck-typed, not `instanceof Error`: socket errors can come from another realm (a VM context, a worker thread).
  let current = error;
  for (let depth = 0; typeof current === 'object' && current !== null && depth < 5; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNREACHABLE.has(code) || SHUTTING_DOWN.has(code) || code.startsWith('08'))) {
      return true;
    }
    if (typeof message === 'string' && CONNECTION_LOST.test(message)) return true;
    current = cause;
  }
  return false;
}

/**
 * Runs database work, and runs it again while PostgreSQL is unreachable (with growing pauses, for up to `waitMs`),
 * so work whose costly part is done (a check's request, a capture's render) is recorded once the database is back
 * instead of failing its job: a job's own retries are few and quick, and a check job that spends them loses its
 * slot for good. The work must be safe to repeat: a commit whose answer was lost may have gone through, so each
 * use re-reads what is recorded (under a row lock) before writing. Any other error is thrown at once.
 */
export async function whenDatabaseAnswers<T>(
  work: () => Promise<T>,
  options: { waitMs?: number; onWait?: (error: unknown) => void } = {},
): Promise<T> {
  const deadline = Date.now() + (options.waitMs ?? DATABASE_OUTAGE_WAIT_MS);
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + pause > deadline) throw error;
      // Told once, when the waiting begins.
      if (pause === FIRST_PAUSE_MS) options.onWait?.(error);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
