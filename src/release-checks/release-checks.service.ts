import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { WorkspacePrincipal, WorkspaceSession } from '../common/auth/principal';
import { assertPublicTarget } from '../common/targets/public-target';
import { recordEvent } from '../events/outbox';
import { DomainError, NotFound } from '../common/errors/domain-errors';
import { type Page, pageOf, pageWindow } from '../common/pagination/pagination';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/entities/workspace.entity';
import type { CreateReleaseCheckDto } from './dto/create-release-check.dto';
import type { ReleaseCheckDto, ReleaseCheckFieldsDto } from './dto/release-check.dto';
import type { ArtifactFileName, ListReleaseChecksQuery } from './dto/release-check-queries.dto';
import type { ReviewReleaseCheckDto } from './dto/review.dto';
import { ReleaseCheckArtifact } from './entities/release-check-artifact.entity';
import { ReleaseCheckReview } from './entities/release-check-review.entity';
import { EMPTY_SUMMARY, ReleaseCheck } from './entities/release-check.entity';
import { ReleaseCheckFiles, releaseCheckFolder } from './collection/release-check-files';
import { ReleaseCheckQueue } from './collection/release-check-queue';
import { ReleaseCheckPresenter } from './release-check.presenter';
import { type NormalizedRequest, normalizeRequest, requestHash } from './release-check-request';
import { gateOf } from './release-check-summary';

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
    });
    const artifacts = this.artifactsFor(this.em, check, 1);
    try {
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
   * A person's documented decision on the current revision. Taken under the check's row lock, so a rerun or a
   * second reviewer at the same moment cannot slip between the checks below and the write.
   */
  async review(principal: WorkspaceSession, id: string, dto: ReviewReleaseCheckDto): Promise<ReleaseCheckDto> {
    await this.em.transactional(async (em) => {
      const check = await em.findOne(ReleaseCheck, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!check) throw new NotFound('Release check');
      if (dto.revision !== check.revision) {
        throw new DomainError(
          'stale_revision',
          `Revision ${dto.revision} is not current: the check is at revision ${check.revision}. Review its evidence.`,
          { current_revision: check.revision },
        );
      }
      if (check.collectionStatus === 'incomplete' && dto.decision === 'approve') {
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
        throw new DomainError(
          'already_reviewed',
          `Revision ${check.revision} has been reviewed; rerun to review again.`,
        );
      }
      if (dto.decision === 'approve') await this.assertDistinctReviewer(em, check, principal);
      em.create(ReleaseCheckReview, {
        check,
        revision: check.revision,
        decision: dto.decision,
        note: dto.note,
        reviewer: em.getReference(User, principal.userId),
        scope: { pages: check.pages, viewports: check.viewports },
      });
      check.gate = gateOf(check.collectionStatus, dto.decision);
      recordEvent(em, {
        workspaceId: check.workspace.id,
        type: 'release_check.reviewed',
        data: {
          release_check_id: check.id,
          name: check.name,
          revision: check.revision,
          decision: dto.decision,
          gate: check.gate,
          reviewer_id: principal.userId,
        },
      });
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
