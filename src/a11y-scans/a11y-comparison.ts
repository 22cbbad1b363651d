import { differenceByFingerprint } from '../../libs/compare';
import type { Viewport } from '../../libs/capture';
import type { A11yScanSummary, ScanFinding } from './entities/a11y-scan.entity';

/** What a comparison needs of a scan. */
export interface ScanResults {
  viewports: Viewport[];
  axeVersion: string | null;
  rulesRun: string[];
  findings: ScanFinding[];
  needsReview: ScanFinding[];
}

export type NewFinding = ScanFinding & { cause: 'regression' | 'new_rule' };

export interface FindingsChange {
  new: NewFinding[];
  fixed: ScanFinding[];
  unchanged: number;
}

export interface A11yComparison extends FindingsChange {
  viewports: Viewport[];
  engine_version_mismatch: boolean;
  needs_review: FindingsChange;
}

/**
 * A scan against a baseline scan, by fingerprint (rule, viewport, target), never by count, on the viewports both
 * covered. A new finding is a `regression` only if the baseline's engine ran its rule; otherwise its rule is new.
 */
export function compareWithBaseline(scan: ScanResults, baseline: ScanResults): A11yComparison {
  const viewports = scan.viewports.filter((viewport) => baseline.viewports.includes(viewport));
  const inScope = (finding: ScanFinding) => viewports.includes(finding.viewport);
  const baselineRules = new Set(baseline.rulesRun);
  const change = (before: ScanFinding[], after: ScanFinding[]): FindingsChange => {
    const { added, removed, unchanged } = differenceByFingerprint(
      before.filter(inScope),
      after.filter(inScope),
      (finding) => finding.fingerprint,
    );
    return {
      new: added.map((finding) => ({
        ...finding,
        cause: baselineRules.has(finding.rule_id) ? 'regression' : 'new_rule',
      })),
      fixed: removed,
      unchanged,
    };
  };
  return {
    viewports,
    ...change(baseline.findings, scan.findings),
    engine_version_mismatch: scan.axeVersion !== baseline.axeVersion,
    needs_review: change(baseline.needsReview, scan.needsReview),
  };
}

/** The counts a completed scan keeps; `new` and `fixed` against the baseline of the moment, if there is one. */
export function summarize(scan: ScanResults, baseline: ScanResults | null): A11yScanSummary {
  const byImpact = { minor: 0, moderate: 0, serious: 0, critical: 0 };
  for (const finding of scan.findings) if (finding.impact) byImpact[finding.impact] += 1;
  const comparison = baseline ? compareWithBaseline(scan, baseline) : null;
  return {
    violations: scan.findings.length,
    by_impact: byImpact,
    needs_review: scan.needsReview.length,
    new: comparison ? comparison.new.length : null,
    fixed: comparison ? comparison.fixed.length : null,
  };
}
