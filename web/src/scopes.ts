import type { Scope } from './types';

/** The scopes a key can hold (openapi.yaml `Scope`) and what each grants (service spec §5, design §3). */
export const SCOPES: { scope: Scope; grants: string }[] = [
  { scope: 'monitors:read', grants: 'List, fetch and inspect monitors (and read release checks)' },
  { scope: 'monitors:write', grants: 'Create, update, pause, delete monitors (and create release checks)' },
  { scope: 'changes:read', grants: 'Read change history, diffs and AI summaries' },
  { scope: 'changes:write', grants: 'Mark changes as useful or noise; archive' },
  { scope: 'alerts:read', grants: 'List alert destinations and rules' },
  { scope: 'alerts:write', grants: 'Create or modify alert destinations and rules' },
  { scope: 'reports:read', grants: 'Download generated reports' },
  { scope: 'reports:write', grants: 'Create and generate reports' },
  { scope: 'webhooks:read', grants: 'Inspect outbound webhook deliveries' },
  { scope: 'users:read', grants: 'Read own profile and API keys' },
  { scope: 'users:write', grants: 'Manage own API keys' },
];
