import { createHash } from 'node:crypto';
import type { Viewport } from '../../libs/capture';
import { ValidationFailed } from '../common/errors/domain-errors';
import type { CreateReleaseCheckDto } from './dto/create-release-check.dto';
import type { PagePair, ReleaseCheckSource } from './entities/release-check.entity';
import { VIEWPORTS } from './viewports';

/** A release-check request with its defaults applied: what is stored, and what `request_key` is bound to. */
export interface NormalizedRequest {
  name: string;
  production_url: string;
  preview_url: string;
  pages: PagePair[];
  viewports: Viewport[];
  mask_selectors: string[];
  mismatch_threshold: number;
  source: ReleaseCheckSource | null;
}

/** A base URL without a trailing slash; it may carry a path prefix (a preview deployed under /pr-42). */
function normalizeBase(field: string, value: string): string {
  const url = new URL(value);
  if (url.search || url.hash) throw ValidationFailed.field(field, 'must be a base URL without a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function normalizeRequest(dto: CreateReleaseCheckDto): NormalizedRequest {
  const requested = new Set(dto.viewports ?? VIEWPORTS);
  return {
    name: dto.name,
    production_url: normalizeBase('production_url', dto.production_url),
    preview_url: normalizeBase('preview_url', dto.preview_url),
    pages: dto.pages.map((page) => ({
      production_path: page.production_path,
      preview_path: page.preview_path,
      required_selector: page.required_selector ?? null,
    })),
    viewports: VIEWPORTS.filter((viewport) => requested.has(viewport)),
    mask_selectors: dto.mask_selectors ?? [],
    mismatch_threshold: dto.mismatch_threshold ?? 0,
    source: dto.source ? normalizeSource(dto.source) : null,
  };
}

/**
 * The source with its fields in one order, the commit in lower case, and what was left out absent. A repository is a
 * path of real names (no `.` or `..`, which would address another path on the code host), `owner/name` on GitHub.
 */
function normalizeSource(source: NonNullable<CreateReleaseCheckDto['source']>): ReleaseCheckSource {
  const segments = source.repository.split('/');
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    throw ValidationFailed.field('source.repository', 'must not contain . or .. as a path segment');
  }
  if (source.provider === 'github' && segments.length !== 2) {
    throw ValidationFailed.field('source.repository', 'must be owner/name on GitHub');
  }
  return {
    provider: source.provider,
    repository: source.repository,
    commit_sha: source.commit_sha.toLowerCase(),
    ...(source.pull_request !== undefined ? { pull_request: source.pull_request } : {}),
    ...(source.branch !== undefined ? { branch: source.branch } : {}),
  };
}

/** The same request always hashes the same, whatever the key order or omitted defaults of the JSON sent. */
export function requestHash(request: NormalizedRequest): string {
  const canonical = JSON.stringify([
    request.name,
    request.production_url,
    request.preview_url,
    request.pages.map((page) => [page.production_path, page.preview_path, page.required_selector]),
    request.viewports,
    request.mask_selectors,
    request.mismatch_threshold,
    // Appended only when present: the hashes of checks opened before sources existed stay what they were.
    ...(request.source ? [request.source] : []),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** The page's URL on one side: the base (with any path prefix) followed by the page's path and query. */
export function pageUrl(base: string, path: string): string {
  return `${base}${path}`;
}

/** The URL of a check's page on one side. */
export function sideUrl(
  check: { productionUrl: string; previewUrl: string; pages: PagePair[] },
  pageIndex: number,
  side: 'production' | 'preview',
): string {
  const page = check.pages[pageIndex];
  return side === 'production'
    ? pageUrl(check.productionUrl, page.production_path)
    : pageUrl(check.previewUrl, page.preview_path);
}
