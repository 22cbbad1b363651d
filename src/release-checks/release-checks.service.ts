import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { WorkspacePrincipal, WorkspaceSession } from '../common/auth/principal';
import { assertPublicTarget } from '../common/targets/public-target';
import { DomainError, NotFound, ValidationFailed } from '../common/errors/domain-errors';
import { type Page, pageOf, pageWindow } from '../common/pagination/pagination';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/entities/workspace.entity';
import type { CreateReleaseCheckDto } from './dto/create-release-check.dto';
import type { ArtifactDto, ReleaseCheckDto, ReleaseCheckFieldsDto } from './dto/release-check.dto';
import type { ArtifactFileName, ListReleaseChecksQuery } from './dto/release-check-queries.dto';
import type { PairDecisionRequestDto, ReviewReleaseCheckDto } from './dto/review.dto';
import { ReleaseCheckArtifact } from './entities/release-check-artifact.entity';
import { type ReviewDecision, type ReviewedPair, ReleaseCheckReview } from './entities/release-check-review.entity';
import { EMPTY_SUMMARY, ReleaseCheck } from './entities/release-check.entity';
import { ReleaseCheckFiles, releaseCheckFolder } from './collection/release-check-files';
import { ReleaseCheckQueue } from './collection/release-check-queue';
import { ReleaseCheckPresenter } from './release-check.presenter';
import { ReleaseCheckEvents } from './release-check-events';
import { type NormalizedRequest, normalizeRequest, requestHash } from './release-check-request';
import { needsDecision, reviewedPairs, unchangedSinceRevision } from './pair-review';
import { gateOf, summarize } from './release-check-summary';

export interface CreatedReleaseCheck {
  check: ReleaseCheckDto;
  /** False when an identical earlier request with the same key is answered again. */
  created: boolean;
}

@Injectable()
export class ReleaseChecksService {
  private readonly logger = new Logger(ReleaseChecksService.name);

  constructor(
    private readonly em: EntityManager,
    private readonly queue: ReleaseCheckQueue,
    private readonly files: ReleaseCheckFiles,
    private readonly presenter: ReleaseCheckPresenter,
    private readonly events: ReleaseCheckEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Opens a check in the caller's workspace; `request_key` is unique per workspace. */
  async create(principal: WorkspacePrincipal, dto: CreateReleaseCheckDto): Promise<CreatedReleaseCheck> {
    const request = normalizeRequest(dto);
    const hash = requestHash(request);
    const earlier = await this.em.findOne(ReleaseCheck, { requestKey: dto.request_key });
    if (earlier) return this.replay(earlier, hash);
    await this.assertTargetsPublic(request);

    const check = this.em.create(ReleaseCheck, {
      workspace: this.em.getReference(Workspace, principal.workspace.id),
      openedBy: principal.userId ? this.em.getReference(User, principal.userId) : null,
      openedByKeyId: principal.kind === 'api_key' ? principal.keyId : null,
      name: request.name,
      requestKey: dto.request_key,
      requestHash: hash,
      productionUrl: request.production_url,
      previewUrl: request.preview_url,
      pages: request.pages,
      viewports: request.viewports,
      maskSelectors: request.mask_selectors,
      mismatchThreshold: request.mismatch_threshold,
      source: request.source,
    });
    const artifacts = this.artifactsFor(this.em, check, 1);
    try {
      await this.events.started(this.em, check);
      await this.em.persist([check, ...artifacts]).flush();
    } catch (error) {
      // Two identical requests at the same moment: the other one created the check; answer with it.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      this.em.clear();
      const winner = await this.em.findOneOrFail(ReleaseCheck, { requestKey: dto.request_key });
      return this.replay(winner, hash);
    }
    await this.queue.enqueueCaptures(check, artifacts);
    return { check: await this.presenter.present(this.em, check), created: true };
  }

  async get(id: string, revision?: number): Promise<ReleaseCheckDto> {
    const check = await this.owned(id);
    if (revision !== undefined && revision > check.revision) throw new NotFound(`Revision ${revision} of this check`);
    return this.presenter.present(this.em, check, revision ?? check.revision);
  }

  /**
   * Deletes the check (its revisions' evidence and reviews go with it) and then its files. Files that cannot be
   * deleted now are logged with their folder rather than failing a delete that has happened; work still running for
   * the check removes what it writes later (see SideCaptureWork).
   */
  async delete(id: string): Promise<void> {
    const deleted = await this.em.nativeDelete(ReleaseCheck, { id });
    if (!deleted) throw new NotFound('Release check');
    const folder = releaseCheckFolder(id);
    await this.files.deleteAll(id).catch((error: unknown) => {
      this.logger.error({ err: error }, `release check ${id} is deleted, but its files under ${folder}/ are not`);
    });
  }

  async list(query: ListReleaseChecksQuery): Promise<Page<ReleaseCheckFieldsDto>> {
    const [checks, total] = await this.em.findAndCount(ReleaseCheck, query.gate ? { gate: query.gate } : {}, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      ...pageWindow(query),
    });
    return pageOf(await this.presenter.presentFields(this.em, checks), total, query);
  }

