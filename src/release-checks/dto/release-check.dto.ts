import { ApiProperty } from '@nestjs/swagger';
import type { Viewport } from '../../../libs/capture';
import { PageOf } from '../../common/pagination/pagination';
import {
  type ArtifactState,
  PAIR_DECISIONS,
  type PairDecisionOutcome,
} from '../entities/release-check-artifact.entity';
import {
  REVIEW_DECISIONS,
  REVIEWED_PAIR_OUTCOMES,
  type ReviewDecision,
  type ReviewedPairOutcome,
} from '../entities/release-check-review.entity';
import { COLLECTION_STATUSES, type CollectionStatus, type Gate, GATES } from '../entities/release-check.entity';
import { VIEWPORTS } from '../viewports';
import { SOURCE_PROVIDERS, type SourceProvider } from './create-release-check.dto';

const nullableString = { type: 'string', nullable: true } as const;

export const MISSING_REASONS = [
  'http_error',
  'navigation_failed',
  'timeout',
  'required_selector_missing',
  'target_not_public',
  'capture_failed',
] as const;
export const REVIEW_STATUSES = ['awaiting_review', 'approved', 'rejected', 'cannot_approve'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export class FindingDto {
  @ApiProperty({ type: 'string' })
  rule_id: string;

  @ApiProperty({ type: 'string', enum: ['minor', 'moderate', 'serious', 'critical'], nullable: true })
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;

  @ApiProperty({ type: 'string' })
  help: string;

  @ApiProperty({ type: 'string' })
  help_url: string;

  @ApiProperty({ type: 'string', description: "The element's selector path (through iframes and shadow roots)." })
  target: string;

  @ApiProperty({ enum: VIEWPORTS, enumName: 'Viewport' })
  viewport: Viewport;

  @ApiProperty({ type: 'string', description: "The finding's identity across scans and sides." })
  fingerprint: string;
}

export class MissingEvidenceDto {
  @ApiProperty({ type: 'string', enum: MISSING_REASONS })
  reason: (typeof MISSING_REASONS)[number];

  @ApiProperty({ type: 'string' })
  message: string;
}

export class CaptureSideDto {
  @ApiProperty({ type: 'string', enum: ['pending', 'captured', 'missing'] })
  state: 'pending' | 'captured' | 'missing';

  @ApiProperty({ type: 'string' })
  url: string;

  @ApiProperty(nullableString)
  final_url: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'HTTP status of the main document.' })
  status: number | null;

  @ApiProperty(nullableString)
  robots: string | null;

  @ApiProperty(nullableString)
  canonical: string | null;

  @ApiProperty({ type: 'boolean', nullable: true })
  required_selector_found: boolean | null;

  @ApiProperty({ type: () => [FindingDto] })
  findings: FindingDto[];

  @ApiProperty(nullableString)
  axe_version: string | null;

  @ApiProperty(nullableString)
  screenshot_url: string | null;

  @ApiProperty(nullableString)
  text_url: string | null;

  @ApiProperty({ type: () => MissingEvidenceDto, nullable: true })
  missing: MissingEvidenceDto | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  captured_at: string | null;
}

export class TextDifferenceDto {
  @ApiProperty({ type: 'boolean' })
  changed: boolean;

  @ApiProperty({ type: 'string', isArray: true })
  added: string[];

  @ApiProperty({ type: 'string', isArray: true })
  removed: string[];

  @ApiProperty({ type: 'boolean' })
  truncated: boolean;
}

export class ValueDifferenceDto {
  @ApiProperty(nullableString)
  production: string | null;

  @ApiProperty(nullableString)
  preview: string | null;

  @ApiProperty({ type: 'boolean' })
  changed: boolean;
}

export class ScreenshotDifferenceDto {
  @ApiProperty({ type: 'number', description: 'Share of differing pixels, 0 to 1.' })
  mismatch_ratio: number;

  @ApiProperty({ type: 'boolean' })
  changed: boolean;

  @ApiProperty(nullableString)
  diff_url: string | null;
}

export class FindingsDifferenceDto {
  @ApiProperty({ type: () => [FindingDto] })
  new: FindingDto[];

  @ApiProperty({ type: () => [FindingDto] })
  fixed: FindingDto[];

  @ApiProperty({ type: 'integer' })
  unchanged: number;

  @ApiProperty({ type: 'boolean' })
  engine_version_mismatch: boolean;
}

export class ScreenshotRegionDto {
  @ApiProperty({ type: 'integer' })
  x: number;

  @ApiProperty({ type: 'integer' })
  y: number;

