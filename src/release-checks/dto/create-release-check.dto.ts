import type { Viewport } from '../../../libs/capture';
import { CODE_HOST_PROVIDERS, type CodeHostProvider } from '../../alerts/entities/alert-destination.entity';
import { VIEWPORTS } from '../viewports';
import {
  EnumArrayField,
  EnumField,
  HttpUrlField,
  IntField,
  NestedArrayField,
  NestedField,
  NumberField,
  TextArrayField,
  TextField,
  UrlPathField,
} from '../../common/validation/fields';

export class PagePairRequestDto {
  @UrlPathField({ description: 'Path (and optional query) on the production base URL; starts with `/`.' })
  production_path: string;

  @UrlPathField({ description: 'Path (and optional query) on the preview base URL; starts with `/`.' })
  preview_path: string;

  @TextField({
    optional: true,
    maxLength: 500,
    description: 'A CSS selector that must match on both sides; checks presence only, not a user journey.',
  })
  required_selector?: string;
}

/** The code hosts a release check's source can name: those Vigil can report to. */
export const SOURCE_PROVIDERS = CODE_HOST_PROVIDERS;
export type SourceProvider = CodeHostProvider;

export class ReleaseCheckSourceRequestDto {
  @EnumField(SOURCE_PROVIDERS, 'SourceProvider')
  provider: SourceProvider;

  @TextField({
    minLength: 3,
    maxLength: 255,
    pattern: { source: '^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)+$', message: 'must be a path like owner/name' },
    description: "`owner/name` on GitHub; the project's full path on GitLab (`group/subgroup/project`).",
  })
  repository: string;

  @TextField({
    minLength: 40,
    maxLength: 64,
    pattern: {
      source: '^([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$',
      message: 'must be a full commit hash (40 or 64 hex digits)',
    },
    description: 'The full commit hash (40 hex digits, or 64 for SHA-256 repositories); stored in lower case.',
  })
  commit_sha: string;

  @IntField({
    optional: true,
    min: 1,
    max: 2_147_483_647,
    description: "The pull request's number (GitHub) or the merge request's IID (GitLab).",
  })
  pull_request?: number;

  @TextField({ optional: true, maxLength: 255 })
  branch?: string;
}

export class CreateReleaseCheckDto {
  @TextField({ maxLength: 200 })
  name: string;

  @HttpUrlField({ description: 'Public http(s) base URL of the production site, without credentials.' })
  production_url: string;

  @HttpUrlField({ description: 'Public http(s) base URL of the preview site, without credentials.' })
  preview_url: string;

  @TextField({
    maxLength: 200,
    description: 'Unique per comparison. Retry with the same key; use a new key when pages or URLs change.',
  })
  request_key: string;

  @NestedArrayField(() => PagePairRequestDto, { minItems: 1, maxItems: 200 })
  pages: PagePairRequestDto[];

  @EnumArrayField(VIEWPORTS, 'Viewport', { optional: true, default: [...VIEWPORTS], description: 'Both by default.' })
  viewports?: Viewport[];

  @TextArrayField({
    optional: true,
    maxItems: 20,
    maxLength: 500,
    description: 'Elements painted over in both screenshots before comparing (dates, ads, personalisation).',
  })
  mask_selectors?: string[];

  @NumberField({
    optional: true,
    min: 0,
    max: 1,
    default: 0,
    description: 'Share of differing pixels (0 to 1) up to which screenshots count as the same.',
  })
  mismatch_threshold?: number;

  @NestedField(() => ReleaseCheckSourceRequestDto, { optional: true })
  source?: ReleaseCheckSourceRequestDto;
}
