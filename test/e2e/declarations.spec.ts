import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { startWorkerProcess } from '../support/worker-process';

type Json = Record<string, any>;

const WEBHOOK_SECRET = `https://hooks.example.com/vigil/${randomBytes(12).toString('hex')}`;
const SLACK_SECRET = `https://hooks.slack.com/services/T0/B0/${randomBytes(12).toString('hex')}`;
const MONITORS = 20;
const pageKey = (index: number) => `page-${String(index).padStart(2, '0')}`;

/**
 * Monitoring as code: a workspace declared in one document (20 monitors, 3 destinations, rules, a status page) is
 * planned, applied, re-applied, edited, drifted from by hand, pruned, refused when stale or invalid, and exported;
 * its secrets are never shown.
 */
describe('declarations: plan and apply a workspace', () => {
  let service: TestApp;
  let owner: Account;
  let key: IssuedKey;
  let reader: IssuedKey;
  const slug = `acme-${Date.now().toString(36)}`;

  const document = (): Json => ({
    version: 1,
    alert_destinations: {
      ops: { name: 'Ops', type: 'webhook', config: { url: WEBHOOK_SECRET }, events: ['monitor.down'] },
      team: { name: 'Team', type: 'slack', config: { webhook_url: SLACK_SECRET } },
      oncall: { name: 'On call', type: 'email', config: { to: ['oncall@example.com'] } },
    },
    monitors: Object.fromEntries(
      Array.from({ length: MONITORS }, (_, index) => [
        pageKey(index),
        {
          name: `Page ${index}`,
          url: `https://shop.example.com/page-${index}`,
          interval_seconds: 300,
          ...(index === 1 ? { parent: pageKey(0) } : {}),
          ...(index === MONITORS - 1 ? { paused: true } : {}),
          ...(index < 3
            ? {
                rules: { down: { event: 'down', destinations: ['ops', 'team'], confirm: { consecutive_failures: 2 } } },
              }
            : {}),
        },
      ]),
    ),
    status_pages: {
      public: {
        slug,
        title: 'Acme',
        published: true,
        components: [{ name: 'Shop', monitors: [pageKey(0), pageKey(1)] }],
      },
    },
  });

  const path = (suffix = '') => `/workspaces/${owner.workspaceId}/declaration${suffix}`;
  const plan = (doc: Json, prune?: boolean) =>
    key.client.post(path('/plan'), { document: doc, ...(prune === undefined ? {} : { prune }) });
  const apply = (doc: Json, fingerprint: string, prune?: boolean) =>
    key.client.post(path('/apply'), { document: doc, fingerprint, ...(prune === undefined ? {} : { prune }) });
  /** Plans and applies, as CI does after review. */
  const planAndApply = async (doc: Json, prune?: boolean) => {
    const planned = await plan(doc, prune);
    expect(planned.status).toBe(200);
    const applied = await apply(doc, planned.body.fingerprint, prune);
    expect([applied.status, applied.status === 200 ? null : applied.body]).toEqual([200, null]);
    return applied.body;
  };
  const summary = (changes: Json[]) => changes.map((change) => `${change.action} ${change.kind} ${change.key}`);
  const monitorsByKey = async (): Promise<Record<string, Json>> => {
    const listed = await key.client.get('/monitors', { query: { per_page: '100' } });
    return Object.fromEntries(
      listed.body.data.map((monitor: Json) => [monitor.declaration_key ?? monitor.name, monitor]),
    );
  };

  beforeAll(async () => {
    // An e-mail destination needs a mail server configured (nothing is sent here).
    service = await startTestApp({ ROLE: 'api', SMTP_URL: 'smtp://127.0.0.1:2525' });
    const api = new ApiClient(service.baseUrl);
    owner = await createAccount(api);
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
    reader = await issueKey(owner, ['monitors:read', 'alerts:read']);
    const admin = await signInAsAdmin(api);
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('plans every resource of a new declaration, field by field, secrets only as changed', async () => {
    const planned = await plan(document());
    expect(planned.status).toBe(200);
    expect(summary(planned.body.changes)).toEqual([
      'create alert_destination oncall',
      'create alert_destination ops',
      'create alert_destination team',
      ...Array.from({ length: MONITORS }, (_, index) => `create monitor ${pageKey(index)}`),
      'create alert_rule page-00/down',
      'create alert_rule page-01/down',
      'create alert_rule page-02/down',
      'create status_page public',
    ]);
    const [, ops] = planned.body.changes;
    expect(ops).toEqual({
      action: 'create',
      kind: 'alert_destination',
      key: 'ops',
      id: null,
      fields: [
        { field: 'name', before: null, after: 'Ops', secret: false },
        { field: 'type', before: null, after: 'webhook', secret: false },
        { field: 'config.url', before: null, after: null, secret: true },
        { field: 'events', before: null, after: ['monitor.down'], secret: false },
      ],
    });
    const child = planned.body.changes.find((change: Json) => change.key === pageKey(1));
    expect(child.fields.map((field: Json) => [field.field, field.after])).toEqual([
      ['name', 'Page 1'],
      ['url', 'https://shop.example.com/page-1'],
      ['interval_seconds', 300],
      ['parent', pageKey(0)],
    ]);
    const text = JSON.stringify(planned.body);
    expect(text).not.toContain(WEBHOOK_SECRET);
    expect(text).not.toContain(SLACK_SECRET);
    // Planning changed nothing.
    expect((await key.client.get('/monitors')).body.data).toEqual([]);
  });

  it('applies the plan in one go, marks what it made as managed, and a second apply changes nothing', async () => {
    const applied = await planAndApply(document());
    expect(applied.changes).toHaveLength(3 + MONITORS + 3 + 1);
    expect(applied.changes.every((change: Json) => typeof change.id === 'string')).toBe(true);
    expect(JSON.stringify(applied)).not.toContain(WEBHOOK_SECRET);

    const monitors = await monitorsByKey();
    expect(Object.keys(monitors).sort()).toEqual(Array.from({ length: MONITORS }, (_, index) => pageKey(index)));
    expect(monitors[pageKey(1)].parent_id).toBe(monitors[pageKey(0)].id);
    // Created paused: never scheduled.
    expect(monitors[pageKey(MONITORS - 1)]).toMatchObject({ paused: true, status: 'paused', next_check_at: null });
    const rules = await key.client.get(`/monitors/${monitors[pageKey(2)].id}/rules`);
    expect(
      rules.body.data.map((rule: Json) => [rule.declaration_key, rule.event, rule.confirm.consecutive_failures]),
    ).toEqual([['down', 'down', 2]]);
    const destinations = await key.client.get('/alert-destinations');
    expect(destinations.body.data.map((destination: Json) => destination.declaration_key).sort()).toEqual([
      'oncall',
      'ops',
      'team',
    ]);
    expect(rules.body.data[0].destination_ids.sort()).toEqual(
      destinations.body.data
        .filter((destination: Json) => ['ops', 'team'].includes(destination.declaration_key))
        .map((destination: Json) => destination.id)
        .sort(),
    );
    const page = await new ApiClient(service.baseUrl).get(`/status-pages/public/${slug}`);
    expect(page.status).toBe(200);
    expect(page.body.components.map((component: Json) => component.name)).toEqual(['Shop']);

    const again = await plan(document());
    expect(again.body.changes).toEqual([]);
    expect((await apply(document(), again.body.fingerprint)).body.changes).toEqual([]);
  });

  it('an edit of one field is one change; a hand edit of a managed monitor (drift) shows in the next plan', async () => {
    const edited = document();
    edited.monitors[pageKey(3)].interval_seconds = 60;
    const planned = await plan(edited);
    expect(planned.body.changes).toEqual([
      {
        action: 'update',
        kind: 'monitor',
        key: pageKey(3),
        id: (await monitorsByKey())[pageKey(3)].id,
        fields: [{ field: 'interval_seconds', before: 300, after: 60, secret: false }],
      },
    ]);

    const drifted = (await monitorsByKey())[pageKey(4)];
    expect((await key.client.patch(`/monitors/${drifted.id}`, { name: 'Renamed by hand' })).status).toBe(200);
    const withDrift = await plan(edited);
    expect(withDrift.body.changes.map((change: Json) => [change.key, change.fields])).toEqual([
      [pageKey(3), [{ field: 'interval_seconds', before: 300, after: 60, secret: false }]],
      [pageKey(4), [{ field: 'name', before: 'Renamed by hand', after: 'Page 4', secret: false }]],
    ]);

    // A plan made before another hand edit is stale: refused, and nothing of it is applied.
    const other = (await monitorsByKey())[pageKey(5)];
    await key.client.patch(`/monitors/${other.id}`, { name: 'Another hand' });
    const stale = await apply(edited, withDrift.body.fingerprint);
    expect([stale.status, stale.body.code]).toEqual([409, 'plan_stale']);
    expect((await monitorsByKey())[pageKey(3)].interval_seconds).toBe(300);

    const applied = await planAndApply(edited);
    expect(summary(applied.changes)).toEqual([
      `update monitor ${pageKey(3)}`,
      `update monitor ${pageKey(4)}`,
      `update monitor ${pageKey(5)}`,
    ]);
    const after = await monitorsByKey();
    expect([after[pageKey(3)].interval_seconds, after[pageKey(4)].name, after[pageKey(5)].name]).toEqual([
      60,
      'Page 4',
      'Page 5',
    ]);
  });

  it('a rotated secret shows as changed, never its value', async () => {
    const rotated = document();
    rotated.alert_destinations.ops.config.url = `${WEBHOOK_SECRET}-rotated`;
    rotated.monitors[pageKey(3)].interval_seconds = 60;
    const planned = await plan(rotated);
    expect(planned.body.changes).toEqual([
      expect.objectContaining({
        action: 'update',
        key: 'ops',
        fields: [{ field: 'config.url', before: null, after: null, secret: true }],
      }),
    ]);
    expect(JSON.stringify(planned.body)).not.toContain('hooks.example.com');
  });

  it('deletes a managed monitor the file no longer names only with prune, and never an unmanaged one', async () => {
    const byHand = await key.client.post('/monitors', { name: 'By hand', url: 'https://shop.example.com/by-hand' });
    expect(byHand.status).toBe(201);
    const fewer = document();
    fewer.monitors[pageKey(3)].interval_seconds = 60;
    delete fewer.monitors[pageKey(19)];

    expect((await plan(fewer)).body.changes).toEqual([]);
    const pruned = await planAndApply(fewer, true);
    expect(summary(pruned.changes)).toEqual([`delete monitor ${pageKey(19)}`]);
    const monitors = await monitorsByKey();
    expect(monitors[pageKey(19)]).toBeUndefined();
    expect(monitors['By hand']).toMatchObject({ name: 'By hand', declaration_key: null });
  });

  it('takes the document as YAML, with prune and fingerprint in the query', async () => {
    const applied = document();
    applied.monitors[pageKey(3)].interval_seconds = 60;
    delete applied.monitors[pageKey(19)];
    const yaml = (doc: Json) => ({ rawBody: stringify(doc), headers: { 'Content-Type': 'application/yaml' } });

    const unchanged = await key.client.post(path('/plan'), undefined, { ...yaml(applied), query: { prune: 'true' } });
    expect([unchanged.status, unchanged.body.changes]).toEqual([200, []]);
    const edited = structuredClone(applied);
    edited.monitors[pageKey(4)].name = 'Page four';
    const planned = await key.client.post(path('/plan'), undefined, { ...yaml(edited), query: { prune: 'true' } });
    expect(summary(planned.body.changes)).toEqual([`update monitor ${pageKey(4)}`]);
    const done = await key.client.post(path('/apply'), undefined, {
      ...yaml(edited),
      query: { prune: 'true', fingerprint: planned.body.fingerprint },
    });
    expect([done.status, summary(done.body.changes)]).toEqual([200, [`update monitor ${pageKey(4)}`]]);
    expect((await monitorsByKey())[pageKey(4)].name).toBe('Page four');

    const broken = await key.client.post(path('/plan'), undefined, {
      rawBody: 'version: 1\nmonitors:\n  shop: [unclosed',
      headers: { 'Content-Type': 'application/yaml' },
    });
    expect([broken.status, broken.body.errors[0].field]).toEqual([400, 'body']);
    expect(broken.body.errors[0].message).toMatch(/^is not valid YAML: .*line 3/);
    const notBoolean = await key.client.post(path('/plan'), undefined, { ...yaml(edited), query: { prune: 'yes' } });
    expect([notBoolean.status, notBoolean.body.errors[0].field]).toEqual([400, 'prune']);
    const twice = await key.client.post(path('/plan'), { document: edited }, { query: { prune: 'true' } });
    expect([twice.status, twice.body.errors]).toEqual([
      400,
      [{ field: 'prune', message: 'is a query parameter only with a YAML body; a JSON body carries it' }],
    ]);
    edited.monitors.shop = { name: 'Shop', url: 'not a url' };
    const invalid = await key.client.post(path('/plan'), undefined, yaml(edited));
    expect([invalid.status, invalid.body.errors.map((error: Json) => error.field)]).toEqual([
      400,
      ['monitors.shop.url'],
    ]);
    // Back to the document the tests below start from.
    await planAndApply(applied);
  });

  it('exports the workspace: managed resources by key, the others with ids to adopt, secrets as placeholders', async () => {
    const exported = await reader.client.get(path());
    expect(exported.status).toBe(200);
    const text = JSON.stringify(exported.body);
    expect(text).not.toContain(WEBHOOK_SECRET);
    expect(text).not.toContain(SLACK_SECRET);
    expect(exported.body.alert_destinations.ops.config).toEqual({ url: '${OPS_URL}' });
    expect(exported.body.alert_destinations.team.config).toEqual({ webhook_url: '${TEAM_WEBHOOK_URL}' });
    expect(exported.body.monitors[pageKey(1)]).toMatchObject({ name: 'Page 1', parent: pageKey(0) });
    expect(exported.body.monitors[pageKey(1)].id).toBeUndefined();
    const adoptable = exported.body.monitors['by-hand'];
    expect(adoptable).toMatchObject({ name: 'By hand', id: expect.any(String) });

    const yaml = await fetch(`${service.baseUrl}/api/v1${path()}`, {
      headers: { 'X-API-Key': reader.secret, Accept: 'application/yaml' },
    });
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(await yaml.text()).toContain('  by-hand:\n');

    // Applying the export, its secrets resolved, adopts the monitor made by hand instead of copying it.
    const resolved = structuredClone(exported.body);
    resolved.alert_destinations.ops.config.url = `${WEBHOOK_SECRET}-rotated`;
    resolved.alert_destinations.team.config.webhook_url = SLACK_SECRET;
    const planned = await plan(resolved);
    expect(summary(planned.body.changes)).toEqual(['update alert_destination ops', 'update monitor by-hand']);
    expect(planned.body.changes[1].fields).toEqual([
      { field: 'declaration_key', before: null, after: 'by-hand', secret: false },
    ]);
    await planAndApply(resolved);
    expect((await monitorsByKey())['by-hand']).toMatchObject({ name: 'By hand' });
    expect((await plan(resolved)).body.changes).toEqual([]);
  });

  it('refuses an invalid document naming the path of each offending field, and an unresolved secret', async () => {
    const invalid = document();
    invalid.version = 2;
    invalid.monitors[pageKey(0)].url = 'not a url';
    invalid.monitors['Not A Key'] = { name: 'x', url: 'https://shop.example.com/' };
    invalid.monitors[pageKey(2)].rules.down.destinations = ['nowhere'];
    invalid.monitors[pageKey(5)].parent = 'missing';
    invalid.alert_destinations.ops.config.url = '${OPS_URL}';
    const refused = await plan(invalid);
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((error: Json) => error.field)).toEqual(['version']);
    delete invalid.version;
    invalid.version = 1;
    const second = await plan(invalid);
    expect(second.status).toBe(400);
    expect(second.body.errors.map((error: Json) => error.field).sort()).toEqual(
      [
        'alert_destinations.ops.config.url',
        'monitors.Not A Key',
        `monitors.${pageKey(0)}.url`,
        `monitors.${pageKey(2)}.rules.down.destinations[0]`,
        `monitors.${pageKey(5)}.parent`,
      ].sort(),
    );
  });

  it('refuses to change what a resource cannot change: a destination of another type needs another key', async () => {
    const retyped = document();
    retyped.monitors[pageKey(3)].interval_seconds = 60;
    delete retyped.monitors[pageKey(19)];
    retyped.alert_destinations.ops = { name: 'Ops', type: 'slack', config: { webhook_url: SLACK_SECRET } };
    const refused = await plan(retyped);
    expect([refused.status, refused.body.errors]).toEqual([
      400,
      [{ field: 'alert_destinations.ops.type', message: expect.stringContaining('give it a new key') }],
    ]);
  });

  it('adopts a workspace made by hand from its export: references by the keys of the export, nothing copied', async () => {
    const hand = await createAccount(new ApiClient(service.baseUrl));
    const handKey = await issueKey(hand, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
    const hook = await handKey.client.post('/alert-destinations', {
      name: 'Hand hook',
      type: 'webhook',
      config: { url: WEBHOOK_SECRET },
    });
    const api = await handKey.client.post('/monitors', { name: 'API', url: 'https://shop.example.com/api' });
    const web = await handKey.client.post('/monitors', {
      name: 'Web',
      url: 'https://shop.example.com/web',
      parent_id: api.body.id,
    });
    await handKey.client.post(`/monitors/${web.body.id}/rules`, { event: 'down', destination_ids: [hook.body.id] });
    await handKey.client.post('/status-pages', {
      slug: `hand-${Date.now().toString(36)}`,
      title: 'Hand',
      components: [{ name: 'Site', monitor_ids: [api.body.id, web.body.id] }],
    });
    const handPath = `/workspaces/${hand.workspaceId}/declaration`;
    const exported = (await handKey.client.get(handPath)).body;
    expect(exported.monitors.web).toMatchObject({ parent: 'api', rules: { down: { destinations: ['hand-hook'] } } });
    expect(Object.values(exported.status_pages as Json)[0].components).toEqual([
      { name: 'Site', monitors: ['api', 'web'] },
    ]);
    exported.alert_destinations['hand-hook'].config.url = WEBHOOK_SECRET;

    const planned = await handKey.client.post(`${handPath}/plan`, { document: exported });
    expect(planned.status).toBe(200);
    expect(planned.body.changes.every((change: Json) => change.action === 'update')).toBe(true);
    expect(planned.body.changes).toHaveLength(5);
    // A rule is adopted with its own monitor, not moved to another.
    const moved = structuredClone(exported);
    moved.monitors.api.rules = moved.monitors.web.rules;
    delete moved.monitors.web.rules;
    const refused = await handKey.client.post(`${handPath}/plan`, { document: moved });
    expect([refused.status, refused.body.errors]).toEqual([
      400,
      [{ field: 'monitors.api.rules.down.id', message: 'is a rule of another monitor than "api"' }],
    ]);
    const applied = await handKey.client.post(`${handPath}/apply`, {
      document: exported,
      fingerprint: planned.body.fingerprint,
    });
    expect(applied.status).toBe(200);
    expect((await handKey.client.post(`${handPath}/plan`, { document: exported })).body.changes).toEqual([]);
    const monitors = (await handKey.client.get('/monitors')).body.data;
    expect(monitors.map((monitor: Json) => [monitor.name, monitor.declaration_key])).toEqual([
      ['API', 'api'],
      ['Web', 'web'],
    ]);
  });

  it('declares maintenance windows, covering monitors by their keys', async () => {
    const team = await createAccount(new ApiClient(service.baseUrl));
    const teamKey = await issueKey(team, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
    const at = (suffix = '') => `/workspaces/${team.workspaceId}/declaration${suffix}`;
    const run = async (doc: Json, prune = false) => {
      const planned = await teamKey.client.post(at('/plan'), { document: doc, prune });
      expect(planned.status).toBe(200);
      const applied = await teamKey.client.post(at('/apply'), {
        document: doc,
        prune,
        fingerprint: planned.body.fingerprint,
      });
      expect([applied.status, applied.body.errors]).toEqual([200, undefined]);
      return summary(applied.body.changes);
    };
    const deploys = {
      name: 'Sunday deploys',
      message: 'Deploying the shop',
      effect: 'pause_checks',
      monitors: ['shop'],
      starts_at: '2030-01-06T02:00:00.000Z',
      duration_minutes: 60,
      rrule: 'FREQ=WEEKLY;BYDAY=SU',
      timezone: 'Europe/Berlin',
    };
    const doc: Json = {
      version: 1,
      monitors: {
        shop: { name: 'Shop', url: 'https://shop.example.com/' },
        blog: { name: 'Blog', url: 'https://blog.example.com/' },
      },
      maintenance_windows: {
        deploys,
        yearly: { name: 'Yearly', starts_at: '2030-06-01T00:00:00Z', ends_at: '2030-06-01T04:00:00Z' },
      },
    };

    expect(await run(doc)).toEqual([
      'create monitor blog',
      'create monitor shop',
      'create maintenance_window deploys',
      'create maintenance_window yearly',
    ]);
    const windows = async () => {
      const listed = await teamKey.client.get('/maintenance-windows');
      return Object.fromEntries(listed.body.data.map((window: Json) => [window.declaration_key, window]));
    };
    const shop = (await teamKey.client.get('/monitors')).body.data.find((monitor: Json) => monitor.name === 'Shop');
    const settings: Json = { ...deploys };
    delete settings.monitors;
    expect((await windows()).deploys).toMatchObject({ ...settings, monitor_ids: [shop.id] });
    expect((await windows()).yearly).toMatchObject({ monitor_ids: [], duration_minutes: 240, effect: 'mute_alerts' });
    expect(await run(doc)).toEqual([]);

    // A hand edit shows in the next plan; the export names the monitors by key and the length once.
    await teamKey.client.patch(`/maintenance-windows/${(await windows()).deploys.id}`, { name: 'By hand' });
    const drifted = await teamKey.client.post(at('/plan'), { document: doc });
    expect(drifted.body.changes.map((change: Json) => [change.key, change.fields])).toEqual([
      ['deploys', [{ field: 'name', before: 'By hand', after: 'Sunday deploys', secret: false }]],
    ]);
    const exported = await teamKey.client.get(at());
    expect(exported.body.maintenance_windows).toEqual({
      deploys: { ...deploys, name: 'By hand' },
      yearly: {
        name: 'Yearly',
        effect: 'mute_alerts',
        starts_at: '2030-06-01T00:00:00.000Z',
        duration_minutes: 240,
        timezone: 'UTC',
      },
    });

    const invalid = structuredClone(doc);
    invalid.maintenance_windows.deploys.monitors = ['nowhere'];
    const refused = await teamKey.client.post(at('/plan'), { document: invalid });
    expect([refused.status, refused.body.errors]).toEqual([
      400,
      [{ field: 'maintenance_windows.deploys.monitors[0]', message: 'no monitor "nowhere" in the document' }],
    ]);
    delete doc.maintenance_windows.yearly;
    expect(await run(doc, true)).toEqual(['update maintenance_window deploys', 'delete maintenance_window yearly']);
    expect(Object.keys(await windows())).toEqual(['deploys']);
  });

  it('needs the write scopes to apply, and names only the workspace the caller acts in', async () => {
    const planned = await reader.client.post(path('/plan'), { document: document() });
    expect(planned.status).toBe(200);
    const refused = await reader.client.post(path('/apply'), {
      document: document(),
      fingerprint: planned.body.fingerprint,
    });
    expect(refused.status).toBe(403);
    const stranger = await issueKey(await createAccount(new ApiClient(service.baseUrl)), [
      'monitors:read',
      'alerts:read',
    ]);
    expect((await stranger.client.get(path())).status).toBe(404);
  });
});

/** The service's own log, at its most verbose, while a declaration with secrets is planned, applied and exported. */
describe('declarations: secrets stay out of the log', () => {
  let service: ReturnType<typeof startWorkerProcess>;
  let baseUrl: string;

  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    service = startWorkerProcess({ ROLE: 'api', PORT: String(port), LOG_LEVEL: 'trace' });
    baseUrl = `http://127.0.0.1:${port}`;
    for (let waited = 0; ; waited += 250) {
      const ready = await fetch(`${baseUrl}/health/ready`).catch(() => null);
      if (ready?.status === 200) break;
      if (waited > 90_000) throw new Error(`the service did not start:\n${service.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 120_000);
  afterAll(() => service?.kill());

  it('logs the requests, never a secret they carry', async () => {
    const api = new ApiClient(baseUrl);
    const owner = await createAccount(api);
    const key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
    const path = `/workspaces/${owner.workspaceId}/declaration`;
    const document = {
      version: 1,
      alert_destinations: { ops: { name: 'Ops', type: 'webhook', config: { url: WEBHOOK_SECRET } } },
      monitors: {
        shop: {
          name: 'Shop',
          url: 'https://shop.example.com/',
          rules: { down: { event: 'down', destinations: ['ops'] } },
        },
      },
    };
    const planned = await key.client.post(`${path}/plan`, { document });
    expect((await key.client.post(`${path}/apply`, { document, fingerprint: planned.body.fingerprint })).status).toBe(
      200,
    );
    const refused = await key.client.post(`${path}/apply`, { document, fingerprint: planned.body.fingerprint });
    expect(refused.status).toBe(409);
    expect((await key.client.get(path)).status).toBe(200);
    const log = service.output();
    expect(log).toContain('/declaration/apply');
    expect(log).not.toContain(WEBHOOK_SECRET.split('/').pop());
  });
});
