import type { CurrentUser } from './types';

/**
 * Whether the person may change things in the current workspace (create, edit, review, start): its admins and members
 * may, its viewers only read. The API enforces the same rule; the interface only hides what would be refused.
 */
export function canWrite(me: CurrentUser): boolean {
  return me.workspace.role === 'admin' || me.workspace.role === 'member';
}