  @ApiProperty({ type: 'integer' })
  width: number;

  @ApiProperty({ type: 'integer' })
  height: number;
}

export class UnstableEvidenceDto {
  @ApiProperty({ type: [String] })
  lines: string[];

  @ApiProperty({ type: () => [ScreenshotRegionDto] })
  regions: ScreenshotRegionDto[];

  @ApiProperty({ type: 'boolean' })
  robots: boolean;

  @ApiProperty({ type: 'boolean' })
  canonical: boolean;

  @ApiProperty({ type: () => [FindingDto] })
  findings: FindingDto[];
}

export class ComparisonDto {
  @ApiProperty({ type: 'boolean' })
  has_differences: boolean;

  @ApiProperty({ type: () => TextDifferenceDto })
  text: TextDifferenceDto;

  @ApiProperty({ type: () => ValueDifferenceDto })
  robots: ValueDifferenceDto;

  @ApiProperty({ type: () => ValueDifferenceDto })
  canonical: ValueDifferenceDto;

  @ApiProperty({ type: () => ScreenshotDifferenceDto })
  screenshot: ScreenshotDifferenceDto;

  @ApiProperty({ type: () => FindingsDifferenceDto })
  findings: FindingsDifferenceDto;

  @ApiProperty({ type: () => UnstableEvidenceDto, nullable: true })
  unstable: UnstableEvidenceDto | null;
}

export class ReviewerDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'email' })
  email: string;
}

export class PairDecisionDto {
  @ApiProperty({ enum: PAIR_DECISIONS, enumName: 'PairDecisionOutcome' })
  decision: PairDecisionOutcome;

  @ApiProperty(nullableString)
  note: string | null;

  @ApiProperty({ type: () => ReviewerDto })
  decided_by: ReviewerDto;

  @ApiProperty({ type: 'string', format: 'date-time' })
  decided_at: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The revision whose acceptance the reviewer carried over to this one; null when decided here.',
  })
  carried_from_revision: number | null;
}

export class ArtifactDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'integer' })
  page_index: number;

  @ApiProperty({ type: 'string' })
  production_path: string;

  @ApiProperty({ type: 'string' })
  preview_path: string;

  @ApiProperty({ enum: VIEWPORTS, enumName: 'Viewport' })
  viewport: Viewport;

  @ApiProperty({ type: 'string', enum: ['collecting', 'compared', 'missing'] })
  state: ArtifactState;

  @ApiProperty({ type: () => CaptureSideDto })
  production: CaptureSideDto;

  @ApiProperty({ type: () => CaptureSideDto })
  preview: CaptureSideDto;

  @ApiProperty({ type: () => ComparisonDto, nullable: true })
  comparison: ComparisonDto | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      "A digest of the pair's evidence; equal fingerprints show a reviewer the same thing. Null while collecting.",
  })
  fingerprint: string | null;

  @ApiProperty({
    type: 'boolean',
    description: 'The pair has stable differences, so a reviewer must accept or reject it before approving.',
  })
  needs_decision: boolean;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The earliest earlier revision in which a pair with the same fingerprint was accepted.',
  })
  unchanged_since_revision: number | null;

  @ApiProperty({
    type: () => PairDecisionDto,
    nullable: true,
    description: "The reviewer's decision on this pair in this revision, once made.",
  })
  decision: PairDecisionDto | null;
}

export class PagePairDto {
  @ApiProperty({ type: 'string' })
  production_path: string;

  @ApiProperty({ type: 'string' })
  preview_path: string;

  @ApiProperty(nullableString)
  required_selector: string | null;
}

export class ReviewScopeDto {
  @ApiProperty({ type: () => [PagePairDto] })
  pages: PagePairDto[];

  @ApiProperty({ enum: VIEWPORTS, enumName: 'Viewport', isArray: true })
  viewports: Viewport[];
}

export class ReviewedPairDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  artifact_id: string;

  @ApiProperty({ type: 'string' })
  production_path: string;

  @ApiProperty({ type: 'string' })
  preview_path: string;

  @ApiProperty({ enum: VIEWPORTS, enumName: 'Viewport' })
  viewport: Viewport;

  @ApiProperty({ type: 'string', enum: REVIEWED_PAIR_OUTCOMES })
  outcome: ReviewedPairOutcome;

  @ApiProperty(nullableString)
  note: string | null;

  @ApiProperty({ type: () => ReviewerDto, nullable: true })
  decided_by: ReviewerDto | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  decided_at: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  carried_from_revision: number | null;
}

