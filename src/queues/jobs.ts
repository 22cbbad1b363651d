import type { CheckTrigger } from '../monitors/entities/monitor-check.entity';
import type { JobOptions } from 'bull';

/**
 * Every queue, job and payload in one place. Job ids are deterministic, so enqueueing work Bull still holds adds
 * nothing, and every job is safe to run twice: its results are keyed by what it works on.
 */
export const QUEUES = {
  /** Browser captures; a queue of their own so their concurrency is theirs alone (Bull adds up named handlers'). */
  releaseCaptures: 'release-check-captures',
  /** Screenshot and evidence comparisons: CPU-bound, one at a time per worker. */
  releaseComparisons: 'release-check-comparisons',
  /** Accessibility scans: one job per scan, all its viewports; its results are written once, at its end. */
  a11yScans: 'a11y-scans',
  /** Crawls: one job per crawl; its progress is in the database, so any worker can pick a crawl up where it was. */
  crawls: 'crawls',
  /** Report runs: one job per run; a run's file is stored whole before the run is marked ready. */
  reports: 'reports',
} as const;

/** Monitor checks: one queue per region, so each region's workers take only their region's checks. */
export const monitorCheckQueue = (region: string): string => `monitor-checks-${region}`;

export const JOBS = {
  /** Capture one side of one artifact (page pair × viewport × revision). */
  captureSide: 'capture-side',
  /** Compare the two captured sides of one artifact. */
  compareArtifact: 'compare-artifact',
  /** Check one monitor from one region, for one slot of its schedule (or on demand). */
  checkMonitor: 'check-monitor',
  /** Scan one page at each of the scan's viewports. */
  runA11yScan: 'run-a11y-scan',
  /** Run (or resume) one crawl to its end. */
  runCrawl: 'run-crawl',
  /** Render one run of a report to its file. */
  generateReport: 'generate-report',
} as const;

export interface CaptureSideJob {
  checkId: string;
  revision: number;
  artifactId: string;
  side: 'production' | 'preview';
}

export interface CompareArtifactJob {
  checkId: string;
  revision: number;
  artifactId: string;
}

export interface MonitorCheckJob {
  monitorId: string;
  region: string;
  /** The slot (ISO time): when the check was due, or asked for. Its result is keyed by monitor, region and slot. */
  scheduledFor: string;
  /** `ping`: a heartbeat ping, recorded by the API as it arrives (never queued). */
  trigger: CheckTrigger;
}

/** Retries with exponential backoff; finished jobs are kept briefly for inspection, then dropped. */
export const DEFAULT_JOB_OPTIONS: JobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: 1000,
  removeOnFail: 5000,
};

export const captureJobId = (job: CaptureSideJob): string => `capture:${job.artifactId}:${job.side}`;
export const compareJobId = (job: CompareArtifactJob): string => `compare:${job.artifactId}`;

export const captureJobOptions = (job: CaptureSideJob): JobOptions => ({
  ...DEFAULT_JOB_OPTIONS,
  jobId: captureJobId(job),
});
export const compareJobOptions = (job: CompareArtifactJob): JobOptions => ({
  ...DEFAULT_JOB_OPTIONS,
  jobId: compareJobId(job),
});

export const monitorCheckJobId = (job: MonitorCheckJob): string =>
  `check:${job.monitorId}:${job.region}:${Date.parse(job.scheduledFor)}`;

/**
 * A check is retried once, soon: a failed attempt means the worker could not record it (the page's own failures
 * are results). Completed checks are not kept, so 170 checks a second do not fill Redis.
 */
export const monitorCheckJobOptions = (job: MonitorCheckJob): JobOptions => ({
  attempts: 2,
  backoff: { type: 'fixed', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: 1000,
  jobId: monitorCheckJobId(job),
});

/** Bull's reason for failing a job whose worker died more often than it allows; no attempt is left after it. */
const STALLED_FAILURE = /stalled more than allowable limit/;

/** Whether a failed job is done for good: its attempts are spent, or Bull gave up on it after stalls. */
export function failedForGood(job: { attemptsMade: number; opts: JobOptions; failedReason?: string }): boolean {
  return job.attemptsMade >= (job.opts.attempts ?? 1) || STALLED_FAILURE.test(job.failedReason ?? '');
}

export interface A11yScanJob {
  scanId: string;
}

export const a11yScanJobId = (job: A11yScanJob): string => `a11y-scan:${job.scanId}`;
export const a11yScanJobOptions = (job: A11yScanJob): JobOptions => ({
  ...DEFAULT_JOB_OPTIONS,
  jobId: a11yScanJobId(job),
});

export interface CrawlJob {
  crawlId: string;
}

export const crawlJobId = (job: CrawlJob): string => `crawl:${job.crawlId}`;
/** A crawl resumes from its recorded frontier, so a retry repeats no finished work. */
export const crawlJobOptions = (job: CrawlJob): JobOptions => ({
  ...DEFAULT_JOB_OPTIONS,
  attempts: 5,
  jobId: crawlJobId(job),
});

export interface ReportJob {
  runId: string;
}

export const reportJobId = (job: ReportJob): string => `report:${job.runId}`;
export const reportJobOptions = (job: ReportJob): JobOptions => ({ ...DEFAULT_JOB_OPTIONS, jobId: reportJobId(job) });
