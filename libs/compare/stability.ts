import { differenceByFingerprint, fingerprint } from './findings';
import { differingRegions } from './screenshot-worker';
import { readPngSize } from './screenshots';
import { compareText, MAX_TEXT_DIFF_LINES } from './text';
import type { CompareOptions, EvidenceComparison, Finding, Region, SideEvidence, UnstableEvidence } from './types';
import { compareCanonical, compareRobots } from './values';
import { compareEvidence } from './evidence';

/** At most this many unstable regions are reported; beyond it, regions close together are merged. */
export const MAX_UNSTABLE_REGIONS = 50;

/**
 * How far an area seen moving is widened, in px. Two looks at one side taken a moment apart agree on more than two
 * looks at different sites do: a timestamp's seconds are the same within a side and differ across sides. What sits
 * this close to moving pixels (the rest of the text run, the next digit) is taken to move with them.
 */
const MOVING_MARGIN = { x: 48, y: 16 };

const findingKey = (finding: Finding) => fingerprint(finding, '');

/**
 * What differs between looks at one side (captures of one URL, moments apart): the lines, screenshot areas, robots,
 * canonical and findings that are not the same in every look. Empty when every look is the same.
 */
export async function instabilityOf(looks: SideEvidence[]): Promise<UnstableEvidence> {
  const unstable = emptyInstability();
  const [first, ...others] = looks;
  if (!first) return unstable;
  const lines = new Set<string>();
  const findings = new Map<string, Finding>();
  for (const other of others) {
    const text = compareText(first.text, other.text);
    for (const line of [...text.removed, ...text.added]) lines.add(line);
    if (!first.screenshot.equals(other.screenshot)) {
      const bounds = largerSize(first.screenshot, other.screenshot);
      const moved = await differingRegions(first.screenshot, other.screenshot);
      unstable.regions.push(...moved.map((region) => widened(region, bounds)));
    }
    unstable.robots ||= compareRobots(first.robots, other.robots).changed;
    unstable.canonical ||= compareCanonical(first, other).changed;
    const moved = differenceByFingerprint(first.findings, other.findings, findingKey);
    for (const finding of [...moved.removed, ...moved.added]) findings.set(findingKey(finding), finding);
  }
  unstable.lines = [...lines].slice(0, MAX_TEXT_DIFF_LINES);
  unstable.regions = mergeRegions(unstable.regions, MAX_UNSTABLE_REGIONS);
  unstable.findings = [...findings.values()];
  return unstable;
}

/** Both sides' instability as one: what moves on either side is left out of the comparison on both. */
export function combineInstability(...parts: UnstableEvidence[]): UnstableEvidence {
  const lines = [...new Set(parts.flatMap((part) => part.lines))].slice(0, MAX_TEXT_DIFF_LINES);
  const findings = new Map(parts.flatMap((part) => part.findings.map((finding) => [findingKey(finding), finding])));
  return {
    lines,
    regions: mergeRegions(
      parts.flatMap((part) => part.regions),
      MAX_UNSTABLE_REGIONS,
    ),
    robots: parts.some((part) => part.robots),
    canonical: parts.some((part) => part.canonical),
    findings: [...findings.values()],
  };
}

export function isStable(unstable: UnstableEvidence): boolean {
  return (
    unstable.lines.length === 0 &&
    unstable.regions.length === 0 &&
    !unstable.robots &&
    !unstable.canonical &&
    unstable.findings.length === 0
  );
}

/**
 * Production against preview when each side was looked at more than once (the first look of each is the evidence):
 * what differs between the looks of either side is `unstable`, reported apart and left out of every difference, so
 * `has_differences` holds only differences that survived the second look. With one look per side, this is
 * compareEvidence.
 */