  /**
   * A person's decision on one pair with stable differences of the current revision, before its review is submitted;
   * deciding again replaces it. Under the check's row lock, like the review, so neither can slip past the other.
   */
  async decidePair(
    principal: WorkspaceSession,
    id: string,
    artifactId: string,
    dto: PairDecisionRequestDto,
  ): Promise<ArtifactDto> {
    if (dto.decision === 'reject' && !dto.note) {
      throw ValidationFailed.field('note', 'is required to reject a pair: say what is wrong');
    }
    await this.em.transactional(async (em) => {
      const check = await this.lockForReview(em, id, dto.revision, 'decide');
      const artifact = await em.findOne(ReleaseCheckArtifact, { id: artifactId, check, revision: check.revision });
      if (!artifact) throw new NotFound('Artifact of the current revision');
      if (!needsDecision(artifact)) {
        throw new DomainError(
          'pair_has_no_differences',
          'This pair has no stable differences, so there is nothing to decide; the review records it as unchanged.',
        );
      }
      const reviewer = await em.findOneOrFail(User, { id: principal.userId }, { fields: ['email'] });
      artifact.decision = {
        decision: dto.decision === 'accept' ? 'accepted' : 'rejected',
        note: dto.note ?? null,
        decided_by: { id: principal.userId, email: reviewer.email },
        decided_at: new Date().toISOString(),
        carried_from_revision: null,
      };
      await this.refreshSummary(em, check);
    });
    const check = await this.owned(id);
    const presented = await this.presenter.present(this.em, check);
    return presented.artifacts.find((artifact) => artifact.id === artifactId)!;
  }

  /**
   * A person's documented decision on the current revision. Approving needs every pair with stable differences
   * accepted: after `carry_over` has accepted the pairs unchanged since an earlier acceptance, an undecided pair is
   * `review_incomplete` and a rejected one `pairs_rejected`. Rejecting is always possible. Taken under the check's row
   * lock, so a rerun or a second reviewer at the same moment cannot slip between the checks below and the write; a
   * refused review changes nothing (carried decisions included).
   */
  async review(principal: WorkspaceSession, id: string, dto: ReviewReleaseCheckDto): Promise<ReleaseCheckDto> {
    await this.em.transactional(async (em) => {
      const check = await this.lockForReview(em, id, dto.revision, dto.decision);
      if (dto.decision === 'approve') await this.assertDistinctReviewer(em, check, principal);
      const artifacts = await em.find(
        ReleaseCheckArtifact,
        { check, revision: check.revision },
        { orderBy: { pageIndex: 'asc', viewport: 'asc' } },
      );
      const reviewer = await em.findOneOrFail(User, { id: principal.userId }, { fields: ['email'] });
      if (dto.carry_over) await this.carryOver(em, check, artifacts, { id: principal.userId, email: reviewer.email });
      const pairs = reviewedPairs(check, artifacts);
      if (dto.decision === 'approve') assertAllAccepted(pairs);
      em.create(ReleaseCheckReview, {
        check,
        revision: check.revision,
        decision: dto.decision,
        note: dto.note,
        reviewer: em.getReference(User, principal.userId),
        scope: { pages: check.pages, viewports: check.viewports },
        pairs,
      });
      check.gate = gateOf(check.collectionStatus, dto.decision);
      check.summary = summarize(artifacts);
      await this.events.reviewed(em, check, dto.decision, { id: principal.userId, email: reviewer.email }, artifacts);
    });
    return this.get(id);
  }

