/** The web session: a Bearer token and its expiry, kept in sessionStorage (per tab, gone when the tab closes). */
export interface Session {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

const KEY = 'vigil.session';
const WORKSPACE_KEY = 'vigil.workspace';
/** Treat a token as expired a little early, so a request never leaves with a token about to lapse. */
const SKEW_MS = 5_000;

type Listener = (session: Session | null, reason?: SignOutReason) => void;
export type SignOutReason = 'signed_out' | 'expired' | 'unauthorized';

const listeners = new Set<Listener>();

export function readSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const session = JSON.parse(raw) as Partial<Session>;
    if (typeof session.token !== 'string' || typeof session.expiresAt !== 'number') return null;
    if (session.expiresAt - SKEW_MS <= Date.now()) {
      sessionStorage.removeItem(KEY);
      return null;
    }
    return { token: session.token, expiresAt: session.expiresAt };
  } catch {
    return null;
  }
}

export function storeSession(token: string, expiresInSeconds: number): Session {
  const session = { token, expiresAt: Date.now() + expiresInSeconds * 1000 };
  sessionStorage.setItem(KEY, JSON.stringify(session));
  listeners.forEach((listener) => listener(session));
  return session;
}

export function clearSession(reason: SignOutReason = 'signed_out'): void {
  sessionStorage.removeItem(KEY);
  // Signing out forgets the workspace too; an ended session keeps it, so signing in again returns to the same place.
  if (reason === 'signed_out') sessionStorage.removeItem(WORKSPACE_KEY);
  listeners.forEach((listener) => listener(null, reason));
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/*
 * The workspace the web interface acts in, sent as `X-Workspace-Id` on every call. Kept next to the session (per tab)
 * and forgotten on signing out; none stored means the person's default (first) workspace.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Why the workspace changed: the person chose one, or the one stored is no longer theirs (removed from it). */
export type WorkspaceChangeReason = 'switched' | 'removed';
type WorkspaceListener = (workspaceId: string | null, reason: WorkspaceChangeReason) => void;

const workspaceListeners = new Set<WorkspaceListener>();

export function readWorkspaceId(): string | null {
  try {
    const value = sessionStorage.getItem(WORKSPACE_KEY);
    if (value && UUID.test(value)) return value;
    if (value) sessionStorage.removeItem(WORKSPACE_KEY);
    return null;
  } catch {
    return null;
  }
}

/** Acts in this workspace from now on (null: the default) and tells the listeners, which reload what they show. */
export function storeWorkspaceId(workspaceId: string | null, reason: WorkspaceChangeReason = 'switched'): void {
  rememberWorkspaceId(workspaceId);
  workspaceListeners.forEach((listener) => listener(workspaceId, reason));
}

/** Records the workspace the interface already acts in (the default one the API chose), without telling anyone. */
export function rememberWorkspaceId(workspaceId: string | null): void {
  try {
    if (workspaceId && UUID.test(workspaceId)) sessionStorage.setItem(WORKSPACE_KEY, workspaceId);
    else sessionStorage.removeItem(WORKSPACE_KEY);
  } catch {
    // Storage unavailable: every call acts in the default workspace.
  }
}

export function onWorkspaceChange(listener: WorkspaceListener): () => void {
  workspaceListeners.add(listener);
  return () => workspaceListeners.delete(listener);
}
