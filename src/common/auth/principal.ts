import type { Request } from 'express';
import type { Scope, UserRole } from './scopes';

interface PrincipalBase {
  userId: string;
  /** The ceiling of the principal's rate-limit bucket, in requests per minute. */
  rateLimitPerMinute: number;
}

/** An integration calling with an API key: limited to the key's scopes, whoever owns it. */
export interface ApiKeyPrincipal extends PrincipalBase {
  kind: 'api_key';
  keyId: string;
  scopes: readonly Scope[];
  expiresAt: Date | null;
}

/** A person signed in to the web interface: may call every endpoint their role allows. */
export interface SessionPrincipal extends PrincipalBase {
  kind: 'session';
  role: UserRole;
}

export type Principal = ApiKeyPrincipal | SessionPrincipal;

export type AuthenticatedRequest = Request & { principal?: Principal };
