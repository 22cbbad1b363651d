import type { Logger } from '@nestjs/common';
import type { Job, Queue } from 'bull';

/**
 * Starts taking `jobName` jobs from `queue`, `concurrency` at a time, until the queue closes; `what` names them in
 * the log ("monitor checks in eu-west").
 *
 * Bull's `process()` also names the worker's blocking Redis connection (CLIENT SETNAME, for CLIENT LIST) and drops
 * that command's promise: when the connection closes before Redis answers (a shutdown just after start, Redis gone),
 * the "Connection is closed." rejection is unhandled, and an unhandled rejection ends a Node process. The name only
 * labels the connection, so a failure to set it is logged and nothing else.
 */
export function takeJobs<T>(
  queue: Queue,
  jobName: string,
  concurrency: number,
  run: (data: T) => Promise<unknown>,
  logger: Logger,
  what: string,
): void {
  const nameConnection = queue.setWorkerName.bind(queue);
  queue.setWorkerName = () =>
    nameConnection().catch((error: unknown) =>
      logger.debug({ err: error }, `the Redis connection for ${what} was not named`),
    );
  queue
    .process(jobName, concurrency, (job: Job) => run(job.data as T))
    .catch((error: unknown) => logger.warn({ err: error }, `${what} stopped`));
}
