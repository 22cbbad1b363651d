import type { SideEvidence, ValueComparison } from './types';

/**
 * Robots directives compared as a set: lowercased, split on commas, trimmed, sorted, duplicates dropped.
 * An empty content attribute carries no directives, so it equals an absent robots meta.
 */
export function compareRobots(production: string | null, preview: string | null): ValueComparison {
  return {
    production,
    preview,
    changed: normalizeRobots(production) !== normalizeRobots(preview),
  };
}

export function normalizeRobots(robots: string | null): string | null {
  if (robots === null) return null;
  const directives = robots
    .toLowerCase()
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');
  return directives.length === 0 ? null : [...new Set(directives)].sort().join(',');
}

/**
 * Canonical URLs compared after mapping the preview page's origin to the production page's origin: a preview
 * deployment's canonical normally names itself (or production), and either is the same canonical as production's.
 * Production's canonical is not mapped: production pointing at the preview host is a real defect.
 */
export function compareCanonical(
  production: Pick<SideEvidence, 'url' | 'canonical'>,
  preview: Pick<SideEvidence, 'url' | 'canonical'>,
): ValueComparison {
  const productionOrigin = originOf(production.url);
  const previewOrigin = originOf(preview.url);
  const originMap =
    productionOrigin !== null && previewOrigin !== null ? { from: previewOrigin, to: productionOrigin } : null;
  return {
    production: production.canonical,
    preview: preview.canonical,
    changed:
      normalizeCanonical(production.canonical, production.url, null) !==
      normalizeCanonical(preview.canonical, preview.url, originMap),
  };
}

interface OriginMap {
  from: string;
  to: string;
}

/** Absolute, serialized URL (relative hrefs resolved against the page), with `originMap` applied. */
function normalizeCanonical(canonical: string | null, pageUrl: string, originMap: OriginMap | null): string | null {
  if (canonical === null) return null;
  const trimmed = canonical.trim();
  let url: URL;
  try {
    url = new URL(trimmed, pageUrl);
  } catch {
    return trimmed; // Unparseable: compare verbatim.
  }
  if (originMap !== null && url.origin === originMap.from) {
    return `${originMap.to}${url.pathname}${url.search}${url.hash}`;
  }
  return url.href;
}

/** The page's origin, or null when it has none to map (unparseable or opaque, e.g. `data:`). */
function originOf(pageUrl: string): string | null {
  try {
    const origin = new URL(pageUrl).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
