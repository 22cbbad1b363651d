import type { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { placeFindings } from '../../libs/compare';
import { API_PREFIX } from '../http/version-alias.middleware';
import type {
  ArtifactDto,
  CaptureSideDto,
  ReleaseCheckDto,
  ReleaseCheckFieldsDto,
  ReviewDto,
  ReviewRecordDto,
} from './dto/release-check.dto';
import { ReleaseCheckArtifact, type Side } from './entities/release-check-artifact.entity';
import { ReleaseCheckReview } from './entities/release-check-review.entity';
import type { ReleaseCheck } from './entities/release-check.entity';
import { sideUrl } from './release-check-request';
import { needsDecision, pairFingerprint, unchangedSinceRevision } from './pair-review';
import { collectionStatusOf, gateOf, summarize } from './release-check-summary';

/** Turns release checks into their wire shape (openapi.yaml's ReleaseCheck). */
@Injectable()
export class ReleaseCheckPresenter {
  /** The check with one revision's artifacts and review (the current revision by default). */
  async present(em: EntityManager, check: ReleaseCheck, revision = check.revision): Promise<ReleaseCheckDto> {
    const [artifacts, earlier, reviews] = await Promise.all([
      em.find(ReleaseCheckArtifact, { check, revision }, { orderBy: { pageIndex: 'asc', viewport: 'asc' } }),
      // What earlier revisions accepted: enough to tell a pair "accepted in revision N, unchanged since".
      revision > 1
        ? em.find(
            ReleaseCheckArtifact,
            { check, revision: { $lt: revision }, decision: { $ne: null } },
            { fields: ['pageIndex', 'viewport', 'revision', 'fingerprint', 'decision'] },
          )
        : Promise.resolve([]),
      this.reviewsOf(em, [check]),
      em.populate(check, ['openedBy']),
    ]);
    const fields = this.fields(check, reviews.get(check.id) ?? [], revision);
    // Counts come from the artifacts themselves, so they show progress while collecting.
    fields.summary = summarize(artifacts);
    if (revision !== check.revision) {
      // An earlier revision: its outcome comes from its own artifacts and review, not from the current run. One
      // superseded while collecting never finishes: its evidence is incomplete.
      const derived = collectionStatusOf(artifacts);
      const status = derived === 'completed' ? 'completed' : 'incomplete';
      fields.collection_status = status;
      fields.gate = gateOf(status, fields.review.decision?.decision ?? null);
      if (!fields.review.decision && status === 'incomplete') fields.review.status = 'cannot_approve';
      fields.completed_at = null;
    }
    return { ...fields, artifacts: artifacts.map((artifact) => this.artifact(check, artifact, earlier)) };
  }

  /** Checks without artifacts, for lists; reviews are loaded in one query for the whole page. */
  async presentFields(em: EntityManager, checks: ReleaseCheck[]): Promise<ReleaseCheckFieldsDto[]> {
    const [reviews] = await Promise.all([this.reviewsOf(em, checks), em.populate(checks, ['openedBy'])]);
    return checks.map((check) => this.fields(check, reviews.get(check.id) ?? [], check.revision));
  }

  private async reviewsOf(em: EntityManager, checks: ReleaseCheck[]): Promise<Map<string, ReleaseCheckReview[]>> {
    const byCheck = new Map<string, ReleaseCheckReview[]>();
    if (!checks.length) return byCheck;
    const reviews = await em.find(
      ReleaseCheckReview,
      { check: { $in: checks } },
      { populate: ['reviewer'], orderBy: { decidedAt: 'asc' } },
    );
    for (const review of reviews) {
      const list = byCheck.get(review.check.id) ?? [];
      list.push(review);
      byCheck.set(review.check.id, list);
    }
    return byCheck;
  }

  private fields(check: ReleaseCheck, reviews: ReleaseCheckReview[], revision: number): ReleaseCheckFieldsDto {
    return {
      id: check.id,
      name: check.name,
      request_key: check.requestKey,
      production_url: check.productionUrl,
      preview_url: check.previewUrl,
      pages: check.pages,
      viewports: check.viewports,
      mask_selectors: check.maskSelectors,
      mismatch_threshold: check.mismatchThreshold,
      revision,
      collection_status: check.collectionStatus,
      gate: check.gate,
      review: this.review(check, reviews, revision),
      summary: {
        ...check.summary,
        unstable: check.summary.unstable ?? 0,
        awaiting_decision: check.summary.awaiting_decision ?? check.summary.with_differences,
      },
      review_url: `/release-checks/${check.id}`,
      opened_by: check.openedBy && {
        id: check.openedBy.id,
        email: check.openedBy.email,
        api_key_id: check.openedByKeyId,
      },
      source: check.source,
      created_at: check.createdAt.toISOString(),
      updated_at: check.updatedAt.toISOString(),
      completed_at: check.completedAt?.toISOString() ?? null,
    };
  }

  private review(check: ReleaseCheck, reviews: ReleaseCheckReview[], revision: number): ReviewDto {
    const history = reviews.map((review) => this.record(review));
    const decision = history.find((record) => record.revision === revision) ?? null;
    let status: ReviewDto['status'] = 'awaiting_review';
    if (decision) status = decision.decision === 'approve' ? 'approved' : 'rejected';
    else if (revision === check.revision && check.collectionStatus === 'incomplete') status = 'cannot_approve';
    return { status, revision, decision, history };
  }

  private record(review: ReleaseCheckReview): ReviewRecordDto {
    return {
      revision: review.revision,
      decision: review.decision,
      note: review.note,
      reviewer: { id: review.reviewer.id, email: review.reviewer.email },
      scope: review.scope,
      decided_at: review.decidedAt.toISOString(),
      pairs: review.pairs,
    };
  }

  private artifact(
    check: ReleaseCheck,
    artifact: ReleaseCheckArtifact,
    earlier: Parameters<typeof unchangedSinceRevision>[1],
  ): ArtifactDto {
    const page = check.pages[artifact.pageIndex];
    const files = `${API_PREFIX}/release-checks/${check.id}/artifacts/${artifact.id}`;
    const comparison = artifact.comparison;
    return {
      id: artifact.id,
      page_index: artifact.pageIndex,
      production_path: page.production_path,
      preview_path: page.preview_path,
      viewport: artifact.viewport,
      state: artifact.state,
      production: this.side(artifact, 'production', sideUrl(check, artifact.pageIndex, 'production'), files),
      preview: this.side(artifact, 'preview', sideUrl(check, artifact.pageIndex, 'preview'), files),
      comparison: comparison && {
        has_differences: comparison.has_differences,
        text: comparison.text,
        robots: comparison.robots,
        canonical: comparison.canonical,
        screenshot: {
          mismatch_ratio: comparison.screenshot.mismatch_ratio,
          changed: comparison.screenshot.changed,
          diff_url: comparison.screenshot.diff_key ? `${files}/diff.png` : null,
        },
        findings: {
          ...comparison.findings,
          new: placeFindings(comparison.findings.new, artifact.viewport),
          fixed: placeFindings(comparison.findings.fixed, artifact.viewport),
        },
        // Comparisons recorded before second looks existed have no such field: nobody looked again.
        unstable: comparison.unstable
          ? { ...comparison.unstable, findings: placeFindings(comparison.unstable.findings, artifact.viewport) }
          : null,
      },
      fingerprint: pairFingerprint(artifact),
      needs_decision: needsDecision(artifact),
      unchanged_since_revision: unchangedSinceRevision(artifact, earlier),
      decision: artifact.decision,
    };
  }

  private side(artifact: ReleaseCheckArtifact, side: Side, url: string, files: string): CaptureSideDto {
    const record = artifact[side];
    const empty = {
      robots: null,
      canonical: null,
      required_selector_found: null,
      findings: [],
      axe_version: null,
      screenshot_url: null,
      text_url: null,
    };
    if (!record) {
      return { state: 'pending', url, final_url: null, status: null, ...empty, missing: null, captured_at: null };
    }
    if (record.state === 'missing') {
      return {
        state: 'missing',
        url: record.url,
        final_url: record.final_url,
        status: record.status,
        ...empty,
        missing: { reason: record.reason, message: record.message },
        captured_at: record.captured_at,
      };
    }
    return {
      state: 'captured',
      url: record.url,
      final_url: record.final_url,
      status: record.status,
      robots: record.robots,
      canonical: record.canonical,
      required_selector_found: record.required_selector_found,
      findings: placeFindings(record.findings, artifact.viewport),
      axe_version: record.axe_version,
      screenshot_url: `${files}/${side}.png`,
      text_url: `${files}/${side}.txt`,
      missing: null,
      captured_at: record.captured_at,
    };
  }
}
