export * from './types';
export { compareEvidence } from './evidence';
export { evidenceFingerprint } from './fingerprint';
export { compareFindings, differenceByFingerprint, fingerprint, placeFindings, type PlacedFinding } from './findings';
export { compareScreenshots, MAX_SCREENSHOT_DIMENSION, readPngSize } from './screenshots';
export { closeScreenshotWorker } from './screenshot-worker';
export {
  combineInstability,
  compareLooks,
  instabilityOf,
  isStable,
  MAX_UNSTABLE_REGIONS,
  mergeRegions,
} from './stability';
export { compareText, MAX_TEXT_DIFF_LINES } from './text';
export { compareCanonical, compareRobots } from './values';
export { learnVolatileLines, lineShape, MAX_VOLATILE_LINES, stableText } from './volatile-lines';
