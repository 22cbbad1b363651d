import type { Request } from 'express';
import type { Scope, UserRole, WorkspaceRole } from './scopes';

/** The workspace a request acts in, and the caller's role in it. */
export interface WorkspaceAccess {
  id: string;
  /** The person's role; null for an API key (a key is limited by its scopes, not by its creator's role). */
  role: WorkspaceRole | null;
}

interface PrincipalBase {
  /** The person: a session's, or the creator of the key (null if that person was deleted). */
  userId: string | null;
  /** The ceiling of the principal's rate-limit bucket, in requests per minute. */
  rateLimitPerMinute: number;
}

/** An integration calling with an API key: limited to the key's scopes, in the key's workspace. */
export interface ApiKeyPrincipal extends PrincipalBase {
  kind: 'api_key';
  keyId: string;
  scopes: readonly Scope[];
  expiresAt: Date | null;
  workspace: WorkspaceAccess;
}

/** A person signed in to the web interface: may call every endpoint their workspace role allows. */
export interface SessionPrincipal extends PrincipalBase {
  kind: 'session';
  userId: string;
  /** The instance role: administrators manage people and rate limits. */
  role: UserRole;
  /**
   * The workspace the session acts in (`X-Workspace-Id`, else the person's first); null when the person belongs to
   * none or named one they are not in. Routes that act in a workspace refuse a null one.
   */
  workspace: WorkspaceAccess | null;
}

export type Principal = ApiKeyPrincipal | SessionPrincipal;

/** A principal whose request acts in a workspace: every workspace-scoped route receives one of these. */
export type WorkspacePrincipal = Principal & { workspace: WorkspaceAccess };

/** A signed-in person acting in a workspace (reviewing a release check). */
export type WorkspaceSession = SessionPrincipal & { workspace: WorkspaceAccess };

export type AuthenticatedRequest = Request & { principal?: Principal };
