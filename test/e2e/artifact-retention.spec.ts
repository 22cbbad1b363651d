import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ArtifactRetention } from '../../src/artifacts/artifact-retention';
import { LocalArtifactStore } from '../../src/artifacts/artifact-store';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

/** Monitor screenshots and report files past ARTIFACT_RETENTION_DAYS are deleted; what is still needed is kept. */
describe('artifact retention', () => {
  let api: TestApp;
  let db: Client;
  let owner: Account;
  let key: IssuedKey;
  let store: LocalArtifactStore;

  beforeAll(async () => {
    // The scheduler role sweeps; its own schedule ticks are kept out of the way.
    api = await startTestApp({ ROLE: 'all', ARTIFACT_RETENTION_DAYS: '30', SCHEDULER_TICK_MS: '60000' });
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    owner = await createAccount(new ApiClient(api.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'changes:read', 'reports:read', 'reports:write']);
    store = new LocalArtifactStore(api.config.artifactDir);
  });

  afterAll(async () => {
    await db?.end();
    await api?.close();
  });

  it('deletes screenshots only old changes point to, keeps those a newer change or the monitor still needs', async () => {
    const monitor = (await key.client.post('/monitors', { name: 'Shop', url: 'https://example.com/' })).body.id;
    await db.query('update monitors set paused = true, next_check_at = null where id = $1', [monitor]);
    const shot = (name: string) => `monitors/${monitor}/${name}-${randomUUID()}.png`;
    const [oldest, shared, current, lonely] = [shot('oldest'), shot('shared'), shot('current'), shot('lonely')];
    for (const file of [oldest, shared, current, lonely]) await store.put(file, Buffer.from(file));
    const change = async (detectedAt: Date, before: string | null, after: string | null) => {
      const id = randomUUID();
      await db.query(
        `insert into changes (id, workspace_id, monitor_id, kind, region, check_id, detected_at, summary,
                              before_screenshot_key, after_screenshot_key)
         values ($1, $2, $3, 'content', 'local', $4, $5, '{"text": "Changed", "source": "heuristic"}', $6, $7)`,
        [id, owner.workspaceId, monitor, randomUUID(), detectedAt, before, after],
      );
      return id;
    };
    const old = await change(daysAgo(45), oldest, shared);
    const alsoOld = await change(daysAgo(40), null, lonely);
    const recent = await change(daysAgo(5), shared, current);
    await db.query('update monitors set screenshot_key = $1 where id = $2', [current, monitor]);

    const swept = await api.app.get(ArtifactRetention).sweep();
    expect(swept.screenshots).toBe(2);
    expect(await store.get(oldest)).toBeNull();
    expect(await store.get(lonely)).toBeNull();
    expect(await store.get(shared)).not.toBeNull();
    expect(await store.get(current)).not.toBeNull();
    for (const id of [old, alsoOld]) {
      const { body } = await key.client.get(`/changes/${id}`);
      expect([body.before_screenshot_url, body.after_screenshot_url]).toEqual([null, null]);
    }
    const kept = (await key.client.get(`/changes/${recent}`)).body;
    expect(kept.after_screenshot_url).not.toBeNull();
    expect((await key.client.get(kept.after_screenshot_url.replace('/api/v1', ''))).status).toBe(200);
    // A second sweep finds nothing more.
    expect(await api.app.get(ArtifactRetention).sweep()).toEqual({ screenshots: 0, reportFiles: 0 });
  });

  it('deletes report files past retention; the run stays, without its file; release-check evidence is untouched', async () => {
    const report = (
      await key.client.post('/reports', {
        name: 'Old',
        type: 'changes',
        period: { preset: 'last_7_days' },
        format: 'json',
      })
    ).body.id;
    const oldRun = (await key.client.post(`/reports/${report}/generate`)).body;
    const newRun = (await key.client.post(`/reports/${report}/generate`)).body;
    expect([oldRun.status, newRun.status]).toEqual(['ready', 'ready']);
    const oldKey = (
      await db.query<{ artifact_key: string }>(
        'update report_runs set generated_at = $1 where id = $2 returning artifact_key',
        [daysAgo(31), oldRun.id],
      )
    ).rows[0].artifact_key;
    expect(await store.get(oldKey)).not.toBeNull();
    const evidence = `release-checks/${randomUUID()}/1/production-desktop.png`;
    await store.put(evidence, Buffer.from('evidence'));

    const swept = await api.app.get(ArtifactRetention).sweep();
    expect(swept.reportFiles).toBe(1);
    expect(await store.get(oldKey)).toBeNull();
    const run = (await key.client.get(`/reports/${report}/runs/${oldRun.id}`)).body;
    expect([run.status, run.download_url, run.sha256]).toEqual(['ready', null, oldRun.sha256]);
    const gone = await key.client.get(`/reports/${report}/runs/${oldRun.id}/download`);
    expect(gone.status).toBe(404);
    expect((await key.client.get(`/reports/${report}/runs/${newRun.id}/download`)).status).toBe(200);
    expect(await store.get(evidence)).not.toBeNull();
  });
});
