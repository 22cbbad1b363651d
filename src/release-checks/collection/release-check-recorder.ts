import { LockMode } from '@mikro-orm/core';
import { type EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { acrossWorkspaces, jobUnitOfWork } from '../../common/tenancy/workspace-scope';
import { whenDatabaseAnswers } from '../../db/database-outage';
import type { CaptureSideJob, CompareArtifactJob } from '../../queues/jobs';
import {
  ReleaseCheckArtifact,
  type Side,
  type SideRecord,
  type StoredComparison,
} from '../entities/release-check-artifact.entity';
import { ReleaseCheck } from '../entities/release-check.entity';
import { ReleaseCheckEvents } from '../release-check-events';
import { sideUrl } from '../release-check-request';
import { collectionStatusOf, gateOf, summarize } from '../release-check-summary';

const otherSide = (side: Side): Side => (side === 'production' ? 'preview' : 'production');

/** What recording a side led to: nothing (the check moved on or is gone), nothing more, or the pair's comparison. */
export type SideRecording = 'not_current' | 'recorded' | 'compare';

/**
 * Writes a revision's collection to the database. Each step runs in one transaction holding the check's row lock and
 * applies only while the check is at the revision its job was queued for, so a retried job or one overtaken by a
 * rerun records nothing; the step that finds nothing left to collect finalizes the revision, exactly once.
 */
@Injectable()
export class ReleaseCheckRecorder {
  private readonly logger = new Logger(ReleaseCheckRecorder.name);

  constructor(
    private readonly orm: MikroORM,
    private readonly events: ReleaseCheckEvents,
  ) {}

  /**
   * The artifact a job works on, with its check, when the job is still current (same revision); null otherwise.
   * A check's first capture also marks it running.
   */
  async artifactFor(job: CompareArtifactJob): Promise<ReleaseCheckArtifact | null> {
    return this.whenDatabaseAnswers(job, async () => {
      const em = await this.jobUnitOfWork(job);
      if (!em) return null;
      const found = await em.findOne(ReleaseCheckArtifact, { id: job.artifactId }, { populate: ['check'] });
      if (!found || found.check.revision !== job.revision) return null;
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
  }

  /** Records a side; says what follows (see SideRecording). */
  recordSide(job: CaptureSideJob, record: SideRecord): Promise<SideRecording> {
    return this.whenDatabaseAnswers(job, async () => {
      const em = await this.jobUnitOfWork(job);
      if (!em) return 'not_current';
      return em.transactional(async (tx): Promise<SideRecording> => {
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
      });
    });
  }

  /** A capture that failed on every attempt (browser down, database gone) ends as recorded missing evidence. */
  async recordFailedCapture(job: CaptureSideJob): Promise<void> {
    const em = await this.jobUnitOfWork(job);
    if (!em) return;
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

  /** Records a pair's comparison; false when the check is gone or at another revision, so nothing was recorded. */
  recordComparison(job: CompareArtifactJob, comparison: StoredComparison, fingerprint: string): Promise<boolean> {
    return this.whenDatabaseAnswers(job, async () => {
      const em = await this.jobUnitOfWork(job);
      if (!em) return false;
      return em.transactional(async (tx) => {
        const check = await this.lockCurrent(tx, job.checkId, job.revision);
        if (!check) return false;
        const recorded = await tx.findOneOrFail(ReleaseCheckArtifact, { id: job.artifactId });
        if (recorded.comparison) return true;
        recorded.comparison = comparison;
        recorded.fingerprint = fingerprint;
        recorded.state = 'compared';
        await this.finalizeIfCollected(tx, check);
        return true;
      });
    });
  }

  /** A comparison that failed on every attempt leaves the pair without comparable evidence: counted missing. */
  async recordFailedComparison(job: CompareArtifactJob): Promise<void> {
    const em = await this.jobUnitOfWork(job);
    await em?.transactional(async (tx) => {
      const check = await this.lockCurrent(tx, job.checkId, job.revision);
      if (!check) return;
      const artifact = await tx.findOneOrFail(ReleaseCheckArtifact, { id: job.artifactId });
      if (artifact.state !== 'collecting') return;
      artifact.state = 'missing';
      await this.finalizeIfCollected(tx, check);
    });
  }

  /** The current revision's artifacts still collecting, of every check whose collection has not finished. */
  async unfinished(): Promise<Array<{ check: ReleaseCheck; artifacts: ReleaseCheckArtifact[] }>> {
    const em = acrossWorkspaces(this.orm.em);
    const checks = await em.find(ReleaseCheck, { collectionStatus: { $in: ['queued', 'running'] } });
    const found = [];
    for (const check of checks) {
      const artifacts = await em.find(ReleaseCheckArtifact, { check, revision: check.revision, state: 'collecting' });
      found.push({ check, artifacts });
    }
    return found;
  }

  /** Whether the check still exists (work that found it not current asks before removing its own files). */
  async exists(job: { checkId: string; artifactId: string }): Promise<boolean> {
    const count = await this.whenDatabaseAnswers(job, () =>
      acrossWorkspaces(this.orm.em).count(ReleaseCheck, { id: job.checkId }),
    );
    return count > 0;
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
  /** The job's check read across workspaces to learn whose it is: the job works in that workspace. */
  private jobUnitOfWork(job: { checkId: string }): Promise<EntityManager | null> {
    return jobUnitOfWork(this.orm.em, ReleaseCheck, job.checkId);
  }

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
    const summary = summarize(artifacts);
    check.summary = summary;
    check.completedAt = new Date();
    await this.events.completed(tx, check, status, artifacts);
    this.logger.log(`release check ${check.id} revision ${check.revision}: ${status}`);
  }
}
