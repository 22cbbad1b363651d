import { Injectable, Logger } from '@nestjs/common';
import { compareLooks, evidenceFingerprint, type SideEvidence } from '../../../libs/compare';
import { CaptureEngineProvider } from '../../capture/capture-engine.provider';
import type { ResumableWork } from '../../queues/resumable-worker';
import { JOBS, type CompareArtifactJob } from '../../queues/jobs';
import type { ReleaseCheckArtifact, Side, StoredComparison } from '../entities/release-check-artifact.entity';
import { CollectionShortcuts } from './collection-shortcuts';
import { ReleaseCheckFiles } from './release-check-files';
import { ReleaseCheckQueue } from './release-check-queue';
import { ReleaseCheckRecorder } from './release-check-recorder';
import { sideCaptureRequest } from './side-capture';

/**
 * Compares the two captured sides of one artifact. When they differ, both sides are captured once more (decision
 * 0012): what differs between two looks at one side moved on its own and is reported apart, so the comparison's
 * differences are those that survived the second look. Identical pairs cost nothing extra. The job writes its rows
 * once, at its end, so a retry repeats the work and never records half of it.
 */
@Injectable()
export class ArtifactComparisonWork implements ResumableWork<CompareArtifactJob> {
  private readonly logger = new Logger(ArtifactComparisonWork.name);
  readonly label = 'release-check comparison';
  readonly jobName = JOBS.compareArtifact;
  /** Two at a time: one can take its second look in the browser while the other diffs (one diff at a time). */
  readonly concurrency = 2;

  constructor(
    private readonly capture: CaptureEngineProvider,
    private readonly files: ReleaseCheckFiles,
    private readonly queue: ReleaseCheckQueue,
    private readonly recorder: ReleaseCheckRecorder,
    private readonly shortcuts: CollectionShortcuts,
  ) {}

  async run(job: CompareArtifactJob): Promise<void> {
    const artifact = await this.recorder.artifactFor(job);
    if (!artifact || artifact.comparison) return;
    const { production, preview } = artifact;
    if (production?.state !== 'captured' || preview?.state !== 'captured') return;
    const [productionEvidence, previewEvidence] = await Promise.all([
      this.files.evidence(production),
      this.files.evidence(preview),
    ]);
    const options = {
      mismatchThreshold: artifact.check.mismatchThreshold,
      onlyChangedRows: this.shortcuts.onlyChangedRows,
    };
    let comparison = await compareLooks([productionEvidence], [previewEvidence], options);
    if (comparison.has_differences && !(await this.serverAnswersAgain(production, preview))) {
      const [productionAgain, previewAgain] = await Promise.all([
        this.lookAgain(artifact, 'production', productionEvidence),
        this.lookAgain(artifact, 'preview', previewEvidence),
      ]);
      comparison = await compareLooks(
        [productionEvidence, ...productionAgain],
        [previewEvidence, ...previewAgain],
        options,
      );
    }
    const fingerprint = await evidenceFingerprint(productionEvidence, previewEvidence, comparison);
    const { diff_png, ...screenshot } = comparison.screenshot;
    const diffKey = diff_png ? await this.files.storeDiff(job, diff_png) : null;
    const stored: StoredComparison = { ...comparison, screenshot: { ...screenshot, diff_key: diffKey } };
    const current = await this.recorder.recordComparison(job, stored, fingerprint);
    if (!current && diffKey && !(await this.recorder.exists(job))) await this.files.deleteAll(job.checkId);
  }

  recordFailure(job: CompareArtifactJob): Promise<void> {
    return this.recorder.recordFailedComparison(job);
  }

  /** Captured pairs of unfinished checks whose comparison the queue no longer runs (see SideCaptureWork). */
  async resumeUnfinished(): Promise<number> {
    let resumed = 0;
    for (const { check, artifacts } of await this.recorder.unfinished()) {
      for (const artifact of artifacts) {
        if (artifact.production?.state !== 'captured' || artifact.preview?.state !== 'captured') continue;
        const data: CompareArtifactJob = { checkId: check.id, revision: check.revision, artifactId: artifact.id };
        const job = await this.queue.comparisonJob(data);
        if (!job) await this.queue.enqueueComparison(data);
        else if (await job.isFailed()) await this.recordFailure(data);
        else continue;
        resumed += 1;
      }
    }
    return resumed;
  }

  /**
   * The cheap second look: every response both sides' content came from is answered again with the same bytes, so a
   * capture (on the same held clock) would render the same pages and the differences are stable as they are.
   */
  private async serverAnswersAgain(
    ...sides: Array<Extract<NonNullable<ReleaseCheckArtifact['production']>, { state: 'captured' }>>
  ): Promise<boolean> {
    for (const side of sides) {
      if (!side.responses || !side.user_agent) return false;
      if (!(await this.capture.engine.sameAnswersAgain(side.responses, side.user_agent))) return false;
    }
    return true;
  }

  /**
   * The side captured again, as the first look was. A second look that cannot be had (the page failed this time)
   * judges nothing: the first look's differences then stand as they are, never hidden.
   */
  private async lookAgain(artifact: ReleaseCheckArtifact, side: Side, first: SideEvidence): Promise<SideEvidence[]> {
    const request = sideCaptureRequest(artifact.check, artifact, side, this.shortcuts);
    // The second look needs no scan of its own sharing: its findings are compared with the first look's.
    const result = await this.capture.engine.capture({ ...request, scanScope: undefined });
    if (!result.ok) {
      this.logger.warn(`second look at ${result.url} found no evidence (${result.reason}); differences stand`);
      return [];
    }
    return [
      {
        url: result.final_url,
        text: result.text,
        robots: result.robots,
        canonical: result.canonical,
        screenshot: result.screenshot,
        findings: result.findings,
        axe_version: result.axe_version ?? first.axe_version,
      },
    ];
  }
}
