import { authorize } from '../../src/common/auth/authorize';
import type { ApiKeyPrincipal, SessionPrincipal } from '../../src/common/auth/principal';
import { SCOPES, type Scope, type WorkspaceRole } from '../../src/common/auth/scopes';
import { InsufficientScope } from '../../src/common/errors/domain-errors';

const key = (scopes: Scope[]): ApiKeyPrincipal => ({
  kind: 'api_key',
  keyId: 'k',
  userId: 'u',
  scopes,
  expiresAt: null,
  workspace: { id: 'w', role: null },
  rateLimitPerMinute: 120,
});
const session = (role: 'admin' | 'member', workspaceRole: WorkspaceRole = 'member'): SessionPrincipal => ({
  kind: 'session',
  userId: 'u',
  role,
  workspace: { id: 'w', role: workspaceRole },
  rateLimitPerMinute: 120,
});

function refusal(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof InsufficientScope) return error.requiredScope;
    throw error;
  }
}

describe('authorize', () => {
  it.each(SCOPES.map((scope) => [scope]))('a key without %s is refused, naming it; with it, allowed', (scope) => {
    const others = SCOPES.filter((other) => other !== scope);
    expect(refusal(() => authorize(key(others), { kind: 'scopes', scopes: [scope] }))).toBe(scope);
    expect(refusal(() => authorize(key([scope]), { kind: 'scopes', scopes: [scope] }))).toBeUndefined();
  });

  it('needs every listed scope (release checks need monitors:write and monitors:read)', () => {
    const rule = { kind: 'scopes', scopes: ['monitors:write', 'monitors:read'] } as const;
    expect(refusal(() => authorize(key(['monitors:write']), { ...rule, scopes: [...rule.scopes] }))).toBe(
      'monitors:read',
    );
    expect(
      refusal(() => authorize(key(['monitors:read', 'monitors:write']), { ...rule, scopes: [...rule.scopes] })),
    ).toBeUndefined();
  });

  it('lets a session call scoped routes', () => {
    expect(refusal(() => authorize(session('member'), { kind: 'scopes', scopes: ['webhooks:read'] }))).toBeUndefined();
  });

  it('keeps session-only permissions from every key, whatever its scopes or owner', () => {
    expect(refusal(() => authorize(key([...SCOPES]), { kind: 'session', permission: 'release-checks:review' }))).toBe(
      'release-checks:review',
    );
    expect(refusal(() => authorize(key([...SCOPES]), { kind: 'session', permission: 'admin' }))).toBe('admin');
    expect(
      refusal(() => authorize(session('member'), { kind: 'session', permission: 'release-checks:review' })),
    ).toBeUndefined();
  });

  it('lets a viewer session read but refuses every write, naming the write scope', () => {
    const viewer = session('member', 'viewer');
    expect(refusal(() => authorize(viewer, { kind: 'scopes', scopes: ['monitors:read'] }))).toBeUndefined();
    expect(refusal(() => authorize(viewer, { kind: 'scopes', scopes: ['monitors:write', 'monitors:read'] }))).toBe(
      'monitors:write',
    );
    // An instance administrator who is a viewer of this workspace is a viewer here.
    expect(refusal(() => authorize(session('admin', 'viewer'), { kind: 'scopes', scopes: ['users:write'] }))).toBe(
      'users:write',
    );
  });

  it('lets members and admins of the workspace review, never its viewers', () => {
    const rule = { kind: 'session', permission: 'release-checks:review' } as const;
    expect(refusal(() => authorize(session('member', 'admin'), rule))).toBeUndefined();
    expect(refusal(() => authorize(session('member', 'member'), rule))).toBeUndefined();
    expect(refusal(() => authorize(session('admin', 'viewer'), rule))).toBe('release-checks:review');
  });

  it('keeps administration to administrators', () => {
    expect(refusal(() => authorize(session('member'), { kind: 'session', permission: 'admin' }))).toBe('admin');
    expect(refusal(() => authorize(session('admin'), { kind: 'session', permission: 'admin' }))).toBeUndefined();
  });
});
