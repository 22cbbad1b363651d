import { compareFindings } from './findings';
import { compareScreenshots } from './screenshots';
import { compareText } from './text';
import type { CompareOptions, EvidenceComparison, SideEvidence } from './types';
import { compareCanonical, compareRobots } from './values';

/** All differences between the production and preview evidence of one page × viewport, from one look at each. */
export async function compareEvidence(
  production: SideEvidence,
  preview: SideEvidence,
  options: CompareOptions = {},
): Promise<EvidenceComparison> {
  const text = compareText(production.text, preview.text);
  const robots = compareRobots(production.robots, preview.robots);
  const canonical = compareCanonical(production, preview);
  const findings = compareFindings(production.findings, preview.findings, production.axe_version, preview.axe_version);
  const screenshot = await compareScreenshots(production.screenshot, preview.screenshot, options);
  return {
    text,
    robots,
    canonical,
    screenshot,
    findings,
    has_differences:
      text.changed ||
      robots.changed ||
      canonical.changed ||
      screenshot.changed ||
      findings.new.length > 0 ||
      findings.fixed.length > 0,
    unstable: null,
  };
}
