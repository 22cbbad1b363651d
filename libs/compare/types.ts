/**
 * Plain data shapes of the comparison library. `Finding` mirrors the capture library's type structurally so this
 * library stays independent of it.
 */

export type FindingImpact = 'minor' | 'moderate' | 'serious' | 'critical' | null;

/** One axe-core violation on one element. */
export interface Finding {
  rule_id: string;
  impact: FindingImpact;
  help: string;
  help_url: string;
  target: string;
}

/** Everything captured for one page × viewport on one side (production or preview). */
export interface SideEvidence {
  url: string;
  text: string;
  robots: string | null;
  canonical: string | null;
  /** Full-page screenshot, PNG. */
  screenshot: Buffer;
  findings: Finding[];
  axe_version: string;
}

export interface TextComparison {
  changed: boolean;
  /** Lines only the preview has, in order of appearance (at most 500). */
  added: string[];
  /** Lines only production has, in order of appearance (at most 500). */
  removed: string[];
  /** True when `added` or `removed` was cut at 500 lines. */
  truncated: boolean;
}

/** Raw values for display; `changed` is decided on normalized values. */
export interface ValueComparison {
  production: string | null;
  preview: string | null;
  changed: boolean;
}

export interface ImageSize {
  width: number;
  height: number;
}

export interface ScreenshotComparison {
  /** Share of differing pixels, 0..1, over the larger width × larger height (extra area of a taller image counts). */
  mismatch_ratio: number;
  /** mismatch_ratio > threshold. */
  changed: boolean;
  production_size: ImageSize;
  preview_size: ImageSize;
  /** resemblejs diff image (PNG); null when no pixel differs. */
  diff_png: Buffer | null;
}

export interface FindingsComparison {
  /** On preview, not on production (by rule and target). */
  new: Finding[];
  /** On production, not on preview. */
  fixed: Finding[];
  /** Distinct rule+target pairs found on both sides. */
  unchanged: number;
  /** The sides were scanned with different axe-core versions, so counts are not strictly comparable. */
  engine_version_mismatch: boolean;
}

/** A rectangle of a full-page screenshot, in CSS pixels from its top left corner. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What differed between two looks at the same side (two captures of one URL, moments apart): it moves on its own, so
 * it is shown apart and never counted as a difference between the sides.
 */
export interface UnstableEvidence {
  /** Text lines that one look of a side had and another did not. */
  lines: string[];
  /** Screenshot areas in which two looks of a side differ. */
  regions: Region[];
  /** The robots meta value differed between looks of a side. */
  robots: boolean;
  /** The canonical link differed between looks of a side. */
  canonical: boolean;
  /** Findings that one look of a side had and another did not. */
  findings: Finding[];
}

export interface EvidenceComparison {
  text: TextComparison;
  robots: ValueComparison;
  canonical: ValueComparison;
  screenshot: ScreenshotComparison;
  findings: FindingsComparison;
  /** Stable differences only: what moved on its own (`unstable`) is left out of every field above. */
  has_differences: boolean;
  /** Null when the sides did not differ at first look, so nobody looked again. */
  unstable: UnstableEvidence | null;
}

export interface CompareOptions {
  /** A screenshot counts as changed when its mismatch ratio exceeds this (0..1). Default 0: any differing pixel. */
  mismatchThreshold?: number;
  /**
   * Of two screenshots of one size, let resemblejs look only at the rows that differ (and their neighbours): the
   * same ratio and diff image as comparing every row, for a fraction of the time when a change is small (default
   * true; a test compares the two).
   */
  onlyChangedRows?: boolean;
  /** Screenshot areas painted over on both sides before comparing (what moves on its own). */
  ignoreRegions?: Region[];
}
