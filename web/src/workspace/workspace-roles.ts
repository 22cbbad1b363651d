import type { WorkspaceRole } from '../types';

export const ROLES: { role: WorkspaceRole; label: string; grants: string }[] = [
  { role: 'admin', label: 'Admin', grants: 'manages members, all API keys and settings, and does what a member does' },
  { role: 'member', label: 'Member', grants: 'creates and changes checks and keys, and reviews release checks' },
  { role: 'viewer', label: 'Viewer', grants: 'reads only: cannot review, create or change anything' },
];

export const ROLE_LABEL: Record<WorkspaceRole, string> = { admin: 'Admin', member: 'Member', viewer: 'Viewer' };
export const ROLE_TONE: Record<WorkspaceRole, string> = { admin: 'info', member: 'neutral', viewer: 'neutral' };

export function article(role: WorkspaceRole): string {
  return role === 'admin' ? 'an' : 'a';
}
