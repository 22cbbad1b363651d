import type { ApiKey } from '../types';

/** Keys are recognised by the start of their secret, which always begins with `vgl_`. */
export function displayPrefix(prefix: string): string {
  return prefix.startsWith('vgl_') ? prefix : `vgl_${prefix}`;
}

export function keyStatus(key: Pick<ApiKey, 'revoked_at' | 'expires_at'>): { label: string; tone: string } {
  if (key.revoked_at) return { label: 'Revoked', tone: 'danger' };
  if (key.expires_at && new Date(key.expires_at).getTime() <= Date.now()) return { label: 'Expired', tone: 'neutral' };
  return { label: 'Active', tone: 'success' };
}
