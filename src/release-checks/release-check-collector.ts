import { InjectQueue } from '@nestjs/bull';
import { LockMode } from '@mikro-orm/core';
import { type EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import type { CaptureResult } from '../../libs/capture';
import { compareEvidence, type SideEvidence } from '../../libs/compare';
import { ArtifactStore } from '../artifacts/artifact-store';
import {
  type CaptureSideJob,
  captureJobId,
  captureJobOptions,
  type CompareArtifactJob,
  compareJobId,
  compareJobOptions,
  JOBS,
  QUEUES,
} from '../queues/jobs';
import type { ArtifactFileName } from './dto/release-check-queries.dto';
import { CaptureEngineProvider } from '../capture/capture-engine.provider';
import {
  ReleaseCheckArtifact,
  type Side,
  SIDES,
  type SideRecord,
  type StoredComparison,
} from './entities/release-check-artifact.entity';
import { ReleaseCheck } from './entities/release-check.entity';
import { sideUrl } from './release-check-request';
import { collectionStatusOf, gateOf, summarize } from './release-check-summary';
import { acrossWorkspaces } from '../common/tenancy/workspace-scope';
import { recordEvent } from '../events/outbox';
import { whenDatabaseAnswers } from '../db/database-outage';

const otherSide = (side: Side): Side => (side === 'production' ? 'preview' : 'production');

/** Every file of a release check lies under this folder of the artifact store, whatever its revision. */
export const releaseCheckFolder = (checkId: string) => `release-checks/${checkId}`;

/**
 * Collects a revision's evidence through the queue: one capture job per side of each artifact, one comparison job
 * per artifact whose sides were both captured. Every step is idempotent and checks the revision it was queued for,
 * so a retried job or one overtaken by a rerun does no harm. Files are written before the rows that name them, and
 * each side is recorded in one transaction holding the check's row lock: the step that finds nothing left to
 * collect finalizes the check, exactly once.
 */
@Injectable()
export class ReleaseCheckCollector {
  private readonly logger = new Logger(ReleaseCheckCollector.name);

  constructor(
    private readonly orm: MikroORM,
    @InjectQueue(QUEUES.releaseCaptures) private readonly captures: Queue,
    @InjectQueue(QUEUES.releaseComparisons) private readonly comparisons: Queue,
    private readonly store: ArtifactStore,
    private readonly capture: CaptureEngineProvider,
  ) {}

  /**
   * Shortcuts that never change the evidence, on by default: one axe-core scan for production and preview documents
   * in the same state, and a pixel comparison of only the rows in which two screenshots differ. Off, every capture
   * scans itself and every comparison looks at every row; the equivalence test collects the same check both ways and
   * compares every file, finding and comparison.
   */
  readonly shortcuts = { shareScans: true, onlyChangedRows: true };

  async enqueue(check: ReleaseCheck, artifacts: ReleaseCheckArtifact[]): Promise<void> {
    const jobs = artifacts.flatMap((artifact) =>
      SIDES.map((side) => {
        const data: CaptureSideJob = { checkId: check.id, revision: artifact.revision, artifactId: artifact.id, side };
        return { name: JOBS.captureSide, data, opts: captureJobOptions(data) };
      }),
    );
    await this.captures.addBulk(jobs);
  }

  async captureSide(job: CaptureSideJob): Promise<void> {
    const artifact = await this.whenDatabaseAnswers(job, async () => {
      const em = acrossWorkspaces(this.orm.em);
      const found = await em.findOne(ReleaseCheckArtifact, { id: job.artifactId }, { populate: ['check'] });
      if (!found || found.check.revision !== job.revision || found[job.side]) return null;
      // Only the first capture of a revision finds it queued; the others need not ask the database again.
      if (found.check.collectionStatus === 'queued') {
        await em.nativeUpdate(
          ReleaseCheck,
          { id: found.check.id, revision: job.revision, collectionStatus: 'queued' },
          { collectionStatus: 'running' },
        );
      }
      return found;
    });
    if (!artifact) return;
    const check = artifact.check;
    const page = check.pages[artifact.pageIndex];
    const url = sideUrl(check, artifact.pageIndex, job.side);
    const result = await this.capture.engine.capture({
      url,
      viewport: artifact.viewport,
      priority: 'release',
      ...(page.required_selector ? { requiredSelector: page.required_selector } : {}),
      ...(check.maskSelectors.length ? { maskSelectors: check.maskSelectors } : {}),
      // Production and preview of an unchanged page are often the same document: one scan serves both.
      ...(this.shortcuts.shareScans ? { scanScope: `${check.id}/${job.revision}/${artifact.viewport}` } : {}),
    });
    const record = await this.storeCapture(job, result);
    const current = await this.recordSide(job, record);
    if (!current && record.state === 'captured') await this.dropFilesIfDeleted(job);
  }

  /** A capture that failed on every attempt (browser down, database gone) ends as recorded missing evidence. */
  async recordFailedCapture(job: CaptureSideJob): Promise<void> {
    const em = acrossWorkspaces(this.orm.em);
    const artifact = await em.findOne(ReleaseCheckArtifact, { id: job.artifactId }, { populate: ['check'] });
    if (!artifact) return;
    await this.recordSide(job, {
      state: 'missing',
      url: sideUrl(artifact.check, artifact.pageIndex, job.side),
      final_url: null,
      status: null,
      reason: 'capture_failed',
      // The cause (a browser that would not start, a database error) is in the worker's log, not in the API.
      message: 'The capture failed on every attempt, through no fault of the page. Rerun the check.',
      captured_at: new Date().toISOString(),
    });
  }

  async compareArtifact(job: CompareArtifactJob): Promise<void> {
    const artifact = await this.whenDatabaseAnswers(job, () =>
      acrossWorkspaces(this.orm.em).findOne(ReleaseCheckArtifact, { id: job.artifactId }, { populate: ['check'] }),
    );
    if (!artifact || artifact.check.revision !== job.revision || artifact.comparison) return;
    const { production, preview } = artifact;
    if (production?.state !== 'captured' || preview?.state !== 'captured') return;
    const [productionEvidence, previewEvidence] = await Promise.all([
      this.evidence(production),
      this.evidence(preview),
    ]);
    const comparison = await compareEvidence(productionEvidence, previewEvidence, {
      mismatchThreshold: artifact.check.mismatchThreshold,
      onlyChangedRows: this.shortcuts.onlyChangedRows,
    });
    const { diff_png, ...screenshot } = comparison.screenshot;
    const diffKey = diff_png ? `${this.folder(job)}/diff-${randomUUID()}.png` : null;
    if (diff_png && diffKey) await this.store.put(diffKey, diff_png);
    const stored: StoredComparison = { ...comparison, screenshot: { ...screenshot, diff_key: diffKey } };

    const current = await this.whenDatabaseAnswers(job, () =>
      acrossWorkspaces(this.orm.em).transactional(async (tx) => {
        const check = await this.lockCurrent(tx, job.checkId, job.revision);
        if (!check) return false;
        const recorded = await tx.findOneOrFail(ReleaseCheckArtifact, { id: job.artifactId });
        if (recorded.comparison) return true;
        recorded.comparison = stored;
        recorded.state = 'compared';
        await this.finalizeIfCollected(tx, check);
        return true;
      }),
    );
    if (!current && diffKey) await this.dropFilesIfDeleted(job);
  }

  /** A comparison that failed on every attempt leaves the pair without comparable evidence: counted missing. */
  async recordFailedComparison(job: CompareArtifactJob): Promise<void> {
    await acrossWorkspaces(this.orm.em).transactional(async (tx) => {
      const check = await this.lockCurrent(tx, job.checkId, job.revision);
      if (!check) return;
      const artifact = await tx.findOneOrFail(ReleaseCheckArtifact, { id: job.artifactId });
      if (artifact.state !== 'collecting') return;
      artifact.state = 'missing';
      await this.finalizeIfCollected(tx, check);
    });
  }

  /**
   * Finds work of unfinished checks that the queues no longer run: jobs Bull lost (Redis restarted without its data,
   * an enqueue that failed after its commit) are added again; jobs that failed for good without their failure being
   * recorded are recorded now. Returns how many were resumed or recorded.
   */
  async resumeUnfinished(): Promise<number> {
    const em = acrossWorkspaces(this.orm.em);
    const checks = await em.find(ReleaseCheck, { collectionStatus: { $in: ['queued', 'running'] } });
    let resumed = 0;
    for (const check of checks) {
      const artifacts = await em.find(ReleaseCheckArtifact, { check, revision: check.revision, state: 'collecting' });
      for (const artifact of artifacts) {
        const base = { checkId: check.id, revision: check.revision, artifactId: artifact.id };
        for (const side of SIDES.filter((candidate) => !artifact[candidate])) {
          const data: CaptureSideJob = { ...base, side };
          const job = await this.captures.getJob(captureJobId(data));
          if (!job) await this.captures.add(JOBS.captureSide, data, captureJobOptions(data));
          else if (await job.isFailed()) await this.recordFailedCapture(data);
          else continue;
          resumed += 1;
        }
        if (artifact.production?.state === 'captured' && artifact.preview?.state === 'captured') {
          const job = await this.comparisons.getJob(compareJobId(base));
          if (!job) await this.enqueueComparison(base);
          else if (await job.isFailed()) await this.recordFailedComparison(base);
          else continue;
          resumed += 1;
        }
      }
    }
    return resumed;
  }

  /** A file of an artifact, by its public name. */
  async readFile(
    artifact: ReleaseCheckArtifact,
    name: ArtifactFileName,
  ): Promise<{ data: Buffer; contentType: string } | null> {
    const captured = (side: Side) => {
      const record = artifact[side];
      return record?.state === 'captured' ? record : null;
    };
    const keys: Record<ArtifactFileName, string | null | undefined> = {
      'production.png': captured('production')?.screenshot_key,
      'preview.png': captured('preview')?.screenshot_key,
      'production.txt': captured('production')?.text_key,
      'preview.txt': captured('preview')?.text_key,
      'diff.png': artifact.comparison?.screenshot.diff_key,
    };
    const key = keys[name];
    const data = key ? await this.store.get(key) : null;
    if (!data) return null;
    return { data, contentType: name.endsWith('.png') ? 'image/png' : 'text/plain; charset=utf-8' };
  }

  private folder(job: { checkId: string; revision: number; artifactId: string }): string {
    return `${releaseCheckFolder(job.checkId)}/r${job.revision}/${job.artifactId}`;
  }

  /**
   * Work that wrote files and then found its check not current removes them if the check was deleted meanwhile: the
   * delete removed only the files there were when it ran, and no row names these.
   */
  private async dropFilesIfDeleted(job: { checkId: string; artifactId: string }): Promise<void> {
    const { checkId } = job;
    const exists = await this.whenDatabaseAnswers(job, () =>
      acrossWorkspaces(this.orm.em).count(ReleaseCheck, { id: checkId }),
    );
    if (!exists) await this.store.deleteFolder(releaseCheckFolder(checkId));
  }

  /** Writes the capture's files and returns the side's record. A missing side has no files: no screenshot, no scan. */
  private async storeCapture(job: CaptureSideJob, result: CaptureResult): Promise<SideRecord> {
    const capturedAt = new Date().toISOString();
    if (!result.ok) {
      return {
        state: 'missing',
        url: result.url,
        final_url: result.final_url,
        status: result.status,
        reason: result.reason,
        message: result.message,
        captured_at: capturedAt,
      };
    }
    // A key of its own per capture: a duplicate run of a stalled job must not overwrite files a row already names.
    const capture = randomUUID();
    const screenshotKey = `${this.folder(job)}/${job.side}-${capture}.png`;
    const textKey = `${this.folder(job)}/${job.side}-${capture}.txt`;
    await Promise.all([this.store.put(screenshotKey, result.screenshot), this.store.put(textKey, result.text)]);
    return {
      state: 'captured',
      url: result.url,
      final_url: result.final_url,
      status: result.status,
      robots: result.robots,
      canonical: result.canonical,
      required_selector_found: result.required_selector_found,
      findings: result.findings,
      // Release-check captures always scan; only monitors ask the engine to skip it.
      axe_version: result.axe_version ?? 'unknown',
      screenshot_key: screenshotKey,
      text_key: textKey,
      captured_at: capturedAt,
    };
  }

  /** Records the side; returns false when the check is gone or at another revision, so nothing was recorded. */
  private async recordSide(job: CaptureSideJob, record: SideRecord): Promise<boolean> {
    const outcome = await this.whenDatabaseAnswers(job, () =>
      acrossWorkspaces(this.orm.em).transactional(async (tx): Promise<'not_current' | 'recorded' | 'compare'> => {
        const check = await this.lockCurrent(tx, job.checkId, job.revision);
        if (!check) return 'not_current';
        const artifact = await tx.findOneOrFail(ReleaseCheckArtifact, { id: job.artifactId });
        if (artifact[job.side]) {
          // Recorded already: by a duplicate run, or by this run's own commit, which went through while the database
          // went away before answering. The comparison that commit called for was then never queued: queue it now
          // (its job id makes a second enqueue harmless) rather than leave the pair to the resume sweep.
          const pairCaptured =
            artifact.state === 'collecting' &&
            artifact.production?.state === 'captured' &&
            artifact.preview?.state === 'captured';
          return pairCaptured ? 'compare' : 'recorded';
        }
        artifact[job.side] = record;
        const other = artifact[otherSide(job.side)];
        if (record.state === 'missing' || other?.state === 'missing') {
          artifact.state = 'missing';
          await this.finalizeIfCollected(tx, check);
          return 'recorded';
        }
        return other?.state === 'captured' ? 'compare' : 'recorded';
      }),
    );
    if (outcome === 'compare') {
      await this.enqueueComparison({ checkId: job.checkId, revision: job.revision, artifactId: job.artifactId });
    }
    return outcome !== 'not_current';
  }

  private async enqueueComparison(data: CompareArtifactJob): Promise<void> {
    await this.comparisons.add(JOBS.compareArtifact, data, compareJobOptions(data));
  }

  /**
   * A capture or comparison in hand is recorded once PostgreSQL is back from a restart, rather than spending the
   * job's attempts (each would render again) and ending as missing evidence through no fault of the page.
   */
  private whenDatabaseAnswers<T>(job: { artifactId: string }, work: () => Promise<T>): Promise<T> {
    return whenDatabaseAnswers(work, {
      onWait: (error) =>
        this.logger.warn({ err: error }, `PostgreSQL is unreachable: artifact ${job.artifactId} waits for it`),
    });
  }

  /** The check, row-locked, if it is still at the revision the job was queued for. */
  private async lockCurrent(tx: EntityManager, checkId: string, revision: number): Promise<ReleaseCheck | null> {
    const check = await tx.findOne(ReleaseCheck, { id: checkId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    return check && check.revision === revision ? check : null;
  }

  /** Called with the check's row lock held: when nothing is left to collect, the revision's outcome is set. */
  private async finalizeIfCollected(tx: EntityManager, check: ReleaseCheck): Promise<void> {
    if (check.collectionStatus === 'completed' || check.collectionStatus === 'incomplete') return;
    // Nearly every call finds work left: one count says so, and only the last call reads every artifact.
    await tx.flush();
    const left = await tx.count(ReleaseCheckArtifact, { check, revision: check.revision, state: 'collecting' });
    if (left > 0) return;
    const artifacts = await tx.find(ReleaseCheckArtifact, { check, revision: check.revision });
    const status = collectionStatusOf(artifacts);
    if (status !== 'completed' && status !== 'incomplete') return;
    check.collectionStatus = status;
    check.gate = gateOf(status, null);
    check.summary = summarize(artifacts);
    check.completedAt = new Date();
    recordEvent(tx, {
      workspaceId: check.workspace.id,
      type: 'release_check.completed',
      data: {
        release_check_id: check.id,
        name: check.name,
        revision: check.revision,
        collection_status: status,
        gate: check.gate,
        summary: check.summary,
      },
    });
    this.logger.log(`release check ${check.id} revision ${check.revision}: ${status}`);
  }

  private async evidence(side: Extract<SideRecord, { state: 'captured' }>): Promise<SideEvidence> {
    const [screenshot, text] = await Promise.all([this.store.get(side.screenshot_key), this.store.get(side.text_key)]);
    if (!screenshot || text === null) throw new Error(`evidence files of ${side.url} are gone`);
    return {
      url: side.final_url,
      text: text.toString('utf8'),
      robots: side.robots,
      canonical: side.canonical,
      screenshot,
      findings: side.findings,
      axe_version: side.axe_version,
    };
  }
}
