import { ApiProperty } from '@nestjs/swagger';
import type { Viewport } from '../../../libs/capture';
import { PageOf, PageQuery } from '../../common/pagination/pagination';
import { EnumArrayField, EnumField, TextField, UuidField } from '../../common/validation/fields';
import { FindingDto } from '../../release-checks/dto/release-check.dto';
import { VIEWPORTS } from '../../release-checks/viewports';
import { PersonDto } from '../../users/dto/user.dto';
import {
  A11Y_SCAN_STATUSES,
  type A11yScanFailure,
  type A11yScanStatus,
  type A11yScanSummary,
} from '../entities/a11y-scan.entity';

const FAILURE_REASONS = ['http_error', 'navigation_failed', 'timeout', 'target_not_public', 'capture_failed'];

export class StartA11yScanDto {
  @EnumArrayField(VIEWPORTS, 'Viewport', {
    optional: true,
    default: [...VIEWPORTS],
    description: 'The viewports to scan at; both by default.',
  })
  viewports?: Viewport[];
}

export class ListA11yScansQuery extends PageQuery {
  @EnumField(A11Y_SCAN_STATUSES, 'A11yScanStatus', { optional: true, description: 'Only scans in this status.' })
  status?: A11yScanStatus;
}

export class ListAllA11yScansQuery extends ListA11yScansQuery {
  @UuidField({ optional: true, description: 'Only scans of this monitor.' })
  monitor_id?: string;
}

export class AttestA11yScanDto {
  @TextField({ maxLength: 2000, description: 'What was checked, by whom and how (a documented attestation).' })
  note: string;
}

export class A11yScanFailureDto implements A11yScanFailure {
  @ApiProperty({ type: 'string', enum: FAILURE_REASONS })
  reason: A11yScanFailure['reason'];

  @ApiProperty({ type: 'integer', nullable: true, description: "The page's HTTP status, when it answered." })
  status_code: number | null;

  @ApiProperty({ type: 'string' })
  message: string;
}

export class ImpactCountsDto {
  @ApiProperty({ type: 'integer' })
  minor: number;

  @ApiProperty({ type: 'integer' })
  moderate: number;

  @ApiProperty({ type: 'integer' })
  serious: number;

  @ApiProperty({ type: 'integer' })
  critical: number;
}

export class A11yScanSummaryDto implements A11yScanSummary {
  @ApiProperty({ type: 'integer' })
  violations: number;

  @ApiProperty({ type: () => ImpactCountsDto })
  by_impact: ImpactCountsDto;

  @ApiProperty({ type: 'integer' })
  needs_review: number;

  @ApiProperty({ type: 'integer', nullable: true })
  new: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  fixed: number | null;
}

export class A11yScanDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  monitor_id: string;

  @ApiProperty({ type: 'string' })
  url: string;

  @ApiProperty({ enum: A11Y_SCAN_STATUSES, enumName: 'A11yScanStatus' })
  status: A11yScanStatus;

  @ApiProperty({ type: () => A11yScanFailureDto, nullable: true })
  failure: A11yScanFailureDto | null;

  @ApiProperty({ enum: VIEWPORTS, enumName: 'Viewport', isArray: true })
  viewports: Viewport[];

  @ApiProperty({ type: 'string', nullable: true })
  axe_version: string | null;

  @ApiProperty({ type: 'string', isArray: true })
  tags: string[];

  @ApiProperty({ type: () => A11yScanSummaryDto, nullable: true })
  summary: A11yScanSummaryDto | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  completed_at: string | null;
}

export const A11yScanListDto = PageOf(A11yScanDto, 'A11yScanList');

export class NewFindingDto extends FindingDto {
  @ApiProperty({ type: 'string', enum: ['regression', 'new_rule'] })
  cause: 'regression' | 'new_rule';
}

export class FindingsChangeDto {
  @ApiProperty({ type: () => [NewFindingDto] })
  new: NewFindingDto[];

  @ApiProperty({ type: () => [FindingDto] })
  fixed: FindingDto[];

  @ApiProperty({ type: 'integer' })
  unchanged: number;
}

export class A11yComparisonDto extends FindingsChangeDto {
  @ApiProperty({ enum: VIEWPORTS, enumName: 'Viewport', isArray: true })
  viewports: Viewport[];

  @ApiProperty({ type: 'boolean' })
  engine_version_mismatch: boolean;

  @ApiProperty({ type: () => FindingsChangeDto })
  needs_review: FindingsChangeDto;
}

export class A11yBaselineDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  scan_id: string;

  @ApiProperty({ type: () => PersonDto, nullable: true })
  attested_by: PersonDto | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  attested_at: string;

  @ApiProperty({ type: 'string' })
  note: string;

  @ApiProperty({ type: 'string' })
  axe_version: string;
}

export class A11yReportDto {
  @ApiProperty({ type: () => A11yScanDto })
  scan: A11yScanDto;

  @ApiProperty({ type: () => [FindingDto] })
  findings: FindingDto[];

  @ApiProperty({ type: () => [FindingDto] })
  needs_review: FindingDto[];

  @ApiProperty({ type: () => A11yBaselineDto, nullable: true })
  baseline: A11yBaselineDto | null;

  @ApiProperty({ type: () => A11yComparisonDto, nullable: true })
  comparison: A11yComparisonDto | null;
}

export class A11yAttestationDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  scan_id: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  monitor_id: string;

  @ApiProperty({ type: () => PersonDto })
  attested_by: PersonDto;

  @ApiProperty({ type: 'string', format: 'date-time' })
  attested_at: string;

  @ApiProperty({ type: 'string' })
  note: string;

  @ApiProperty({ type: 'string' })
  axe_version: string;
}
