/** The scopes an API key can hold (spec §5, plus reports:write and webhooks:write from the design). */
export const SCOPES = [
  'monitors:read',
  'monitors:write',
  'changes:read',
  'changes:write',
  'alerts:read',
  'alerts:write',
  'reports:read',
  'reports:write',
  'webhooks:read',
  'webhooks:write',
  'users:read',
  'users:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Permissions no API key can hold: they need a signed-in person's session. `session` is any signed-in person (the
 * service then checks their role in the workspace the path names); `admin` is an administrator of the instance.
 */
export const SESSION_PERMISSIONS = [
  'session',
  'admin',
  'release-checks:review',
  'a11y-scans:attest',
  'workspace:admin',
] as const;
export type SessionPermission = (typeof SESSION_PERMISSIONS)[number];

/**
 * A person's acts in a workspace: reviewing and attesting (its members and admins, never its viewers), and what only
 * its admins do (`workspace:admin`: its code-host connections).
 */
export const WORKSPACE_ACTS: readonly SessionPermission[] = [
  'release-checks:review',
  'a11y-scans:attest',
  'workspace:admin',
];

export const USER_ROLES = ['admin', 'member'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** A person's role in one workspace (the instance role above is another matter: people and rate limits). */
export const WORKSPACE_ROLES = ['admin', 'member', 'viewer'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];
