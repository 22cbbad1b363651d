import { ApiClient } from '../support/api-client';
import { type Account, createAccount, type IssuedKey, signIn, signInAsAdmin } from '../support/accounts';
import { waitForCollection } from '../support/release-checks';
import { startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';
import { TEST_ADMIN } from '../setup/test-environment';

type Json = Record<string, any>;
let requestKeys = 0;

/** Teams through HTTP against the real PostgreSQL, Redis and (for release checks) Chromium. */
describe('workspaces: a team shares its monitors and release checks, and its people review them', () => {
  let service: TestApp;
  let api: ApiClient;
  let site: TestSite;
  /** Admin of the team workspace; her CI key opens release checks. */
  let alice: Account;
  /** A member of the team. */
  let bob: Account;
  /** A viewer of the team. */
  let carol: Account;
  let team: string;
  let aliceCi: IssuedKey;

  const inTeam = (account: Account) => account.session.inWorkspace(team);

  beforeAll(async () => {
    site = await new TestSite().start();
    site.set('/prod/pricing', page());
    site.set('/preview/pricing', page());
    service = await startTestApp();
    api = new ApiClient(service.baseUrl);
    [alice, bob, carol] = [await createAccount(api), await createAccount(api), await createAccount(api)];
    const created = await alice.session.post('/workspaces', { name: 'Web team' });
    expect(created.status).toBe(201);
    team = created.body.id;
    for (const [person, role] of [
      [bob, 'member'],
      [carol, 'viewer'],
    ] as const) {
      const added = await alice.session.post(`/workspaces/${team}/members`, { email: person.email, role });
      expect(added.status).toBe(201);
    }
    const key = await inTeam(alice).post('/users/me/api-keys', {
      name: 'CI',
      scopes: ['monitors:read', 'monitors:write', 'users:read'],
    });
    aliceCi = { id: key.body.id, secret: key.body.secret, client: api.withApiKey(key.body.secret) };
    const admin = await signInAsAdmin(api);
    await admin.put(`/admin/api-keys/${aliceCi.id}/rate-limit`, { requests_per_minute: 100_000 });
  });
  afterAll(async () => {
    await service.close();
    await site.stop();
  });

  async function openCheck(client: ApiClient): Promise<Json> {
    const created = await client.post('/release-checks', {
      name: 'Pricing release',
      production_url: `${site.origin}/prod`,
      preview_url: `${site.origin}/preview`,
      request_key: `ws-${Date.now()}-${(requestKeys += 1)}`,
      pages: [{ production_path: '/pricing', preview_path: '/pricing' }],
      viewports: ['desktop'],
    });
    expect(created.status).toBe(201);
    return waitForCollection(aliceCi.client, created.body.id as string);
  }

  const review = (client: ApiClient, check: Json, decision: 'approve' | 'reject') =>
    client.post(`/release-checks/${check.id}/review`, { decision, note: `${decision} after reading`, revision: 1 });

  it('a person an administrator adds has a workspace of their own, where they are admin', async () => {
    const dana = await createAccount(api);
    const workspaces = await dana.session.get('/workspaces');
    expect(workspaces.body.data).toEqual([
      expect.objectContaining({
        name: dana.email,
        role: 'admin',
        plan: 'free',
        review_policy: { require_distinct_reviewer: false },
      }),
    ]);
    const me = await dana.session.get('/users/me');
    expect(me.body).toMatchObject({
      email: dana.email,
      workspace: { id: dana.workspaceId, name: dana.email, role: 'admin', plan: { name: 'free' } },
      usage: { monitors: 0, release_checks_this_month: 0 },
    });
  });

  it('lists a person’s workspaces oldest first with their role, and X-Workspace-Id chooses the one a session acts in', async () => {
    const listed = await bob.session.get('/workspaces');
    expect(listed.body.data.map((workspace: Json) => [workspace.id, workspace.role])).toEqual([
      [bob.workspaceId, 'admin'],
      [team, 'member'],
    ]);
    expect((await bob.session.get('/users/me')).body.workspace.id).toBe(bob.workspaceId);
    const inTeamNow = await inTeam(bob).get('/users/me');
    expect(inTeamNow.body.workspace).toMatchObject({ id: team, name: 'Web team', role: 'member' });

    const monitor = await inTeam(bob).post('/monitors', { name: 'Team shop', url: `${site.origin}/prod/pricing` });
    expect(monitor.status).toBe(201);
    expect((await inTeam(alice).get(`/monitors/${monitor.body.id}`)).status).toBe(200);
    expect((await bob.session.get(`/monitors/${monitor.body.id}`)).status).toBe(404);
    expect((await bob.session.get('/monitors')).body.data).toEqual([]);

    const malformed = await bob.session.get('/monitors', { headers: { 'X-Workspace-Id': 'team' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ field: 'X-Workspace-Id', message: expect.any(String) }]);
    const stranger = await createAccount(api);
    const outsider = await stranger.session.inWorkspace(team).get('/monitors');
    expect(outsider.status).toBe(404);
    expect((await stranger.session.get(`/workspaces/${team}`)).status).toBe(404);
  });

  it('a key acts in the workspace it was created in, and refuses to name another', async () => {
    const me = await aliceCi.client.get('/users/me');
    expect(me.body).toMatchObject({ email: alice.email, workspace: { id: team, role: 'admin' } });
    expect((await aliceCi.client.inWorkspace(team).get('/users/me')).status).toBe(200);
    expect((await aliceCi.client.inWorkspace(alice.workspaceId).get('/users/me')).status).toBe(404);
  });

  it('a viewer reads everything and gets 403 on every write, naming the scope', async () => {
    const viewer = inTeam(carol);
    expect((await viewer.get('/monitors')).status).toBe(200);
    expect((await viewer.get('/release-checks')).status).toBe(200);
    const writes = [
      await viewer.post('/monitors', { name: 'x', url: `${site.origin}/prod/pricing` }),
      await viewer.post('/users/me/api-keys', { name: 'mine', scopes: ['monitors:read'] }),
      await viewer.patch('/changes/00000000-0000-4000-8000-000000000000', { archived: true }),
    ];
    expect(writes.map((response) => [response.status, response.body.required_scope])).toEqual([
      [403, 'monitors:write'],
      [403, 'users:write'],
      [403, 'changes:write'],
    ]);
    // In her own workspace she is admin and writes as usual.
    expect((await carol.session.post('/monitors', { name: 'Mine', url: `${site.origin}/prod/pricing` })).status).toBe(
      201,
    );
  });

  it('a teammate reviews a check opened by another person’s CI key; a viewer may not; the record names the reviewer', async () => {
    const check = await openCheck(aliceCi.client);
    expect(check).toMatchObject({
      collection_status: 'completed',
      gate: 'pending',
      opened_by: { id: alice.id, email: alice.email, api_key_id: aliceCi.id },
    });
    const refused = await review(inTeam(carol), check, 'approve');
    expect(refused.status).toBe(403);
    expect(refused.body.required_scope).toBe('release-checks:review');
    const outsider = await review(bob.session, check, 'approve');
    expect(outsider.status).toBe(404);

    const approved = await review(inTeam(bob), check, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      gate: 'passed',
      review: { status: 'approved', decision: { decision: 'approve', reviewer: { id: bob.id, email: bob.email } } },
    });
  });

  it('with require_distinct_reviewer, the person whose key opened the check cannot approve it; a teammate can', async () => {
    const policy = await alice.session.patch(`/workspaces/${team}`, {
      review_policy: { require_distinct_reviewer: true },
    });
    expect(policy.body.review_policy).toEqual({ require_distinct_reviewer: true });
    expect((await bob.session.patch(`/workspaces/${team}`, { name: 'Mine now' })).body.required_scope).toBe(
      'workspace:admin',
    );
    try {
      const check = await openCheck(aliceCi.client);
      const own = await review(inTeam(alice), check, 'approve');
      expect(own.status).toBe(409);
      expect(own.body.code).toBe('reviewer_not_distinct');
      expect((await aliceCi.client.get(`/release-checks/${check.id}`)).body.gate).toBe('pending');
      const second = await review(inTeam(bob), check, 'approve');
      expect(second.body).toMatchObject({ gate: 'passed', review: { decision: { reviewer: { email: bob.email } } } });
    } finally {
      await alice.session.patch(`/workspaces/${team}`, { review_policy: { require_distinct_reviewer: false } });
    }
  });

  it('the request_key is unique per workspace: a teammate’s identical retry is answered with the same check', async () => {
    const body = {
      name: 'Shared',
      production_url: `${site.origin}/prod`,
      preview_url: `${site.origin}/preview`,
      request_key: 'team-release-42',
      pages: [{ production_path: '/pricing', preview_path: '/pricing' }],
      viewports: ['desktop'],
    };
    const first = await aliceCi.client.post('/release-checks', body);
    const retry = await inTeam(bob).post('/release-checks', body);
    expect([first.status, retry.status]).toEqual([201, 200]);
    expect(retry.body.id).toBe(first.body.id);
    const elsewhere = await bob.session.post('/release-checks', body);
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.body.id);
  });

  it('admins list and revoke every key of the workspace; others see and revoke only their own', async () => {
    const bobKey = await inTeam(bob).post('/users/me/api-keys', { name: 'Bob’s', scopes: ['monitors:read'] });
    const adminView = await inTeam(alice).get('/users/me/api-keys');
    expect(adminView.body.data.map((key: Json) => [key.name, key.created_by.email])).toEqual(
      expect.arrayContaining([
        ['CI', alice.email],
        ['Bob’s', bob.email],
      ]),
    );
    const memberView = await inTeam(bob).get('/users/me/api-keys');
    expect(memberView.body.data.map((key: Json) => key.id)).toEqual([bobKey.body.id]);
    expect((await inTeam(bob).delete(`/users/me/api-keys/${aliceCi.id}`)).status).toBe(404);

    const revoked = await inTeam(alice).delete(`/users/me/api-keys/${bobKey.body.id}`);
    expect(revoked.body.revoked_at).not.toBeNull();
    expect((await api.withApiKey(bobKey.body.secret as string).get('/monitors')).status).toBe(401);
  });

  it('members: add by e-mail, change a role, remove; the last admin can neither step down nor leave', async () => {
    const erin = await createAccount(api);
    const members = `/workspaces/${team}/members`;
    expect((await bob.session.post(members, { email: erin.email, role: 'viewer' })).body.required_scope).toBe(
      'workspace:admin',
    );
    const added = await alice.session.post(members, { email: erin.email.toUpperCase(), role: 'viewer' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ user_id: erin.id, email: erin.email, role: 'viewer', temporary_password: null });
    const again = await alice.session.post(members, { email: erin.email, role: 'member' });
    expect([again.status, again.body.code]).toEqual([409, 'already_member']);
    const herself = await alice.session.post(members, { email: alice.email, role: 'viewer' });
    expect([herself.status, herself.body.code]).toEqual([409, 'already_member']);

    const promoted = await alice.session.patch(`${members}/${erin.id}`, { role: 'member' });
    expect(promoted.body.role).toBe('member');
    const listed = await bob.session.get(members);
    expect(listed.body.data.map((member: Json) => [member.email, member.role])).toEqual([
      [alice.email, 'admin'],
      [bob.email, 'member'],
      [carol.email, 'viewer'],
      [erin.email, 'member'],
    ]);

    const demote = await alice.session.patch(`${members}/${alice.id}`, { role: 'member' });
    expect([demote.status, demote.body.code]).toEqual([409, 'last_admin']);
    const leave = await alice.session.delete(`${members}/${alice.id}`);
    expect([leave.status, leave.body.code]).toEqual([409, 'last_admin']);
    expect((await bob.session.delete(`${members}/${erin.id}`)).status).toBe(403);

    // Erin leaves by herself; afterwards the workspace is a 404 to her.
    expect((await erin.session.delete(`${members}/${erin.id}`)).status).toBe(204);
    expect((await erin.session.inWorkspace(team).get('/monitors')).status).toBe(404);
    expect((await erin.session.get(`/workspaces/${team}`)).status).toBe(404);
    expect((await alice.session.delete(`${members}/${erin.id}`)).status).toBe(404);
  });

  it('an unknown e-mail is a 404, unless an instance administrator adds it: then the person is created with a one-time password', async () => {
    const email = `new-${Date.now()}@example.com`;
    const refused = await alice.session.post(`/workspaces/${team}/members`, { email, role: 'member' });
    expect(refused.status).toBe(404);

    const admin = await signInAsAdmin(api);
    const adminsOwn = (await admin.get('/workspaces')).body.data[0].id as string;
    const created = await admin.post(`/workspaces/${adminsOwn}/members`, { email, role: 'member' });
    expect(created.status).toBe(201);
    expect(created.body.temporary_password).toEqual(expect.any(String));
    const newcomer = await signIn(api, email, created.body.temporary_password as string);
    const theirs = await newcomer.get('/workspaces');
    expect(theirs.body.data.map((workspace: Json) => [workspace.id, workspace.role])).toEqual([[adminsOwn, 'member']]);
    expect((await admin.get(`/workspaces/${adminsOwn}/members`)).body.data.map((member: Json) => member.email)).toEqual(
      [TEST_ADMIN.email, email],
    );
  });

  it('a person who belongs to no workspace is told so, and can create one', async () => {
    const frank = await createAccount(api);
    const other = await frank.session.post('/workspaces', { name: 'Side project' });
    expect(other.body.role).toBe('admin');
    expect((await frank.session.delete(`/workspaces/${frank.workspaceId}/members/${frank.id}`)).status).toBe(409);
    // Leaving the side project after handing it over leaves Frank in his own workspace only.
    await frank.session.post(`/workspaces/${other.body.id}/members`, { email: alice.email, role: 'admin' });
    expect((await frank.session.delete(`/workspaces/${other.body.id}/members/${frank.id}`)).status).toBe(204);
    expect((await frank.session.get('/workspaces')).body.data.map((workspace: Json) => workspace.id)).toEqual([
      frank.workspaceId,
    ]);
    // Handing his own over too and leaving it: nothing left to act in.
    await frank.session.post(`/workspaces/${frank.workspaceId}/members`, { email: alice.email, role: 'admin' });
    expect((await frank.session.delete(`/workspaces/${frank.workspaceId}/members/${frank.id}`)).status).toBe(204);
    const nowhere = await frank.session.get('/monitors');
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.detail).toContain('POST /workspaces');
    expect((await frank.session.get('/workspaces')).body.data).toEqual([]);
  });
});