export async function compareLooks(
  production: SideEvidence[],
  preview: SideEvidence[],
  options: CompareOptions = {},
): Promise<EvidenceComparison> {
  const [productionFirst] = production;
  const [previewFirst] = preview;
  if (!productionFirst || !previewFirst) throw new RangeError('each side needs at least one look');
  if (production.length === 1 && preview.length === 1) return compareEvidence(productionFirst, previewFirst, options);

  const unstable = combineInstability(await instabilityOf(production), await instabilityOf(preview));
  const raw = await compareEvidence(productionFirst, previewFirst, {
    ...options,
    ignoreRegions: [...(options.ignoreRegions ?? []), ...unstable.regions],
  });
  const movingLines = new Set(unstable.lines);
  const added = raw.text.added.filter((line) => !movingLines.has(line));
  const removed = raw.text.removed.filter((line) => !movingLines.has(line));
  const movingFindings = new Set(unstable.findings.map(findingKey));
  const text = { ...raw.text, added, removed, changed: added.length > 0 || removed.length > 0 };
  const robots = { ...raw.robots, changed: raw.robots.changed && !unstable.robots };
  const canonical = { ...raw.canonical, changed: raw.canonical.changed && !unstable.canonical };
  const findings = {
    ...raw.findings,
    new: raw.findings.new.filter((finding) => !movingFindings.has(findingKey(finding))),
    fixed: raw.findings.fixed.filter((finding) => !movingFindings.has(findingKey(finding))),
  };
  return {
    text,
    robots,
    canonical,
    screenshot: raw.screenshot,
    findings,
    has_differences:
      text.changed ||
      robots.changed ||
      canonical.changed ||
      raw.screenshot.changed ||
      findings.new.length > 0 ||
      findings.fixed.length > 0,
    unstable,
  };
}

function largerSize(one: Buffer, two: Buffer): { width: number; height: number } {
  const [a, b] = [readPngSize(one), readPngSize(two)];
  return { width: Math.max(a.width, b.width), height: Math.max(a.height, b.height) };
}

/** The region with MOVING_MARGIN around it, within the image. */
function widened(region: Region, bounds: { width: number; height: number }): Region {
  const x = Math.max(0, region.x - MOVING_MARGIN.x);
  const y = Math.max(0, region.y - MOVING_MARGIN.y);
  const right = Math.min(bounds.width, region.x + region.width + MOVING_MARGIN.x);
  const bottom = Math.min(bounds.height, region.y + region.height + MOVING_MARGIN.y);
  return { x, y, width: right - x, height: bottom - y };
}

function emptyInstability(): UnstableEvidence {
  return { lines: [], regions: [], robots: false, canonical: false, findings: [] };
}

/**
 * Regions as few as `max` at most: overlapping or touching ones are joined first, then, while too many remain, the
 * two whose joined box adds the least area.
 */
export function mergeRegions(regions: Region[], max: number): Region[] {
  let merged = joinTouching(regions);
  while (merged.length > max) {
    let best: { i: number; j: number; cost: number } | null = null;
    for (let i = 0; i < merged.length; i++) {
      for (let j = i + 1; j < merged.length; j++) {
        const box = boundingBox(merged[i], merged[j]);
        const cost = area(box) - area(merged[i]) - area(merged[j]);
        if (!best || cost < best.cost) best = { i, j, cost };
      }
    }
    if (!best) break;
    const box = boundingBox(merged[best.i], merged[best.j]);
    merged = joinTouching([...merged.filter((_, index) => index !== best.i && index !== best.j), box]);
  }
  return merged.sort((a, b) => a.y - b.y || a.x - b.x);
}

function joinTouching(regions: Region[]): Region[] {
  const result = regions.map((region) => ({ ...region }));
  for (let joined = true; joined;) {
    joined = false;
    outer: for (let i = 0; i < result.length; i++) {
      for (let j = i + 1; j < result.length; j++) {
        if (touches(result[i], result[j])) {
          result[i] = boundingBox(result[i], result[j]);
          result.splice(j, 1);
          joined = true;
          break outer;
        }
      }
    }
  }
  return result;
}

function touches(a: Region, b: Region): boolean {
  return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
}

function boundingBox(a: Region, b: Region): Region {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

function area(region: Region): number {
  return region.width * region.height;
}
