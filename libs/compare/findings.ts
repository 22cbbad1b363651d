import type { Finding, FindingsComparison } from './types';

/** Identity of a finding across sides: the same rule on the same element. Impact and help text may vary. */
export function fingerprint(finding: Finding): string {
  return `${finding.rule_id}\u0000${finding.target}`;
}

/** New and fixed findings by fingerprint; a fingerprint reported several times on one side counts once. */
export function compareFindings(
  production: Finding[],
  preview: Finding[],
  productionAxeVersion: string,
  previewAxeVersion: string,
): FindingsComparison {
  const productionByFingerprint = distinctByFingerprint(production);
  const previewByFingerprint = distinctByFingerprint(preview);

  const added: Finding[] = [];
  let unchanged = 0;
  for (const [key, finding] of previewByFingerprint) {
    if (productionByFingerprint.has(key)) unchanged++;
    else added.push(finding);
  }
  const fixed = [...productionByFingerprint].filter(([key]) => !previewByFingerprint.has(key)).map(([, f]) => f);

  return {
    new: added,
    fixed,
    unchanged,
    engine_version_mismatch: productionAxeVersion !== previewAxeVersion,
  };
}

/** First occurrence of each fingerprint, in order of appearance (Map keeps insertion order). */
function distinctByFingerprint(findings: Finding[]): Map<string, Finding> {
  const distinct = new Map<string, Finding>();
  for (const finding of findings) {
    const key = fingerprint(finding);
    if (!distinct.has(key)) distinct.set(key, finding);
  }
  return distinct;
}
