/** The web session: a Bearer token and its expiry, kept in sessionStorage (per tab, gone when the tab closes). */
export interface Session {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

const KEY = 'vigil.session';
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
  listeners.forEach((listener) => listener(null, reason));
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