export class ReviewRecordDto {
  @ApiProperty({ type: 'integer' })
  revision: number;

  @ApiProperty({ enum: REVIEW_DECISIONS, enumName: 'ReviewDecision' })
  decision: ReviewDecision;

  @ApiProperty({ type: 'string' })
  note: string;

  @ApiProperty({ type: () => ReviewerDto })
  reviewer: ReviewerDto;

  @ApiProperty({ type: () => ReviewScopeDto })
  scope: ReviewScopeDto;

  @ApiProperty({ type: 'string', format: 'date-time' })
  decided_at: string;

  @ApiProperty({ type: () => [ReviewedPairDto] })
  pairs: ReviewedPairDto[];
}

export class ReviewDto {
  @ApiProperty({ enum: REVIEW_STATUSES, enumName: 'ReviewStatus' })
  status: ReviewStatus;

  @ApiProperty({ type: 'integer' })
  revision: number;

  @ApiProperty({ type: () => ReviewRecordDto, nullable: true })
  decision: ReviewRecordDto | null;

  @ApiProperty({ type: () => [ReviewRecordDto] })
  history: ReviewRecordDto[];
}

export class ReleaseCheckSummaryDto {
  @ApiProperty({ type: 'integer', description: 'Page pairs times viewports.' })
  pairs: number;

  @ApiProperty({ type: 'integer', description: 'Pairs whose two sides were captured and compared.' })
  captured: number;

  @ApiProperty({ type: 'integer', description: 'Pairs with missing evidence on either side.' })
  missing: number;

  @ApiProperty({ type: 'integer' })
  with_differences: number;

  @ApiProperty({ type: 'integer' })
  unstable: number;

  @ApiProperty({ type: 'integer' })
  awaiting_decision: number;

  @ApiProperty({ type: 'integer' })
  new_findings: number;
}

export class ReleaseCheckSourceDto {
  @ApiProperty({ enum: SOURCE_PROVIDERS, enumName: 'SourceProvider' })
  provider: SourceProvider;

  @ApiProperty({ type: 'string' })
  repository: string;

  @ApiProperty({ type: 'string', description: 'Lower case.' })
  commit_sha: string;

  @ApiProperty({ type: 'integer', required: false })
  pull_request?: number;

  @ApiProperty({ type: 'string', required: false })
  branch?: string;
}

export class ReleaseCheckOpenerDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'email' })
  email: string;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  api_key_id: string | null;
}

export class ReleaseCheckFieldsDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string' })
  name: string;

  @ApiProperty({ type: 'string' })
  request_key: string;

  @ApiProperty({ type: 'string' })
  production_url: string;

  @ApiProperty({ type: 'string' })
  preview_url: string;

  @ApiProperty({ type: () => [PagePairDto] })
  pages: PagePairDto[];

  @ApiProperty({ enum: VIEWPORTS, enumName: 'Viewport', isArray: true })
  viewports: Viewport[];

  @ApiProperty({ type: 'string', isArray: true })
  mask_selectors: string[];

  @ApiProperty({ type: 'number' })
  mismatch_threshold: number;

  @ApiProperty({ type: 'integer', description: 'Starts at 1; each rerun adds 1. Record it with any approval.' })
  revision: number;

  @ApiProperty({ enum: COLLECTION_STATUSES, enumName: 'CollectionStatus' })
  collection_status: CollectionStatus;

  @ApiProperty({ enum: GATES, enumName: 'Gate' })
  gate: Gate;

  @ApiProperty({ type: () => ReviewDto })
  review: ReviewDto;

  @ApiProperty({ type: () => ReleaseCheckSummaryDto })
  summary: ReleaseCheckSummaryDto;

  @ApiProperty({ type: 'string', description: 'Where a person reviews the check in the web interface.' })
  review_url: string;

  @ApiProperty({
    type: () => ReleaseCheckOpenerDto,
    nullable: true,
    description: 'Who opened the check, and with which key (null when a session opened it).',
  })
  opened_by: ReleaseCheckOpenerDto | null;

  @ApiProperty({
    type: () => ReleaseCheckSourceDto,
    nullable: true,
    description: 'Where the checked change comes from, as the request named it; null when it named none.',
  })
  source: ReleaseCheckSourceDto | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  completed_at: string | null;
}

export class ReleaseCheckDto extends ReleaseCheckFieldsDto {
  @ApiProperty({ type: () => [ArtifactDto] })
  artifacts: ArtifactDto[];
}

export const ReleaseCheckListDto = PageOf(ReleaseCheckFieldsDto, 'ReleaseCheckList');
