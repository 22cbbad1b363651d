import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, signIn, signInAsAdmin } from '../support/accounts';
import { FakeGitHub, FakeGitLab } from '../support/fake-code-hosts';
import { waitForCollection } from '../support/release-checks';
import { startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';

type Json = Record<string, any>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha = () => randomBytes(20).toString('hex');
const PUBLIC_URL = 'https://vigil.example.com';

/** Waits until `read` answers at least `count` items; returns them. */
async function waitFor<T>(read: () => T[], count: number, what: string, timeoutMs = 30_000): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  while (read().length < count) {
    if (Date.now() > deadline) throw new Error(`${what}: ${read().length} of ${count} after ${timeoutMs} ms`);
    await sleep(100);
  }
  return read();
}

/**
 * Release checks report to the pull request (issue #28): a commit status per check name that follows the gate, and one
 * comment edited as the check moves, sent from the outbox by the delivery machinery to local servers that implement
 * the few GitHub and GitLab endpoints used and check what they receive (the App's JWT, installation tokens,
 * PRIVATE-TOKEN).
 */
describe('code hosts: statuses and one comment follow the gate', () => {
  let service: TestApp;
  let site: TestSite;
  let github: FakeGitHub;
  let gitlab: FakeGitLab;
  let db: Client;
  /** Admin of the shop's workspace. */
  let alice: Account;
  /** A member of it, who reviews. */
  let bob: Account;
  /** Admin of her own workspace only. */
  let carol: Account;
  let shop: string;
  let ci: ApiClient;
  let githubConnection: Json;
  let gitlabConnection: Json;
  const asAlice = () => alice.session.inWorkspace(shop);
  const asBob = () => bob.session.inWorkspace(shop);

  beforeAll(async () => {
    site = await new TestSite().start();
    site.set('/prod/', page({ title: 'Shop', body: '<h1>Shop</h1><p>Everything in stock.</p>' }));
    site.set('/preview/', page({ title: 'Shop', body: '<h1>Shop</h1><p>Everything in stock.</p>' }));
    github = await new FakeGitHub().start();
    gitlab = await new FakeGitLab().start();
    service = await startTestApp({
      PUBLIC_URL,
      GITHUB_API_URL: github.url,
      DELIVERY_RETRY_DELAYS_MS: Array(10).fill('300').join(','),
    });
    db = new Client({ connectionString: service.config.databaseUrl });
    await db.connect();
    const api = new ApiClient(service.baseUrl);
    [alice, bob, carol] = [await createAccount(api), await createAccount(api), await createAccount(api)];
    shop = (await alice.session.post('/workspaces', { name: 'Shop' })).body.id;
    expect((await alice.session.post(`/workspaces/${shop}/members`, { email: bob.email, role: 'member' })).status).toBe(
      201,
    );
    const key = await asAlice().post('/users/me/api-keys', {
      name: 'CI',
      scopes: ['monitors:read', 'monitors:write', 'webhooks:read'],
    });
    ci = api.withApiKey(key.body.secret);
    await (await signInAsAdmin(api)).put(`/admin/api-keys/${key.body.id}/rate-limit`, { requests_per_minute: 100_000 });
  });

  afterAll(async () => {
    await db?.end();
    await service?.close();
    await Promise.all([site?.stop(), github?.stop(), gitlab?.stop()]);
  });

  async function openCheck(name: string, source: Json, previewPath = '/'): Promise<Json> {
    const created = await ci.post('/release-checks', {
      name,
      production_url: `${site.origin}/prod`,
      preview_url: `${site.origin}/preview`,
      request_key: `${name}-${randomBytes(4).toString('hex')}`,
      pages: [{ production_path: '/', preview_path: previewPath }],
      viewports: ['desktop'],
      source,
    });
    expect(created.status).toBe(201);
    return waitForCollection(ci, created.body.id);
  }

  const review = (check: Json, decision: 'approve' | 'reject') =>
    asBob().post(`/release-checks/${check.id}/review`, {
      decision,
      revision: check.revision,
      note: decision === 'approve' ? 'Looks right.' : 'The banner is wrong.',
    });

  describe('connections', () => {
    it('an admin connects a GitHub App installation and a GitLab token; credentials are never shown', async () => {
      const created = await asAlice().post('/code-host-connections', {
        name: 'Acme on GitHub',
        provider: 'github',
        namespace: 'acme',
        app_id: github.appId,
        installation_id: github.installationId,
        private_key: github.privateKey,
      });
      expect(created.status).toBe(201);
      githubConnection = created.body;
      expect(githubConnection).toMatchObject({
        provider: 'github',
        namespace: 'acme',
        app_id: github.appId,
        installation_id: github.installationId,
        base_url: null,
        enabled: true,
      });
      expect(JSON.stringify(githubConnection)).not.toContain('PRIVATE KEY');

      const lab = await asAlice().post('/code-host-connections', {
        name: 'Platform on GitLab',
        provider: 'gitlab',
        namespace: 'platform',
        token: gitlab.token,
        base_url: `${gitlab.url}/`,
      });
      expect(lab.status).toBe(201);
      gitlabConnection = lab.body;
      expect(gitlabConnection).toMatchObject({ provider: 'gitlab', base_url: gitlab.url, app_id: null });
      expect(JSON.stringify(gitlabConnection)).not.toContain(gitlab.token);

      const listed = await asAlice().get('/code-host-connections');
      expect(listed.body.data.map((connection: Json) => connection.id)).toEqual([
        githubConnection.id,
        gitlabConnection.id,
      ]);
      // Not among the alert destinations, and stored sealed: the database holds neither the key nor the token.
      expect((await asAlice().get('/alert-destinations')).body.data).toEqual([]);
      const stored = await db.query('select credential from alert_destinations where id = any($1)', [
        [githubConnection.id, gitlabConnection.id],
      ]);
      const credentials = stored.rows.map((row) => row.credential as string).join('\n');
      expect(credentials).toMatch(/^v1\./);
      expect(credentials).not.toContain('PRIVATE KEY');
      expect(credentials).not.toContain(gitlab.token);
    });

    it('is for admins only: a member, an API key and another workspace are refused', async () => {
      const member = await asBob().get(`/code-host-connections/${githubConnection.id}`);
      expect(member.status).toBe(403);
      expect(member.body.required_scope).toBe('workspace:admin');
      expect((await ci.get('/code-host-connections')).status).toBe(403);
      // Carol administers her own workspace: another workspace's connection is not found, not forbidden.
      expect((await carol.session.get(`/code-host-connections/${githubConnection.id}`)).status).toBe(404);
      expect((await carol.session.delete(`/code-host-connections/${githubConnection.id}`)).status).toBe(404);
      expect((await carol.session.get('/code-host-connections')).body.data).toEqual([]);
    });

    it('refuses a second connection for the same namespace and fields of the other provider', async () => {
      const again = await asAlice().post('/code-host-connections', {
        name: 'Again',
        provider: 'github',
        namespace: 'ACME',
        app_id: 1,
        installation_id: 2,
        private_key: github.privateKey,
      });
      expect(again.status).toBe(409);
      const mixed = await asAlice().post('/code-host-connections', {
        name: 'Mixed',
        provider: 'gitlab',
        namespace: 'mixed',
        token: 'glpat-x',
        app_id: 1,
      });
      expect(mixed.status).toBe(400);
      expect(mixed.body.errors).toEqual([{ field: 'app_id', message: 'is not used by a gitlab connection' }]);
      const notAKey = await asAlice().post('/code-host-connections', {
        name: 'Bad key',
        provider: 'github',
        namespace: 'other',
        app_id: 1,
        installation_id: 2,
        private_key: 'not a key',
      });
      expect(notAKey.status).toBe(400);
      expect(notAKey.body.errors[0].field).toBe('private_key');
    });

    it('takes no alerts: a rule cannot name a connection', async () => {
      const monitor = await asAlice().post('/monitors', {
        name: 'Shop',
        url: `${site.origin}/prod/`,
        interval_seconds: 86_400,
      });
      const rule = await asAlice().post(`/monitors/${monitor.body.id}/rules`, {
        event: 'down',
        destination_ids: [githubConnection.id],
      });
      expect(rule.status).toBe(400);
      expect(rule.body.errors[0].field).toBe('destination_ids');
      await asAlice().delete(`/monitors/${monitor.body.id}`);
    });

    it('sends the stored token to no new address: a new base_url needs the token again', async () => {
      const moved = await asAlice().patch(`/code-host-connections/${gitlabConnection.id}`, {
        base_url: `${gitlab.url}/elsewhere`,
      });
      expect(moved.status).toBe(400);
      expect(moved.body.errors).toEqual([
        { field: 'token', message: 'is required with a new base_url: give the token for that GitLab again' },
      ]);
    });

    it('a test call says whether the credential works: the App JWT exchanged, the GitLab token read', async () => {
      const exchanges = github.requests(/^POST \/app\/installations\/\d+\/access_tokens$/).length;
      const works = await asAlice().post(`/code-host-connections/${githubConnection.id}/test`);
      expect(works.status).toBe(200);
      expect(works.body).toMatchObject({ ok: true, response_status: 201 });
      expect(github.requests(/^POST \/app\/installations\/\d+\/access_tokens$/)).toHaveLength(exchanges + 1);

      const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs1', format: 'pem' })
        .toString();
      await asAlice().patch(`/code-host-connections/${githubConnection.id}`, { private_key: otherKey });
      const refused = await asAlice().post(`/code-host-connections/${githubConnection.id}/test`);
      expect(refused.body).toMatchObject({ ok: false, response_status: 401 });
      expect(refused.body.detail).toContain('JSON web token');
      await asAlice().patch(`/code-host-connections/${githubConnection.id}`, { private_key: github.privateKey });

      const lab = await asAlice().post(`/code-host-connections/${gitlabConnection.id}/test`);
      expect(lab.body).toMatchObject({ ok: true, response_status: 200 });
    });

    it('checks a self-managed GitLab address against private addresses like any destination', async () => {
      const guarded = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'false', ROLE: 'api' });
      try {
        const session = (await signIn(new ApiClient(guarded.baseUrl), alice.email, alice.password)).inWorkspace(shop);
        const refused = await session.post('/code-host-connections', {
          name: 'Internal GitLab',
          provider: 'gitlab',
          namespace: 'internal',
          token: 'glpat-internal',
          base_url: 'http://127.0.0.1:8929',
        });
        expect(refused.status).toBe(400);
        expect(refused.body.code).toBe('target_not_public');
        const changed = await session.patch(`/code-host-connections/${gitlabConnection.id}`, {
          base_url: 'http://10.0.0.7',
        });
        expect(changed.body.code).toBe('target_not_public');
        // A public address in clear text: the token would travel unencrypted.
        const clear = await session.patch(`/code-host-connections/${gitlabConnection.id}`, {
          base_url: 'http://93.184.215.14',
          token: 'glpat-new',
        });
        expect(clear.status).toBe(400);
        expect(clear.body.errors[0]).toEqual({
          field: 'base_url',
          message: 'must be an https address: the token is sent to it',
        });
      } finally {
        await guarded.close();
      }
    });
  });

  describe('GitHub', () => {
    it('approve: pending while collecting, pending awaiting review, success; one comment, edited', async () => {
      const commit = sha();
      const exchanges = github.requests(/access_tokens$/).length;
      // Someone copies the marker into a comment of theirs: it is neither edited nor taken for Vigil's.
      const forged = '<!-- vigil-release-check: storefront -->\n### Vigil release check `storefront`: ✅ Approved';
      github.addForeignComment('acme/site#7', forged);
      const check = await openCheck('storefront', {
        provider: 'github',
        repository: 'acme/site',
        commit_sha: commit,
        pull_request: 7,
      });
      await waitFor(() => github.statuses(commit), 2, 'statuses before review');
      expect((await review(check, 'approve')).status).toBe(200);
      const statuses = await waitFor(() => github.statuses(commit), 3, 'statuses after review');
      const reviewUrl = `${PUBLIC_URL}/release-checks/${check.id}`;
      expect(statuses).toEqual([
        {
          state: 'pending',
          description: 'Collecting evidence of 1 pair',
          context: 'vigil/storefront',
          target_url: reviewUrl,
        },
        { state: 'pending', description: '1 pair awaits review', context: 'vigil/storefront', target_url: reviewUrl },
        {
          state: 'success',
          description: `Approved by ${bob.email.split('@')[0]}`,
          context: 'vigil/storefront',
          target_url: reviewUrl,
        },
      ]);
      // Every call bore an installation token, minted once for the three deliveries.
      expect(github.requests(/access_tokens$/)).toHaveLength(exchanges + 1);
      await waitFor(() => github.requests(/^PATCH \/repos\/acme\/site\/issues\/comments\/\d+$/), 2, 'comment edits');
      expect(github.requests(/^POST \/repos\/acme\/site\/issues\/7\/comments$/)).toHaveLength(1);
      const [foreign, comment] = github.commentsOn('acme/site#7');
      expect(github.commentsOn('acme/site#7')).toHaveLength(2);
      expect(foreign.body).toBe(forged);
      expect(comment.body).toContain('### Vigil release check `storefront`: ✅ Approved');
      expect(comment.body).toContain('| 1 | 0 | 0 | 0 | 0 |');
      expect(comment.body).toContain(`Approved by ${bob.email.split('@')[0]}.`);
      // The whole address stays in Vigil: statuses and comments are public on a public repository.
      expect(comment.body).not.toContain(bob.email);
      expect(comment.body).toContain(`[Open the review in Vigil](${reviewUrl})`);
    });

    it('reject fails the status; a rerun sends pending again for the same commit, in the same comment', async () => {
      const commit = sha();
      const source = { provider: 'github', repository: 'acme/site', commit_sha: commit, pull_request: 8 };
      const check = await openCheck('checkout', source);
      await waitFor(() => github.statuses(commit), 2, 'statuses before review');
      expect((await review(check, 'reject')).status).toBe(200);
      await waitFor(() => github.statuses(commit), 3, 'statuses after rejection');
      expect((await ci.post(`/release-checks/${check.id}/rerun`)).status).toBe(202);
      const statuses = await waitFor(() => github.statuses(commit), 5, 'statuses after rerun');
      expect(statuses.map((status) => [status.state, status.description])).toEqual([
        ['pending', 'Collecting evidence of 1 pair'],
        ['pending', '1 pair awaits review'],
        ['failure', `Rejected by ${bob.email.split('@')[0]}`],
        ['pending', 'Collecting evidence of 1 pair'],
        ['pending', '1 pair awaits review'],
      ]);
      expect(new Set(statuses.map((status) => status.context))).toEqual(new Set(['vigil/checkout']));
      await waitFor(() => github.requests(/^(POST|PATCH) \/repos\/acme\/site\/issues\/(8\/)?comments/), 5, 'comments');
      expect(github.commentsOn('acme/site#8')).toHaveLength(1);
      expect(github.commentsOn('acme/site#8')[0].body).toContain('revision 2');
    });

    it('missing evidence fails the status; a token near its expiry is not reused', async () => {
      github.tokenLifetimeMs = 4 * 60_000; // inside the 5-minute renewal margin
      try {
        // A changed connection gets a new client, so the hour-long token minted so far is not used again.
        await asAlice().patch(`/code-host-connections/${githubConnection.id}`, { name: 'Acme (GitHub)' });
        const commit = sha();
        const exchanges = github.requests(/access_tokens$/).length;
        const commentCalls = github.requests(/\/comments/).length;
        await openCheck('missing page', { provider: 'github', repository: 'acme/site', commit_sha: commit }, '/gone');
        const statuses = await waitFor(() => github.statuses(commit), 2, 'statuses');
        expect(statuses.map((status) => [status.state, status.description, status.context])).toEqual([
          ['pending', 'Collecting evidence of 1 pair', 'vigil/missing page'],
          ['failure', 'Evidence is missing for 1 of 1 pair', 'vigil/missing page'],
        ]);
        // No pull request: no comment. Each delivery minted its own token.
        expect(github.requests(/\/comments/)).toHaveLength(commentCalls);
        expect(github.requests(/access_tokens$/)).toHaveLength(exchanges + 2);
      } finally {
        github.tokenLifetimeMs = 3_600_000;
      }
    });

    it('refuses a repository path that would address another one on the code host', async () => {
      for (const repository of ['acme/..', 'acme/site/extra']) {
        const created = await ci.post('/release-checks', {
          name: 'odd',
          production_url: `${site.origin}/prod`,
          preview_url: `${site.origin}/preview`,
          request_key: `odd-${randomBytes(4).toString('hex')}`,
          pages: [{ production_path: '/', preview_path: '/' }],
          source: { provider: 'github', repository, commit_sha: sha() },
        });
        expect({ repository, status: created.status, field: created.body.errors?.[0]?.field }).toEqual({
          repository,
          status: 400,
          field: 'source.repository',
        });
      }
    });

    it('a repository no connection serves gets no deliveries', async () => {
      const check = await openCheck('elsewhere', {
        provider: 'github',
        repository: 'someone-else/site',
        commit_sha: sha(),
      });
      const events = await db.query(
        `select type, destination_ids from events where data->>'release_check_id' = $1 order by seq`,
        [check.id],
      );
      expect(events.rows).toEqual([
        { type: 'release_check.started', destination_ids: [] },
        { type: 'release_check.completed', destination_ids: [] },
      ]);
    });
  });

  describe('GitLab', () => {
    it('a host answering 500 then 201 gets the same status twice, both attempts in the delivery log', async () => {
      const commit = sha();
      gitlab.failNext(/^POST \/api\/v4\/projects\/[^/]+\/statuses\//, 500);
      // And the comment's edit after the status of the completed collection was set: the retry sets that status
      // again, which GitLab refuses as no transition (400), and then edits the comment.
      gitlab.failNext(/^PUT \/api\/v4\/projects\/[^/]+\/merge_requests\/3\/notes\/\d+$/, 500);
      const check = await openCheck('storefront', {
        provider: 'gitlab',
        repository: 'platform/web',
        commit_sha: commit,
        pull_request: 3,
        branch: 'feature/banner',
      });
      await waitFor(() => gitlab.statuses(commit), 2, 'statuses before review');
      expect((await review(check, 'approve')).status).toBe(200);
      const statuses = await waitFor(() => gitlab.statuses(commit), 3, 'statuses after review');
      expect(statuses.map((status) => [status.state, status.name, status.ref])).toEqual([
        ['pending', 'vigil/storefront', 'feature/banner'],
        // GitLab refuses pending after pending: waiting for a review is `running`.
        ['running', 'vigil/storefront', 'feature/banner'],
        ['success', 'vigil/storefront', 'feature/banner'],
      ]);
      const attempts = gitlab.requests(new RegExp(`^POST /api/v4/projects/platform%2Fweb/statuses/${commit}$`));
      expect(attempts.map((request) => [request.body.state, request.status])).toEqual([
        ['pending', 500],
        ['pending', 201],
        ['running', 201],
        ['running', 400],
        ['success', 201],
      ]);
      expect(attempts[1].body).toEqual(attempts[0].body);
      expect(attempts.every((request) => request.headers['private-token'] === gitlab.token)).toBe(true);

      const log = await ci.get('/webhook-deliveries', {
        query: { destination_id: gitlabConnection.id, event_type: 'release_check.started' },
      });
      const [delivery] = log.body.data.filter((entry: Json) => entry.status === 'succeeded');
      expect(delivery.url).toBe(`${gitlab.url}/api/v4`);
      expect(delivery.attempts.map((attempt: Json) => attempt.response_status)).toEqual([500, 201]);
      expect(delivery.request.headers['private-token']).toBe('[redacted]');
      expect(JSON.stringify(log.body)).not.toContain(gitlab.token);

      const noteWrites = () => gitlab.requests(/^(POST|PUT) \/api\/v4\/projects\/[^/]+\/merge_requests\/3\/notes/);
      await waitFor(noteWrites, 4, 'notes');
      expect(noteWrites().map((request) => [request.method, request.status])).toEqual([
        ['POST', 201],
        ['PUT', 500],
        ['PUT', 200],
        ['PUT', 200],
      ]);
      expect(gitlab.commentsOn('platform/web!3')).toHaveLength(1);
      expect(gitlab.commentsOn('platform/web!3')[0].body).toContain('✅ Approved');

      // An earlier status cannot be sent again (it would show a gate the check no longer has); the latest can.
      const sent = (await ci.get('/webhook-deliveries', { query: { destination_id: gitlabConnection.id } })).body
        .data as Json[];
      const ofThisCheck = (type: string) =>
        sent.find((entry) => entry.event_type === type && entry.status === 'succeeded')!;
      const stale = await asAlice().post(`/webhook-deliveries/${ofThisCheck('release_check.started').id}/redeliver`);
      expect(stale.status).toBe(409);
      const again = await asAlice().post(`/webhook-deliveries/${ofThisCheck('release_check.reviewed').id}/redeliver`);
      expect(again.status).toBeLessThan(300);
      await waitFor(noteWrites, 5, 'the redelivered comment');
      expect(gitlab.commentsOn('platform/web!3')).toHaveLength(1);
    });
  });
});
