import { Injectable } from '@nestjs/common';
import type { CaptureRequest } from '../../../libs/capture';
import { CaptureEngineProvider } from '../../capture/capture-engine.provider';
import type { ResumableWork } from '../../queues/resumable-worker';
import { JOBS, type CaptureSideJob } from '../../queues/jobs';
import { type ReleaseCheckArtifact, type Side, SIDES } from '../entities/release-check-artifact.entity';
import type { ReleaseCheck } from '../entities/release-check.entity';
import { sideUrl } from '../release-check-request';
import { CollectionShortcuts } from './collection-shortcuts';
import { ReleaseCheckFiles } from './release-check-files';
import { ReleaseCheckQueue } from './release-check-queue';
import { ReleaseCheckRecorder } from './release-check-recorder';

/**
 * The capture of one side of a pair, the same for its first look and any later one: every look of every side of a
 * check runs on the same virtual clock (the check's creation), so what differs between looks moved on its own.
 */
export function sideCaptureRequest(
  check: ReleaseCheck,
  artifact: ReleaseCheckArtifact,
  side: Side,
  shortcuts: CollectionShortcuts,
): CaptureRequest {
  const page = check.pages[artifact.pageIndex];
  return {
    url: sideUrl(check, artifact.pageIndex, side),
    viewport: artifact.viewport,
    priority: 'release',
    clockTime: check.createdAt.getTime(),
    recordResponses: true,
    ...(page.required_selector ? { requiredSelector: page.required_selector } : {}),
    ...(check.maskSelectors.length ? { maskSelectors: check.maskSelectors } : {}),
    // Production and preview of an unchanged page are often the same document: one scan serves both.
    ...(shortcuts.shareScans ? { scanScope: `${check.id}/${artifact.revision}/${artifact.viewport}` } : {}),
  };
}

/** Captures one side of one artifact, stores its files and records it; the pair's last side queues its comparison. */
@Injectable()
export class SideCaptureWork implements ResumableWork<CaptureSideJob> {
  readonly label = 'release-check capture';
  readonly jobName = JOBS.captureSide;
  /** Set by the processor from the capture budget. */
  concurrency = 1;

  constructor(
    private readonly capture: CaptureEngineProvider,
    private readonly files: ReleaseCheckFiles,
    private readonly queue: ReleaseCheckQueue,
    private readonly recorder: ReleaseCheckRecorder,
    private readonly shortcuts: CollectionShortcuts,
  ) {}

  async run(job: CaptureSideJob): Promise<void> {
    const artifact = await this.recorder.artifactFor(job);
    if (!artifact || artifact[job.side]) return;
    const result = await this.capture.engine.capture(
      sideCaptureRequest(artifact.check, artifact, job.side, this.shortcuts),
    );
    const record = await this.files.storeCapture(job, result);
    const outcome = await this.recorder.recordSide(job, record);
    if (outcome === 'compare') {
      await this.queue.enqueueComparison({ checkId: job.checkId, revision: job.revision, artifactId: job.artifactId });
    }
    // The check was deleted while this ran: the delete removed only the files there were then.
    if (outcome === 'not_current' && record.state === 'captured' && !(await this.recorder.exists(job))) {
      await this.files.deleteAll(job.checkId);
    }
  }

  recordFailure(job: CaptureSideJob): Promise<void> {
    return this.recorder.recordFailedCapture(job);
  }

  /**
   * Sides of unfinished checks that the queue no longer runs: a job Bull lost (Redis restarted without its data, an
   * enqueue that failed after its commit) is added again; one that failed for good unrecorded is recorded now.
   */
  async resumeUnfinished(): Promise<number> {
    let resumed = 0;
    for (const { check, artifacts } of await this.recorder.unfinished()) {
      for (const artifact of artifacts) {
        for (const side of SIDES.filter((candidate) => !artifact[candidate])) {
          const data: CaptureSideJob = { checkId: check.id, revision: check.revision, artifactId: artifact.id, side };
          const job = await this.queue.captureJob(data);
          if (!job) await this.queue.enqueueCapture(data);
          else if (await job.isFailed()) await this.recordFailure(data);
          else continue;
          resumed += 1;
        }
      }
    }
    return resumed;
  }
}
