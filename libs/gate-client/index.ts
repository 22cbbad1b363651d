// The CI gate client as a library; the command itself is cli.ts (not exported: it runs and exits on load).
export { parseGateArgs, USAGE, type ParsedArgs } from './args';
export { serviceRoot, type ServiceRoot } from './base-url';
export { type CheckView, parseCheck } from './check';
export { EXIT_CODES, type GateIO, type GateOptions, type GateResult, retryAfterMs, runGate } from './gate';
export { annotation, isGitHubActions } from './github-actions';
