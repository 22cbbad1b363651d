import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import {
  type CaptureSideJob,
  captureJobId,
  captureJobOptions,
  type CompareArtifactJob,
  compareJobId,
  compareJobOptions,
  JOBS,
  QUEUES,
} from '../../queues/jobs';
import { type ReleaseCheckArtifact, SIDES } from '../entities/release-check-artifact.entity';
import type { ReleaseCheck } from '../entities/release-check.entity';

/**
 * Puts a revision's work on the queues: one capture job per side of each artifact, one comparison job per artifact
 * whose sides were both captured. Job ids are deterministic, so adding work the queue still holds adds nothing.
 */
@Injectable()
export class ReleaseCheckQueue {
  constructor(
    @InjectQueue(QUEUES.releaseCaptures) readonly captures: Queue,
    @InjectQueue(QUEUES.releaseComparisons) readonly comparisons: Queue,
  ) {}

  async enqueueCaptures(check: ReleaseCheck, artifacts: ReleaseCheckArtifact[]): Promise<void> {
    const jobs = artifacts.flatMap((artifact) =>
      SIDES.map((side) => {
        const data: CaptureSideJob = { checkId: check.id, revision: artifact.revision, artifactId: artifact.id, side };
        return { name: JOBS.captureSide, data, opts: captureJobOptions(data) };
      }),
    );
    await this.captures.addBulk(jobs);
  }

  async enqueueCapture(data: CaptureSideJob): Promise<void> {
    await this.captures.add(JOBS.captureSide, data, captureJobOptions(data));
  }

  async enqueueComparison(data: CompareArtifactJob): Promise<void> {
    await this.comparisons.add(JOBS.compareArtifact, data, compareJobOptions(data));
  }

  captureJob(data: CaptureSideJob): Promise<Job | null> {
    return this.captures.getJob(captureJobId(data));
  }

  comparisonJob(data: CompareArtifactJob): Promise<Job | null> {
    return this.comparisons.getJob(compareJobId(data));
  }
}
