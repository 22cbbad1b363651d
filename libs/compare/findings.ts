import type { Finding, FindingsComparison } from './types';

/** A finding placed at the viewport it was found at, with its identity across scans and sides. */
export type PlacedFinding<F extends Finding = Finding, V extends string = string> = F & {
  viewport: V;
  fingerprint: string;
};

/** Identity of a finding: the same rule on the same element at the same viewport. Impact and help text may vary. */
export function fingerprint(finding: Finding, viewport: string): string {
  return `${finding.rule_id} | ${viewport} | ${finding.target}`;
}

export function placeFindings<F extends Finding, V extends string>(findings: F[], viewport: V): PlacedFinding<F, V>[] {
  return findings.map((finding) => ({ ...finding, viewport, fingerprint: fingerprint(finding, viewport) }));
}

export interface FingerprintDifference<F> {
  /** In `after` only, in order of appearance. */
  added: F[];
  /** In `before` only, in order of appearance. */
  removed: F[];
  unchanged: number;
}

/** Compares two sets of findings by fingerprint, never by count; a fingerprint seen several times counts once. */
export function differenceByFingerprint<F>(
  before: F[],
  after: F[],
  key: (finding: F) => string,
): FingerprintDifference<F> {
  const beforeByKey = distinct(before, key);
  const afterByKey = distinct(after, key);
  const added = [...afterByKey].filter(([id]) => !beforeByKey.has(id)).map(([, finding]) => finding);
  const removed = [...beforeByKey].filter(([id]) => !afterByKey.has(id)).map(([, finding]) => finding);
  return { added, removed, unchanged: afterByKey.size - added.length };
}

/** New and fixed findings of one page at one viewport, production against preview. */
export function compareFindings(
  production: Finding[],
  preview: Finding[],
  productionAxeVersion: string,
  previewAxeVersion: string,
): FindingsComparison {
  // Both sides are at the same viewport, so rule and target identify a finding.
  const { added, removed, unchanged } = differenceByFingerprint(production, preview, (finding) =>
    fingerprint(finding, ''),
  );
  return {
    new: added,
    fixed: removed,
    unchanged,
    engine_version_mismatch: productionAxeVersion !== previewAxeVersion,
  };
}

/** First occurrence of each key, in order of appearance (Map keeps insertion order). */
function distinct<F>(findings: F[], key: (finding: F) => string): Map<string, F> {
  const byKey = new Map<string, F>();
  for (const finding of findings) {
    const id = key(finding);
    if (!byKey.has(id)) byKey.set(id, finding);
  }
  return byKey;
}
