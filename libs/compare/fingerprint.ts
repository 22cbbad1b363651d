import { createHash } from 'node:crypto';
import { fingerprint as findingFingerprint } from './findings';
import { pixelDigest } from './screenshot-worker';
import { lineShape, stableText } from './volatile-lines';
import type { EvidenceComparison, SideEvidence } from './types';
import { normalizeRobots } from './values';

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/**
 * A digest of what a reviewer sees of one compared pair: each side's screenshot with what moves on its own painted
 * over, its text without unstable lines, robots, canonical and findings (without unstable ones). Two pairs with the
 * same fingerprint show a person the same evidence, so a decision on one stands for the other.
 */
export async function evidenceFingerprint(
  production: SideEvidence,
  preview: SideEvidence,
  comparison: Pick<EvidenceComparison, 'unstable'>,
): Promise<string> {
  const unstable = comparison.unstable;
  const movingFindings = new Set((unstable?.findings ?? []).map((finding) => findingFingerprint(finding, '')));
  const side = async (evidence: SideEvidence) => ({
    screenshot: unstable?.regions.length
      ? await pixelDigest(evidence.screenshot, unstable.regions)
      : sha256(evidence.screenshot),
    text: sha256(
      stableText(
        evidence.text,
        (unstable?.lines ?? []).map((line) => lineShape(line.trim())),
      ),
    ),
    robots: unstable?.robots ? null : normalizeRobots(evidence.robots),
    canonical: unstable?.canonical ? null : evidence.canonical,
    findings: evidence.findings
      .map((finding) => findingFingerprint(finding, ''))
      .filter((key) => !movingFindings.has(key))
      .sort(),
  });
  return sha256(JSON.stringify({ production: await side(production), preview: await side(preview) }));
}
