export { CaptureEngine, USER_AGENT_SUFFIX } from './capture-engine';
export type { ResponseDigest } from './response-ledger';
export { captureBrowserArgs, CaptureInfrastructureError } from './browser-pool';
export { DEFAULT_CHROMIUM_PATH, defaultChromiumPath, FULL_CHROMIUM_PATH, HEADLESS_SHELL_PATH } from './chromium-path';
export {
  AXE_TAGS,
  CAPTURE_OUTCOMES,
  DEFAULT_CAPTURE_TIMEOUTS,
  VIEWPORT_SIZES,
  type AxeFinding,
  type CaptureEngineOptions,
  type CaptureOutcome,
  type CapturedPage,
  type CapturePriority,
  type CaptureRequest,
  type CaptureResult,
  type CaptureTimeouts,
  type MissingEvidence,
  type MissingReason,
  type PdfRequest,
  type Viewport,
} from './types';