  /** Collects everything again as revision + 1; the earlier revision's evidence and reviews stay as they were. */
  async rerun(id: string): Promise<ReleaseCheckDto> {
    const { check, artifacts } = await this.em.transactional(async (em) => {
      const locked = await em.findOne(ReleaseCheck, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!locked) throw new NotFound('Release check');
      locked.revision += 1;
      locked.collectionStatus = 'queued';
      locked.gate = 'pending';
      locked.summary = { ...EMPTY_SUMMARY };
      locked.completedAt = null;
      const fresh = this.artifactsFor(em, locked, locked.revision);
      em.persist(fresh);
      await this.events.started(em, locked);
      return { check: locked, artifacts: fresh };
    });
    await this.queue.enqueueCaptures(check, artifacts);
    return this.get(id);
  }

  /** Under the workspace's `require_distinct_reviewer`, whoever opened the check cannot be the one who approves it. */
  private async assertDistinctReviewer(
    em: EntityManager,
    check: ReleaseCheck,
    principal: WorkspacePrincipal,
  ): Promise<void> {
    const workspace = await em.findOneOrFail(Workspace, { id: check.workspace.id }, { fields: ['reviewPolicy'] });
    if (!workspace.reviewPolicy.require_distinct_reviewer) return;
    if (check.openedBy && check.openedBy.id === principal.userId) {
      throw new DomainError(
        'reviewer_not_distinct',
        'This workspace requires a second person: you opened this check (or created the key that did), so someone ' +
          'else must approve it.',
      );
    }
  }

  private artifactsFor(em: EntityManager, check: ReleaseCheck, revision: number): ReleaseCheckArtifact[] {
    return check.pages.flatMap((_page, pageIndex) =>
      check.viewports.map((viewport) => em.create(ReleaseCheckArtifact, { check, revision, pageIndex, viewport })),
    );
  }

  private async replay(earlier: ReleaseCheck, hash: string): Promise<CreatedReleaseCheck> {
    if (earlier.requestHash !== hash) {
      throw new DomainError(
        'request_key_reused',
        'This request_key was used for a different request. Use a new request_key when the pages or URLs change.',
        { release_check_id: earlier.id },
      );
    }
    return { check: await this.presenter.present(this.em, earlier), created: false };
  }

  /**
   * The check, row-locked, when the current revision can take a decision: `revision` is current, collection has
   * ended, the revision is not reviewed yet, and, except to reject, its evidence is complete.
   */
  private async lockForReview(
    em: EntityManager,
    id: string,
    revision: number,
    intent: ReviewDecision | 'decide',
  ): Promise<ReleaseCheck> {
    const check = await em.findOne(ReleaseCheck, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!check) throw new NotFound('Release check');
    if (revision !== check.revision) {
      throw new DomainError(
        'stale_revision',
        `Revision ${revision} is not current: the check is at revision ${check.revision}. Review its evidence.`,
        { current_revision: check.revision },
      );
    }
    if (check.collectionStatus === 'incomplete' && intent !== 'reject') {
      throw new DomainError(
        'release_check_incomplete',
        'Evidence is missing for this revision, so it cannot be approved; the gate stays failed. Fix the pages and rerun.',
      );
    }
    if (check.collectionStatus === 'queued' || check.collectionStatus === 'running') {
      throw new DomainError(
        'collection_in_progress',
        'Evidence is still being collected; review it when collection ends.',
      );
    }
    if (await em.count(ReleaseCheckReview, { check, revision: check.revision })) {
      throw new DomainError('already_reviewed', `Revision ${check.revision} has been reviewed; rerun to review again.`);
    }
    return check;
  }

