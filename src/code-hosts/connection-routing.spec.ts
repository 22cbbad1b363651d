import { connectionFor } from './connection-routing';

const connections = [
  { id: 'acme-github', provider: 'github' as const, namespace: 'Acme' },
  { id: 'platform-gitlab', provider: 'gitlab' as const, namespace: 'platform' },
  { id: 'web-gitlab', provider: 'gitlab' as const, namespace: 'platform/web' },
];

describe('connectionFor', () => {
  it("serves a repository from its provider's connection for the account, whatever the case", () => {
    expect(connectionFor({ provider: 'github', repository: 'acme/site' }, connections)?.id).toBe('acme-github');
  });

  it('takes the longest namespace that is the repository or one of its parents', () => {
    expect(connectionFor({ provider: 'gitlab', repository: 'platform/web/shop' }, connections)?.id).toBe('web-gitlab');
    expect(connectionFor({ provider: 'gitlab', repository: 'platform/web' }, connections)?.id).toBe('web-gitlab');
    expect(connectionFor({ provider: 'gitlab', repository: 'platform/api' }, connections)?.id).toBe('platform-gitlab');
  });

  it('matches whole path segments only, and never across providers', () => {
    expect(connectionFor({ provider: 'github', repository: 'acme-labs/site' }, connections)).toBeNull();
    expect(connectionFor({ provider: 'gitlab', repository: 'platform-old/site' }, connections)).toBeNull();
    expect(connectionFor({ provider: 'github', repository: 'platform/web' }, connections)).toBeNull();
  });
});
