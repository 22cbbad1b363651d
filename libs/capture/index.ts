export { CaptureEngine, USER_AGENT_SUFFIX } from './capture-engine';
export { captureBrowserArgs, CaptureInfrastructureError, DEFAULT_CHROMIUM_PATH } from './browser-pool';
export {
  AXE_TAGS,
  DEFAULT_CAPTURE_TIMEOUTS,
  VIEWPORT_SIZES,
  type AxeFinding,
  type CaptureEngineOptions,
  type CapturedPage,
  type CaptureRequest,
  type CaptureResult,
  type CaptureTimeouts,
  type MissingEvidence,
  type MissingReason,
  type Viewport,
} from './types';
