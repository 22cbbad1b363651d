import type { Viewport } from '../../../libs/capture';
import { VIEWPORTS } from '../viewports';
import {
  EnumArrayField,
  HttpUrlField,
  NestedArrayField,
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
}
