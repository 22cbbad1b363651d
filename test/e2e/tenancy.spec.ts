import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';
import { loadContract } from '../../src/openapi/contract';
import { SCOPES } from '../../src/common/auth/scopes';

type Json = Record<string, any>;

interface Operation {
  method: string;
  path: string;
  operationId: string;
  sessionOnly: boolean;
  hasRequiredBody: boolean;
}

/** Every operation of openapi.yaml that names a resource in its path and acts for a signed-in caller. */
function operationsWithPathIds(): Operation[] {
  const document = loadContract().document as Json;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Json)) {
    if (!path.includes('{')) continue;
    for (const [method, operation] of Object.entries(item as Json)) {
      const security = (operation.security ?? []) as Json[];
      if (!security.length) continue; // public: badges and the like name no workspace's resource by id
      if (operation['x-required-permission'] === 'admin') continue; // the instance's administration
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId as string,
        sessionOnly: !security.some((requirement) => 'ApiKeyAuth' in requirement),
        hasRequiredBody: operation.requestBody?.required === true,
      });
    }
  }
  return operations;
}

/**
 * A body the operation accepts, so that the answer is about whose resource it is, not about the body. A new operation
 * with a required body fails the test until it is added here.
 */
const VALID_BODIES: Record<string, unknown> = {
  updateMonitor: { name: 'Renamed by a stranger' },
  setMonitorRegions: { regions: ['local'] },
  updateChange: { archived: true },
  reviewReleaseCheck: { decision: 'approve', note: 'Looks fine to me', revision: 1 },
  decideReleaseCheckPair: { decision: 'accept', revision: 1 },
  updateWorkspace: { name: 'Taken over' },
  addWorkspaceMember: { email: 'someone@example.com', role: 'viewer' },
  updateWorkspaceMember: { role: 'viewer' },
  attestA11yScan: { note: 'Attested by a stranger' },
  updateAlertDestination: { name: 'Taken over' },
  updateCodeHostConnection: { name: 'Taken over' },
  updateAlertRule: { enabled: false },
  createAlertRule: { event: 'down', destination_ids: ['00000000-0000-4000-8000-000000000000'] },
  createMonitorsFromCrawl: { urls: ['https://example.com/'] },
  updateStatusPage: { published: false },
  createIncident: { title: 'Taken over', impact: 'critical', message: 'Down' },
  updateIncident: { status: 'resolved', message: 'Fine' },
  planDeclaration: { document: { version: 1 } },
  applyDeclaration: { document: { version: 1 }, fingerprint: 'f'.repeat(64) },
  updateMaintenanceWindow: { name: 'Taken over' },
};

/**
 * Tenancy, generated from the contract: every operation that names a resource of workspace A is called with the
 * credentials of workspace B (its session, its key with every scope, and its session naming A's workspace), and must
 * answer 404 and change nothing. A new operation is covered the day it is added to openapi.yaml.
 */