  /**
   * Accepts, for `reviewer`, each undecided pair whose evidence is unchanged since an earlier acceptance, saying from
   * which revision. Part of the person's review, never on its own (decision 0013).
   */
  private async carryOver(
    em: EntityManager,
    check: ReleaseCheck,
    artifacts: ReleaseCheckArtifact[],
    reviewer: { id: string; email: string },
  ): Promise<void> {
    const earlier = await em.find(
      ReleaseCheckArtifact,
      { check, revision: { $lt: check.revision }, decision: { $ne: null } },
      { fields: ['pageIndex', 'viewport', 'revision', 'fingerprint', 'decision'] },
    );
    const decidedAt = new Date().toISOString();
    for (const artifact of artifacts) {
      if (artifact.decision !== null) continue;
      const since = unchangedSinceRevision(artifact, earlier);
      if (since === null) continue;
      artifact.decision = {
        decision: 'accepted',
        note: null,
        decided_by: reviewer,
        decided_at: decidedAt,
        carried_from_revision: since,
      };
    }
  }

  /** The stored counts after a pair's decision, so lists show what still awaits one. */
  private async refreshSummary(em: EntityManager, check: ReleaseCheck): Promise<void> {
    await em.flush();
    check.summary = summarize(await em.find(ReleaseCheckArtifact, { check, revision: check.revision }));
  }

  private async owned(id: string): Promise<ReleaseCheck> {
    const check = await this.em.findOne(ReleaseCheck, { id });
    if (!check) throw new NotFound('Release check');
    return check;
  }

  /** Both bases must resolve to public addresses (each navigation is checked again during capture). */
  private async assertTargetsPublic(request: NormalizedRequest): Promise<void> {
    for (const field of ['production_url', 'preview_url'] as const) {
      await assertPublicTarget(request[field], field, this.config.allowPrivateTargets);
    }
  }

  /** A file of an artifact (screenshot, diff image, rendered text) of one of the caller's checks. */
  async artifactFile(
    checkId: string,
    artifactId: string,
    name: ArtifactFileName,
  ): Promise<{ data: Buffer; contentType: string }> {
    const check = await this.owned(checkId);
    const artifact = await this.em.findOne(ReleaseCheckArtifact, { id: artifactId, check });
    if (!artifact) throw new NotFound('Artifact');
    const file = await this.files.read(artifact, name);
    if (!file) throw new NotFound(`${name} of this artifact`);
    return file;
  }
}

/** Approving needs every pair that needs a decision accepted: each undecided or rejected pair is named. */
function assertAllAccepted(pairs: ReviewedPair[]): void {
  const named = (outcome: ReviewedPair['outcome']) =>
    pairs
      .filter((pair) => pair.outcome === outcome)
      .map(({ artifact_id, production_path, preview_path, viewport }) => ({
        artifact_id,
        production_path,
        preview_path,
        viewport,
      }));
  const rejected = named('rejected');
  if (rejected.length > 0) {
    throw new DomainError(
      'pairs_rejected',
      `${rejected.length} pair(s) of this revision are rejected; reject the review instead, or decide them again.`,
      { pairs: rejected },
    );
  }
  const undecided = named('undecided');
  if (undecided.length > 0) {
    throw new DomainError(
      'review_incomplete',
      `${undecided.length} pair(s) with differences have no decision yet; accept or reject each before approving.`,
      { pairs: undecided },
    );
  }
}
