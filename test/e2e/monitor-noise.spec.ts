import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { type MovingSite, startMovingSite } from '../support/moving-site';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Monitors on pages that move on their own record nothing however often they are checked; a deployment with a
 * visual, a metadata and a text change is recorded once each, with the right kind (decision 0012).
 */
describe('monitors on pages that move on their own', () => {
  let service: TestApp;
  let site: MovingSite;
  let key: IssuedKey;

  beforeAll(async () => {
    site = await startMovingSite();
    // Scheduled checks once a minute at most: nearly all checks are those the tests ask for (one that overlaps a test's
    // own check must not make a second change of one move: the last test shows that).
    service = await startTestApp({ SCHEDULER_TICK_MS: '60000' });
    const person = await createAccount(new ApiClient(service.baseUrl));
    key = await issueKey(person, ['monitors:read', 'monitors:write', 'changes:read']);
    const admin = await signInAsAdmin(new ApiClient(service.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
  });

  afterAll(async () => {
    await service?.close();
    await site?.close();
  });

  async function monitor(path: string, body: Record<string, unknown> = {}): Promise<string> {
    const created = await key.client.post('/monitors', { name: path, url: `${site.url}${path}`, ...body });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function check(id: string): Promise<void> {
    const run = await key.client.post(`/monitors/${id}/check`);
    expect(run.status).toBe(200);
    expect(run.body.results.map((result: { ok: boolean }) => result.ok)).toEqual([true]);
  }

  async function changes(id: string): Promise<any[]> {
    const listed = await key.client.get(`/changes?monitor_id=${id}&per_page=100`);
    expect(listed.status).toBe(200);
    return listed.body.data;
  }

  it('records nothing on pages that only move, and one change of the right kind per real change', async () => {
    const watched = {
      clockInBrowser: await monitor('/clock', { mode: 'browser' }),
      shuffled: await monitor('/testimonials', { mode: 'browser' }),
      priceBesideClock: await monitor('/price', {
        mode: 'browser',
        tracked_values: [{ name: 'price', selector: '#price', kind: 'price' }],
      }),
      serverTimeInBrowser: await monitor('/server-time', { mode: 'browser' }),
      abHeadline: await monitor('/ab', { mode: 'browser' }),
      carousel: await monitor('/carousel', { mode: 'browser', visual_threshold: 0.0005 }),
      serverTime: await monitor('/server-time'),
      clockText: await monitor('/clock'),
    };
    for (let round = 0; round < 3; round++) {
      for (const id of Object.values(watched)) await check(id);
    }
    for (const [name, id] of Object.entries(watched)) {
      expect({ name, changes: await changes(id) }).toEqual({ name, changes: [] });
    }
    // The server's timestamp and request number were learned as moving on their own.
    const learned = await key.client.get(`/monitors/${watched.serverTime}`);
    expect(learned.body.unstable_lines).toEqual(expect.arrayContaining([expect.stringMatching(/^Rendered at /)]));

    site.deploy('changed');
    for (let round = 0; round < 2; round++) {
      for (const id of Object.values(watched)) await check(id);
    }
    const kinds = async (id: string) => (await changes(id)).map((change) => change.kind);
    // A new button colour: a visual change with its difference image, nothing else.
    expect(await kinds(watched.carousel)).toEqual(['visual']);
    const [visual] = await changes(watched.carousel);
    expect(visual.visual).toMatchObject({ threshold: 0.0005, diff_url: expect.stringMatching(/diff\.png$/) });
    expect(visual.visual.mismatch_ratio).toBeGreaterThan(0.0005);
    const diff = await fetch(`${service.baseUrl}${visual.visual.diff_url}`, { headers: { 'X-API-Key': key.secret } });
    expect(diff.status).toBe(200);
    // noindex on a page whose text moves: one metadata change, in both modes.
    for (const id of [watched.serverTime, watched.serverTimeInBrowser]) {
      const recorded = await changes(id);
      expect(recorded.map((change) => change.kind)).toEqual(['metadata']);
      expect(recorded[0].metadata).toEqual([{ field: 'robots', before: null, after: 'noindex' }]);
      expect(recorded[0].summary.text).toBe('The robots directives changed from none to "noindex".');
    }
    // New shipping text: one content change, whose diff names the line.
    expect(await kinds(watched.clockText)).toEqual(['content']);
    const [text] = await changes(watched.clockText);
    const detail = await key.client.get(`/changes/${text.id}`);
    expect(detail.body.diff.added.join('\n')).toMatch(/16:00/);
    // A new canonical link beside a client-side A/B headline: the link is the change, the headline never was.
    const [canonical, ...others] = await changes(watched.abHeadline);
    expect(others).toEqual([]);
    expect(canonical).toMatchObject({
      kind: 'metadata',
      metadata: [{ field: 'canonical', before: '/ab', after: '/ab-new' }],
    });
    // The pages without a real change still record nothing.
    for (const id of [watched.shuffled, watched.priceBesideClock]) {
      expect(await changes(id)).toEqual([]);
    }
  }, 360_000);

  it('a deployment seen by two checks at once is one visual change (the later one compared with a stale screenshot)', async () => {
    site.deploy('production');
    const carousel = await monitor('/carousel', { mode: 'browser', visual_threshold: 0.0005 });
    await check(carousel);
    site.deploy('changed');
    await Promise.all([check(carousel), check(carousel)]);
    expect((await changes(carousel)).map((change) => change.kind)).toEqual(['visual']);
    // The screenshot stored is the new one: the next check finds nothing.
    await check(carousel);
    expect(await changes(carousel)).toHaveLength(1);
  }, 120_000);
});