describe("another workspace's resources are a 404 for every operation, with every kind of credentials", () => {
  let service: TestApp;
  let site: TestSite;
  let alice: Account;
  let aliceKey: IssuedKey;
  let bob: Account;
  let bobKey: IssuedKey;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    site = await new TestSite().start();
    site.set('/shop', page({ body: '<h1>Shop</h1><p class="price">$10</p>' }));
    site.set('/prod/pricing', page());
    site.set('/preview/pricing', page());
    // Every answer to a known caller spends its bucket, refusals too; this file calls each operation as B many times.
    service = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    const api = new ApiClient(service.baseUrl);
    [alice, bob] = [await createAccount(api), await createAccount(api)];
    aliceKey = await issueKey(alice, [...SCOPES]);
    bobKey = await issueKey(bob, [...SCOPES]);
    const admin = await signInAsAdmin(api);
    for (const key of [aliceKey, bobKey]) {
      await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    }

    // Workspace A: a monitor with checks, a change and tracked values, a release check with artifacts, a key, an
    // alert destination (subscribed to changes, so the change below is delivered to it) and a rule.
    site.set('/hook', page());
    const destination = await aliceKey.client.post('/alert-destinations', {
      name: 'Hook',
      type: 'webhook',
      config: { url: `${site.origin}/hook` },
      events: ['change.detected', 'value.changed'],
    });
    ids.destination = destination.body.id;
    const connection = await alice.session.post('/code-host-connections', {
      name: 'Acme on GitLab',
      provider: 'gitlab',
      namespace: 'acme',
      token: 'glpat-alice',
      base_url: `${site.origin}/gitlab`,
    });
    expect(connection.status).toBe(201);
    ids.codeHostConnection = connection.body.id;
    const monitor = await aliceKey.client.post('/monitors', {
      name: 'Shop',
      url: `${site.origin}/shop`,
      tracked_values: [{ name: 'price', selector: '.price', kind: 'price' }],
    });
    ids.monitor = monitor.body.id;
    await aliceKey.client.post(`/monitors/${ids.monitor}/check`);
    site.set('/shop', page({ body: '<h1>Shop</h1><p class="price">$12</p>' }));
    await aliceKey.client.post(`/monitors/${ids.monitor}/check`);
    const changes = await aliceKey.client.get('/changes', { query: { monitor_id: ids.monitor } });
    expect(changes.body.data.length).toBeGreaterThan(0);
    ids.change = changes.body.data[0].id;
    const rule = await aliceKey.client.post(`/monitors/${ids.monitor}/rules`, {
      event: 'down',
      destination_ids: [ids.destination],
    });
    ids.rule = rule.body.id;
    for (let waited = 0; !ids.delivery && waited < 20_000; waited += 100) {
      const deliveries = await aliceKey.client.get('/webhook-deliveries');
      ids.delivery = deliveries.body.data[0]?.id;
      if (!ids.delivery) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const check = await aliceKey.client.post('/release-checks', releaseCheckRequest());
    expect(check.status).toBe(201);
    ids.releaseCheck = check.body.id;
    ids.artifact = check.body.artifacts[0].id;
    ids.key = aliceKey.id;
    const scan = await aliceKey.client.post(`/monitors/${ids.monitor}/a11y-scan`, { viewports: ['desktop'] });
    expect(scan.status).toBe(202);
    ids.a11yScan = scan.body.id;
    const crawl = await aliceKey.client.post('/crawl', { url: `${site.origin}/shop`, max_depth: 0 });
    expect(crawl.status).toBe(202);
    ids.crawl = crawl.body.id;
    const statusPage = await aliceKey.client.post('/status-pages', {
      slug: `alice-${Date.now().toString(36)}`,
      title: 'Alice',
      published: true,
      components: [{ name: 'Shop', monitor_ids: [ids.monitor] }],
    });
    expect(statusPage.status).toBe(201);
    ids.statusPage = statusPage.body.id;
    const incident = await aliceKey.client.post(`/status-pages/${ids.statusPage}/incidents`, {
      title: 'Slow',
      impact: 'minor',
      message: 'Looking',
    });
    ids.incident = incident.body.id;
    const subscribed = await new ApiClient(service.baseUrl).post(
      `/status-pages/public/${statusPage.body.slug}/subscribers`,
      {
        webhook_url: `${site.origin}/hook`,
      },
    );
    expect(subscribed.status).toBeLessThan(300);
    const subscribers = await aliceKey.client.get(`/status-pages/${ids.statusPage}/subscribers`);
    ids.subscriber = subscribers.body.data[0].id;
    const window = await aliceKey.client.post('/maintenance-windows', {
      name: 'Database upgrade',
      monitor_ids: [ids.monitor],
      starts_at: new Date(Date.now() + 86_400_000).toISOString(),
      duration_minutes: 30,
    });
    expect(window.status).toBe(201);
    ids.maintenanceWindow = window.body.id;
    const report = await aliceKey.client.post('/reports', {
      name: 'Alice',
      type: 'uptime',
      period: { preset: 'last_7_days' },
      format: 'json',
    });
    ids.report = report.body.id;
    const run = await aliceKey.client.post(`/reports/${ids.report}/generate`);
    expect(run.status).toBe(200);
    ids.run = run.body.id;
  });
  afterAll(async () => {
    await service.close();
    await site.stop();
  });

  /** Both workspaces open a check with the same request_key: unique per workspace, so two checks. */
  const releaseCheckRequest = () => ({
    name: 'Release',
    production_url: `${site.origin}/prod`,
    preview_url: `${site.origin}/preview`,
    request_key: 'shared-request-key',
    pages: [{ production_path: '/pricing', preview_path: '/pricing' }],
    viewports: ['desktop'],
  });

  /** The path with A's identifiers in it; an unknown resource fails the test until it is mapped here. */
  function pathFor(template: string): string {
    const resource = template.split('/')[1];
    const idOf: Record<string, string | undefined> = {
      monitors: ids.monitor,
      changes: ids.change,
      'release-checks': ids.releaseCheck,
      'a11y-scans': ids.a11yScan,
      'alert-destinations': ids.destination,
      'code-host-connections': ids.codeHostConnection,
      'webhook-deliveries': ids.delivery,
      crawl: ids.crawl,
      'status-pages': ids.statusPage,
      reports: ids.report,
      'maintenance-windows': ids.maintenanceWindow,
      users: ids.key,
      workspaces: alice.workspaceId,
    };
    return template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
      const value: string | undefined =
        name === 'id'
          ? idOf[resource]
          : {
              artifact_id: ids.artifact,
              rule_id: ids.rule,
              incident_id: ids.incident,
              subscriber_id: ids.subscriber,
              run_id: ids.run,
              user_id: alice.id,
              name: resource === 'changes' ? 'after.png' : 'preview.png',
            }[name];
      if (!value) throw new Error(`no identifier of workspace A for {${name}} in ${template}: add it to the test`);
      return value;
    });
  }

  const operations = operationsWithPathIds();

  it('covers every operation that names a resource (a sanity check of the generation)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(24);
    const missing = operations.filter((op) => op.hasRequiredBody && !(op.operationId in VALID_BODIES));
    expect(missing.map((op) => op.operationId)).toEqual([]);
  });

  it.each(operationsWithPathIds().map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s answers 404 to workspace B',
    async (_name, op) => {
      const path = pathFor(op.path);
      const callers: [string, ApiClient][] = [
        ['session of B', bob.session],
        ["session of B naming A's workspace", bob.session.inWorkspace(alice.workspaceId)],
      ];
      if (!op.sessionOnly) {
        callers.push(['key of B with every scope', bobKey.client]);
        callers.push(["key of B naming A's workspace", bobKey.client.inWorkspace(alice.workspaceId)]);
      }
      for (const [who, client] of callers) {
        const response = await client.request(op.method, path, { body: VALID_BODIES[op.operationId] });
        expect({ who, status: response.status, code: response.body?.code }).toEqual({
          who,
          status: 404,
          code: 'not_found',
        });
      }
    },
  );

  it('a key of workspace A named in a body (regenerate) is a 404 to workspace B too', async () => {
    const response = await bob.session.post('/users/me/api-key', { key_id: ids.key });
    expect(response.status).toBe(404);
  });

  it('changed nothing in workspace A, and A still reads every one of those resources', async () => {
    const monitor = await aliceKey.client.get(`/monitors/${ids.monitor}`);
    expect(monitor.status).toBe(200);
    expect(monitor.body.name).toBe('Shop');
    expect(monitor.body.badge_enabled).toBe(false);
    const change = await aliceKey.client.get(`/changes/${ids.change}`);
    expect(change.body.archived).toBe(false);
    expect((await aliceKey.client.get(`/status-pages/${ids.statusPage}`)).body.published).toBe(true);
    const incidents = await aliceKey.client.get(`/status-pages/${ids.statusPage}/incidents`);
    expect(incidents.body.data.map((incident: Json) => [incident.title, incident.status])).toEqual([
      ['Slow', 'investigating'],
    ]);
    expect((await aliceKey.client.get(`/reports/${ids.report}`)).status).toBe(200);
    expect((await aliceKey.client.get(`/release-checks/${ids.releaseCheck}`)).body.review.decision).toBeNull();
    const keys = await alice.session.get('/users/me/api-keys');
    expect(keys.body.data.find((key: Json) => key.id === ids.key).revoked_at).toBeNull();
    const connection = await alice.session.get(`/code-host-connections/${ids.codeHostConnection}`);
    expect(connection.body.name).toBe('Acme on GitLab');
    const members = await alice.session.get(`/workspaces/${alice.workspaceId}/members`);
    expect(members.body.data.map((member: Json) => [member.email, member.role])).toEqual([[alice.email, 'admin']]);
    const window = await aliceKey.client.get(`/maintenance-windows/${ids.maintenanceWindow}`);
    expect([window.body.name, window.body.ended_at ?? null]).toEqual(['Database upgrade', null]);
    const subscribers = await aliceKey.client.get(`/status-pages/${ids.statusPage}/subscribers`);
    expect(subscribers.body.data.map((subscriber: Json) => subscriber.id)).toEqual([ids.subscriber]);
  });

  it("lists and exports of workspace B never contain A's rows, even when asked for A's monitor", async () => {
    const lists: [string, Record<string, string>?][] = [
      ['/monitors'],
      ['/changes'],
      ['/changes', { monitor_id: ids.monitor }],
      ['/release-checks'],
      ['/users/me/api-keys'],
      ['/export/changes', { monitor_id: ids.monitor }],
      ['/export/tracked-values', { monitor_id: ids.monitor }],
      ['/a11y-scans'],
      ['/alert-destinations'],
      ['/webhook-deliveries'],
      ['/webhook-deliveries', { destination_id: ids.destination }],
      ['/a11y-scans', { monitor_id: ids.monitor }],
      ['/crawl'],
      ['/status-pages'],
      ['/reports'],
      ['/maintenance-windows'],
    ];
    for (const [path, query] of lists) {
      for (const client of [bob.session, bobKey.client]) {
        const response = await client.get(path, { query });
        expect(response.status).toBe(200);
        const text = JSON.stringify(response.body);
        for (const id of Object.values(ids))
          expect({ path, leaked: text.includes(id) }).toEqual({ path, leaked: false });
      }
    }
    const connections = await bob.session.get('/code-host-connections');
    expect(connections.body.data).toEqual([]);
    // The same request_key in another workspace is another release check.
    const own = await bobKey.client.post('/release-checks', releaseCheckRequest());
    expect(own.status).toBe(201);
    expect(own.body.id).not.toBe(ids.releaseCheck);
  });
});
