import { Client } from 'pg';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestSite } from '../support/test-site';

type Json = Record<string, any>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A page with one image without alt text; `fixed` gives it alt text and adds a low-contrast paragraph instead. */
function shop(fixed: boolean): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><main><h1>Shop</h1>
${fixed ? '<img src="/logo.png" alt="Vigil Shop">' : '<img src="/logo.png">'}
${fixed ? '<p style="color:#bbb;background:#fff">Free delivery over 50</p>' : '<p>Free delivery over 50</p>'}
</main></body></html>`;
}

/** Accessibility scans through HTTP, run by a real worker in real Chromium, against pages served on 127.0.0.1. */
describe('accessibility scans: axe-core findings against a baseline a person attested', () => {
  let service: TestApp;
  let site: TestSite;
  let owner: Account;
  let key: IssuedKey;
  let monitorId: string;

  beforeAll(async () => {
    site = await new TestSite().start();
    site.set('/shop', shop(false));
    service = await startTestApp();
    const api = new ApiClient(service.baseUrl);
    owner = await createAccount(api);
    key = await issueKey(owner, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(api);
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    const monitor = await key.client.post('/monitors', { name: 'Shop', url: `${site.origin}/shop` });
    monitorId = monitor.body.id;
  });
  afterAll(async () => {
    await service.close();
    await site.stop();
  });

  async function scan(body?: Json, onMonitor = monitorId): Promise<Json> {
    const started = await key.client.post(`/monitors/${onMonitor}/a11y-scan`, body);
    expect(started.status).toBe(202);
    expect(started.headers.get('location')).toBe(`/api/v1/a11y-scans/${started.body.id}`);
    expect(started.body).toMatchObject({ status: 'queued', summary: null, axe_version: null });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const current = (await key.client.get(`/a11y-scans/${started.body.id}`)).body;
      if (current.status === 'completed' || current.status === 'failed') return current;
      if (Date.now() > deadline) throw new Error(`scan ${started.body.id} did not end: ${current.status}`);
      await sleep(200);
    }
  }

  const report = async (scanId: string) => (await key.client.get(`/a11y-scans/${scanId}/report`)).body;

  it('scans at both viewports by default, with fingerprinted findings and the rules that ran', async () => {
    const done = await scan();
    expect(done).toMatchObject({
      status: 'completed',
      failure: null,
      viewports: ['desktop', 'mobile'],
      tags: ['wcag2a', 'wcag2aa', 'wcag21aa'],
      axe_version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      summary: { violations: 2, by_impact: { critical: 2 }, new: null, fixed: null },
    });
    const { findings, baseline, comparison } = await report(done.id as string);
    expect(findings.map((finding: Json) => finding.fingerprint).sort()).toEqual([
      'image-alt | desktop | img',
      'image-alt | mobile | img',
    ]);
    expect(findings[0]).toMatchObject({ rule_id: 'image-alt', help_url: expect.stringContaining('image-alt') });
    expect([baseline, comparison]).toEqual([null, null]);
  });

  it('attested as the baseline, a later scan shows the fixed image and the new contrast failure, by fingerprint', async () => {
    site.set('/shop', shop(false));
    const before = await scan({ viewports: ['mobile'] });
    const attested = await owner.session.post(`/a11y-scans/${before.id}/attest`, {
      note: 'Checked with a screen reader; the logo alt text is a known gap.',
    });
    expect(attested.status).toBe(201);
    expect(attested.body).toMatchObject({
      scan_id: before.id,
      monitor_id: monitorId,
      attested_by: { id: owner.id, email: owner.email },
      axe_version: before.axe_version,
    });

    site.set('/shop', shop(true));
    const after = await scan({ viewports: ['mobile'] });
    expect(after.summary).toMatchObject({ violations: 1, new: 1, fixed: 1 });
    const result = await report(after.id as string);
    expect(result.baseline).toMatchObject({
      scan_id: before.id,
      attested_by: { email: owner.email },
      note: expect.stringContaining('screen reader'),
    });
    expect(result.comparison).toMatchObject({
      viewports: ['mobile'],
      unchanged: 0,
      engine_version_mismatch: false,
      new: [{ rule_id: 'color-contrast', viewport: 'mobile', cause: 'regression' }],
      fixed: [{ rule_id: 'image-alt', viewport: 'mobile' }],
    });
  });

  it('keeps axe-core’s "needs review" results apart from violations, never counted among them', async () => {
    // Text over a background image: axe-core cannot decide its contrast, so a person must look.
    site.set(
      '/shop',
      `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1>
       <p style="color:#777;background:url(/texture.png) #fff">Free delivery over 50</p></main></body></html>`,
    );
    const done = await scan({ viewports: ['desktop'] });
    const result = await report(done.id as string);
    expect(result.findings).toEqual([]);
    expect(result.needs_review).toEqual([
      expect.objectContaining({
        rule_id: 'color-contrast',
        viewport: 'desktop',
        fingerprint: 'color-contrast | desktop | p',
      }),
    ]);
    expect(done.summary).toMatchObject({ violations: 0, needs_review: 1 });
  });

  it('a baseline from another axe-core version is flagged, and a finding of a rule it did not run is new_rule', async () => {
    site.set('/shop', shop(false));
    const baseline = await scan({ viewports: ['desktop'] });
    // What another engine would have recorded: an older version that did not run image-alt.
    const database = new Client({ connectionString: service.config.databaseUrl });
    await database.connect();
    try {
      await database.query(
        `update a11y_scans set axe_version = '4.0.0', findings = '[]',
                rules_run = (select coalesce(jsonb_agg(rule), '[]') from jsonb_array_elements_text(rules_run) rule
                             where rule <> 'image-alt')
          where id = $1`,
        [baseline.id],
      );
    } finally {
      await database.end();
    }
    await owner.session.post(`/a11y-scans/${baseline.id}/attest`, { note: 'Baseline from the old engine.' });
    const current = await scan({ viewports: ['desktop'] });
    const { comparison } = await report(current.id as string);
    expect(comparison.engine_version_mismatch).toBe(true);
    expect(comparison.new).toEqual([expect.objectContaining({ rule_id: 'image-alt', cause: 'new_rule' })]);
  });

  it('a page that answers 404 fails the scan with the reason, and a failed scan cannot be attested', async () => {
    const missing = await key.client.post('/monitors', { name: 'Gone', url: `${site.origin}/gone` });
    const failed = await scan({}, missing.body.id as string);
    expect(failed).toMatchObject({
      status: 'failed',
      summary: null,
      failure: { reason: 'http_error', status_code: 404, message: expect.stringContaining('404') },
    });
    const attest = await owner.session.post(`/a11y-scans/${failed.id}/attest`, { note: 'Looks fine' });
    expect([attest.status, attest.body.code]).toEqual([409, 'scan_not_completed']);
    expect((await report(failed.id as string)).comparison).toBeNull();
  });

  it('attesting is a person’s act: a key and a viewer get 403 naming a11y-scans:attest', async () => {
    const done = await scan({ viewports: ['desktop'] });
    const byKey = await key.client.post(`/a11y-scans/${done.id}/attest`, { note: 'From CI' });
    expect([byKey.status, byKey.body.required_scope]).toEqual([403, 'a11y-scans:attest']);
    const viewer = await createAccount(new ApiClient(service.baseUrl));
    await owner.session.post(`/workspaces/${owner.workspaceId}/members`, { email: viewer.email, role: 'viewer' });
    const byViewer = await viewer.session.inWorkspace(owner.workspaceId).post(`/a11y-scans/${done.id}/attest`, {
      note: 'Looks fine',
    });
    expect([byViewer.status, byViewer.body.required_scope]).toEqual([403, 'a11y-scans:attest']);
    expect((await viewer.session.inWorkspace(owner.workspaceId).get(`/a11y-scans/${done.id}/report`)).status).toBe(200);
  });

  it('lists scans newest first, by monitor and status; bad input is a 400 and another workspace’s scan a 404', async () => {
    const all = await key.client.get('/a11y-scans', { query: { monitor_id: monitorId, per_page: 100 } });
    expect(all.body.data.length).toBeGreaterThanOrEqual(4);
    const times = all.body.data.map((item: Json) => item.created_at as string);
    expect([...times].sort().reverse()).toEqual(times);
    const completed = await key.client.get(`/monitors/${monitorId}/a11y-scans`, { query: { status: 'completed' } });
    expect(completed.body.data.every((item: Json) => item.status === 'completed')).toBe(true);

    const bad = [
      await key.client.post(`/monitors/${monitorId}/a11y-scan`, { viewports: ['tablet'] }),
      await key.client.post(`/monitors/${monitorId}/a11y-scan`, { viewports: [] }),
      await key.client.post(`/monitors/${monitorId}/a11y-scan`, { depth: 2 }),
      await key.client.get('/a11y-scans', { query: { status: 'done' } }),
      await owner.session.post(`/a11y-scans/${all.body.data[0].id}/attest`, { note: '' }),
    ];
    expect(bad.map((response) => response.status)).toEqual([400, 400, 400, 400, 400]);

    const stranger = await createAccount(new ApiClient(service.baseUrl));
    expect((await stranger.session.get(`/a11y-scans/${all.body.data[0].id}`)).status).toBe(404);
    expect((await stranger.session.post(`/monitors/${monitorId}/a11y-scan`)).status).toBe(404);
    expect((await stranger.session.get('/a11y-scans')).body.data).toEqual([]);
  });
});
