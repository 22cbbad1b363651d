import type { Logger } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { failedForGood } from './jobs';
import { takeJobs } from './take-jobs';

/** Work whose progress lives in the database: any worker can run it again, or resume it, from what is recorded. */
export interface ResumableWork<T> {
  /** What the log calls it: "accessibility scan", "crawl". */
  label: string;
  jobName: string;
  concurrency: number;
  run(data: T): Promise<void>;
  /** Ends the work as failed once its job has failed for good. */
  recordFailure(data: T): Promise<void>;
  /** Re-queues work whose job was lost and ends work whose job failed for good; answers how many. */
  resumeUnfinished(): Promise<number>;
}

const RESUME_INTERVAL_MS = 60_000;

/**
 * Serves a queue of resumable work in a worker process: runs its jobs, records work whose job failed for good, and
 * sweeps for lost work at start and every minute (Redis emptied, a job dropped). Returns the function that stops it.
 *
 * Stopping a queue takes Bull about half a second (its blocked connection does not answer QUIT and is dropped after
 * 500 ms), and Nest runs each module's shutdown hook after the last: so processors start stopping in
 * `onModuleDestroy`, all at once, and wait for it in `beforeApplicationShutdown`, before the browser and the database
 * close.
 */
export function serveResumableWork<T>(queue: Queue, work: ResumableWork<T>, logger: Logger): () => Promise<void> {
  takeJobs<T>(queue, work.jobName, work.concurrency, (data) => work.run(data), logger, `${work.label}s`);
  queue.on('failed', (job: Job<T> | null, error: Error | undefined) => {
    if (!job || !failedForGood(job)) return;
    logger.error({ err: error ?? job.failedReason, job: job.id }, `${work.label} failed for good`);
    work.recordFailure(job.data).catch((recordError: unknown) => {
      logger.error({ err: recordError, job: job.id }, 'could not record the failure yet');
    });
  });
  const resume = async (): Promise<void> => {
    try {
      const resumed = await work.resumeUnfinished();
      if (resumed) logger.log(`resumed or ended ${resumed} lost ${work.label}(s)`);
    } catch (error) {
      logger.warn({ err: error }, `could not resume unfinished ${work.label}s`);
    }
  };
  const timer = setInterval(() => void resume(), RESUME_INTERVAL_MS);
  timer.unref();
  void resume();
  // Once: a processor starts stopping when the application begins closing and waits for it before anything closes.
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      clearInterval(timer);
      await queue.close();
    })());
}
