let stopping = false;

/** The application has begun closing (set by AppModule's onModuleDestroy, the first of Nest's shutdown hooks). */
export function markStopping(): void {
  stopping = true;
}

/**
 * Bull can leave a Redis command's "Connection is closed." rejection unhandled when its queues close while they are
 * still starting (a SIGTERM just after start-up). Once the application is closing that is expected and harmless: it
 * is logged, and the shutdown goes on to close the browser and the database and to exit by its signal. Any other
 * unhandled rejection still ends the process, as Node does by default.
 */
export function tolerateClosedConnectionsWhileStopping(warn: (message: string) => void): void {
  process.on('unhandledRejection', (reason: unknown) => settleUnhandledRejection(reason, warn));
}

/** Logs the rejection when it is tolerated; throws it otherwise, which ends the process as Node's default would. */
export function settleUnhandledRejection(reason: unknown, warn: (message: string) => void): void {
  if (stopping && reason instanceof Error && reason.message === 'Connection is closed.') {
    warn('a Redis command was cut off by the shutdown (Connection is closed.)');
    return;
  }
  throw reason;
}
