import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { waitForCollection } from '../support/release-checks';
import { startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let keyCounter = 0;
const SOURCE = {
  provider: 'github',
  repository: 'acme/shop',
  commit_sha: '3f786850e387550fdab836ed7e6dc881de23001b',
  pull_request: 482,
  branch: 'new-pricing',
};
const newRequestKey = () => `rk-${Date.now()}-${(keyCounter += 1)}`;

describe('release checks (real Chromium, PostgreSQL, Redis and queue workers)', () => {
  let service: TestApp;
  let site: TestSite;
  let person: Account;
  let ci: IssuedKey;

  beforeAll(async () => {
    site = await new TestSite().start();
    service = await startTestApp();
    person = await createAccount(new ApiClient(service.baseUrl));
    ci = await issueKey(person, ['monitors:read', 'monitors:write']);
    // The tests poll far faster than a CI job would: an administrator raises the key's ceiling, as for a busy CI.
    const admin = await signInAsAdmin(new ApiClient(service.baseUrl));
    await admin.put(`/admin/api-keys/${ci.id}/rate-limit`, { requests_per_minute: 100_000 });
  });
  afterAll(async () => {
    await service.close();
    await site.stop();
  });

  function request(prefix: string, overrides: Record<string, unknown> = {}) {
    return {
      name: `release ${prefix}`,
      production_url: `${site.origin}/${prefix}/prod`,
      preview_url: `${site.origin}/${prefix}/preview`,
      request_key: newRequestKey(),
      pages: [{ production_path: '/pricing', preview_path: '/pricing', required_selector: 'main' }],
      viewports: ['desktop'],
      ...overrides,
    };
  }

  async function submit(body: Record<string, unknown>) {
    const created = await ci.client.post('/release-checks', body);
    expect(created.status).toBe(201);
    return created.body;
  }

  const collected = (id: string) => waitForCollection(ci.client, id);

  it('identical production and preview: completed, no differences, pending until a documented approval passes it', async () => {
    site.set('/same/prod/pricing', page({ robots: 'index, follow', canonical: 'https://www.example.com/pricing' }));
    site.set('/same/preview/pricing', page({ robots: 'index, follow', canonical: 'https://www.example.com/pricing' }));
    const created = await submit(request('same', { viewports: ['desktop', 'mobile'] }));
    expect(created).toMatchObject({ revision: 1, gate: 'pending', review: { status: 'awaiting_review' } });
    expect(['queued', 'running']).toContain(created.collection_status);

    const check = await collected(created.id);
    expect(check).toMatchObject({
      collection_status: 'completed',
      gate: 'pending',
      summary: { pairs: 2, captured: 2, missing: 0, with_differences: 0, new_findings: 0 },
      review: { status: 'awaiting_review', decision: null },
    });
    for (const artifact of check.artifacts) {
      expect(artifact.state).toBe('compared');
      expect(artifact.production).toMatchObject({
        state: 'captured',
        status: 200,
        robots: 'index, follow',
        required_selector_found: true,
      });
      expect(artifact.production.axe_version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(artifact.comparison).toMatchObject({
        has_differences: false,
        text: { changed: false },
        robots: { changed: false },
        canonical: { changed: false },
        screenshot: { mismatch_ratio: 0, changed: false, diff_url: null },
        findings: { new: [], fixed: [] },
      });
    }

    // Time does not approve anything.
    await sleep(1500);
    expect((await ci.client.get(`/release-checks/${check.id}`)).body.gate).toBe('pending');

    const approved = await person.session.post(`/release-checks/${check.id}/review`, {
      decision: 'approve',
      note: 'Compared desktop and mobile; identical.',
      revision: 1,
    });
    expect(approved.status).toBe(200);
    expect(approved.body.gate).toBe('passed');
    expect(approved.body.review).toMatchObject({
      status: 'approved',
      revision: 1,
      decision: {
        decision: 'approve',
        note: 'Compared desktop and mobile; identical.',
        revision: 1,
        reviewer: { id: person.id, email: person.email },
        scope: { viewports: ['desktop', 'mobile'], pages: [{ production_path: '/pricing', preview_path: '/pricing' }] },
      },
    });
    expect((await ci.client.get(`/release-checks/${check.id}`)).body.gate).toBe('passed');
  });

  it('a preview answering 404 is missing evidence: incomplete, failed, and approval is refused', async () => {
    site.set('/gone/prod/pricing', page());
    const check = await collected((await submit(request('gone'))).id);
    expect(check).toMatchObject({
      collection_status: 'incomplete',
      gate: 'failed',
      summary: { pairs: 1, captured: 0, missing: 1, with_differences: 0 },
      review: { status: 'cannot_approve' },
    });
    const [artifact] = check.artifacts;
    expect(artifact.state).toBe('missing');
    expect(artifact.comparison).toBeNull();
    expect(artifact.preview).toMatchObject({
      state: 'missing',
      status: 404,
      screenshot_url: null,
      findings: [],
      missing: { reason: 'http_error' },
    });
    expect((await ci.client.get(`/release-checks/${check.id}/artifacts/${artifact.id}/preview.png`)).status).toBe(404);

    const approval = await person.session.post(`/release-checks/${check.id}/review`, {
      decision: 'approve',
      note: 'Looks fine to me.',
      revision: 1,
    });
    expect(approval.status).toBe(409);
    expect(approval.body.code).toBe('release_check_incomplete');
    expect((await ci.client.get(`/release-checks/${check.id}`)).body.gate).toBe('failed');
  });

  it('a page lacking the required selector is missing evidence, never a clean page', async () => {
    site.set('/selector/prod/pricing', page());
    site.set(
      '/selector/preview/pricing',
      page().replace('<main id="content">', '<div id="content">').replace('</main>', '</div>'),
    );
    const check = await collected((await submit(request('selector'))).id);
    expect(check).toMatchObject({ collection_status: 'incomplete', gate: 'failed' });
    expect(check.artifacts[0].preview).toMatchObject({
      state: 'missing',
      missing: { reason: 'required_selector_missing' },
    });
  });

  it('differences in text, robots, canonical, screenshot and a new axe finding: pending until rejected', async () => {
    site.set('/diff/prod/pricing', page({ robots: 'index, follow', canonical: `${site.origin}/diff/prod/pricing` }));
    site.set(
      '/diff/preview/pricing',
      page({
        robots: 'noindex',
        canonical: `${site.origin}/diff/preview/other`,
        body: '<h1>Pricing</h1>\n<p>Team plan: 59 per month.</p>\n<p>Business plan: 199 per month.</p>\n<img src="/nowhere.png" width="80" height="40">',
      }),
    );
    const check = await collected((await submit(request('diff'))).id);
    expect(check).toMatchObject({ collection_status: 'completed', gate: 'pending', summary: { with_differences: 1 } });
    expect(check.summary.new_findings).toBeGreaterThan(0);
    const { comparison, id: artifactId } = check.artifacts[0];
    expect(comparison.has_differences).toBe(true);
    expect(comparison.text).toMatchObject({
      changed: true,
      added: ['Team plan: 59 per month.'],
      removed: ['Team plan: 49 per month.'],
    });
    expect(comparison.robots).toEqual({ production: 'index, follow', preview: 'noindex', changed: true });
    expect(comparison.canonical.changed).toBe(true);
    expect(comparison.screenshot.changed).toBe(true);
    expect(comparison.screenshot.mismatch_ratio).toBeGreaterThan(0);
    expect(comparison.findings.new.map((finding: { rule_id: string }) => finding.rule_id)).toContain('image-alt');

    for (const name of ['production.png', 'preview.png', 'diff.png']) {
      const file = await fetch(`${service.baseUrl}/api/v1/release-checks/${check.id}/artifacts/${artifactId}/${name}`, {
        headers: { 'X-API-Key': ci.secret },
      });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await file.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }
    const text = await ci.client.get(`/release-checks/${check.id}/artifacts/${artifactId}/preview.txt`);
    expect(text.body).toContain('Team plan: 59 per month.');

    await sleep(1500);
    expect((await ci.client.get(`/release-checks/${check.id}`)).body.gate).toBe('pending');

    const rejected = await person.session.post(`/release-checks/${check.id}/review`, {
      decision: 'reject',
      note: 'The preview drops indexing and raises the team price.',
      revision: 1,
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ gate: 'failed', review: { status: 'rejected' } });
  });

  it('an API key cannot approve, whatever its scopes', async () => {
    site.set('/keyapprove/prod/pricing', page());
    site.set('/keyapprove/preview/pricing', page());
    const check = await collected((await submit(request('keyapprove'))).id);
    const everything = await issueKey(person, ['monitors:read', 'monitors:write', 'users:read', 'users:write']);
    const attempt = await everything.client.post(`/release-checks/${check.id}/review`, {
      decision: 'approve',
      note: 'automation',
      revision: 1,
    });
    expect(attempt.status).toBe(403);
    expect(attempt.body.required_scope).toBe('release-checks:review');
    expect((await ci.client.get(`/release-checks/${check.id}`)).body.gate).toBe('pending');
  });

  it('a rerun starts a new revision: review reset, gate pending, a stale approval refused, old evidence kept', async () => {
    site.set('/rerun/prod/pricing', page());
    site.set('/rerun/preview/pricing', page());
    const first = await collected((await submit(request('rerun'))).id);
    expect(
      (
        await person.session.post(`/release-checks/${first.id}/review`, {
          decision: 'approve',
          note: 'ok',
          revision: 1,
        })
      ).body.gate,
    ).toBe('passed');

    site.set('/rerun/preview/pricing', page({ body: '<h1>Pricing</h1><p>Now with a new plan.</p>' }));
    const rerun = await ci.client.post(`/release-checks/${first.id}/rerun`);
    expect(rerun.status).toBe(202);
    expect(rerun.body).toMatchObject({
      revision: 2,
      gate: 'pending',
      review: { status: 'awaiting_review', decision: null },
    });
    expect(rerun.body.review.history).toHaveLength(1);

    const stale = await person.session.post(`/release-checks/${first.id}/review`, {
      decision: 'approve',
      note: 'ok',
      revision: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('stale_revision');

    const second = await collected(first.id);
    expect(second).toMatchObject({
      revision: 2,
      collection_status: 'completed',
      gate: 'pending',
      summary: { with_differences: 1 },
    });

    const old = await ci.client.get(`/release-checks/${first.id}`, { query: { revision: 1 } });
    expect(old.body).toMatchObject({
      revision: 1,
      gate: 'passed',
      review: { status: 'approved' },
      summary: { with_differences: 0 },
    });
    expect(old.body.artifacts[0].id).not.toBe(second.artifacts[0].id);
    expect((await ci.client.get(`/release-checks/${first.id}`, { query: { revision: 3 } })).status).toBe(404);
  });

  it('keeps where the change comes from: the source as sent (the commit in lower case), null when none', async () => {
    site.set('/source/prod/pricing', page());
    site.set('/source/preview/pricing', page());
    const body = request('source', { source: { ...SOURCE, commit_sha: SOURCE.commit_sha.toUpperCase() } });
    const created = await ci.client.post('/release-checks', body);
    expect(created.status).toBe(201);
    expect(created.body.source).toEqual(SOURCE);
    expect((await ci.client.get(`/release-checks/${created.body.id}`)).body.source).toEqual(SOURCE);
    // The source is part of the request a key is bound to: the same commit is a retry, another one is refused.
    expect((await ci.client.post('/release-checks', { ...body, source: SOURCE })).status).toBe(200);
    const otherCommit = await ci.client.post('/release-checks', {
      ...body,
      source: { ...SOURCE, commit_sha: 'a'.repeat(40) },
    });
    expect(otherCommit.status).toBe(422);
    expect(otherCommit.body.code).toBe('request_key_reused');
    const minimal = { provider: 'gitlab', repository: 'acme/web/shop', commit_sha: 'b'.repeat(64) };
    const gitlab = await ci.client.post('/release-checks', request('source', { source: minimal }));
    expect(gitlab.body.source).toEqual(minimal);
    const none = await ci.client.post('/release-checks', request('source'));
    expect(none.body.source).toBeNull();
    await Promise.all([created, gitlab, none].map((check) => collected(check.body.id)));
  });

  it('request_key: an identical retry answers the same check, a changed body is refused, a race creates one', async () => {
    site.set('/keys/prod/pricing', page());
    site.set('/keys/preview/pricing', page());
    const body = request('keys');
    const first = await ci.client.post('/release-checks', body);
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toBe(`/api/v1/release-checks/${first.body.id}`);
    const retry = await ci.client.post('/release-checks', { ...body, viewports: ['desktop'] });
    expect(retry.status).toBe(200);
    expect(retry.body.id).toBe(first.body.id);

    const changed = await ci.client.post('/release-checks', { ...body, preview_url: `${site.origin}/keys/other` });
    expect(changed.status).toBe(422);
    expect(changed.body.code).toBe('request_key_reused');

    const race = request('keys');
    const answers = await Promise.all([
      ci.client.post('/release-checks', race),
      ci.client.post('/release-checks', race),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
    expect(answers[0].body.id).toBe(answers[1].body.id);
    const listed = await ci.client.get('/release-checks', { query: { per_page: 100 } });
    expect(
      listed.body.data.filter((item: { request_key: string }) => item.request_key === race.request_key),
    ).toHaveLength(1);
  });

  it('approve and rerun at the same moment: never a passed gate on evidence nobody reviewed', async () => {
    site.set('/race/prod/pricing', page());
    site.set('/race/preview/pricing', page());
    const check = await collected((await submit(request('race'))).id);
    const [approval, rerun] = await Promise.all([
      person.session.post(`/release-checks/${check.id}/review`, { decision: 'approve', note: 'ok', revision: 1 }),
      ci.client.post(`/release-checks/${check.id}/rerun`),
    ]);
    expect(rerun.status).toBe(202);
    // Either the approval landed on revision 1 before the rerun, or it was refused as stale; both are fine.
    expect([200, 409]).toContain(approval.status);
    const current = (await ci.client.get(`/release-checks/${check.id}`)).body;
    expect(current).toMatchObject({ revision: 2, gate: 'pending', review: { decision: null } });
    const first = (await ci.client.get(`/release-checks/${check.id}`, { query: { revision: 1 } })).body;
    expect(first.gate).toBe(approval.status === 200 ? 'passed' : 'pending');
    await collected(check.id);
  });

  it("counts the month's release checks in the user's usage", async () => {
    const listed = await ci.client.get('/release-checks', { query: { per_page: 1 } });
    const me = await person.session.get('/users/me');
    expect(me.body.usage.release_checks_this_month).toBe(listed.body.pagination.total);
  });

  it('lists checks newest first, filterable by gate', async () => {
    const all = await ci.client.get('/release-checks', { query: { per_page: 100 } });
    expect(all.status).toBe(200);
    const times = all.body.data.map((item: { created_at: string }) => item.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const failed = await ci.client.get('/release-checks', { query: { gate: 'failed' } });
    expect(failed.body.data.length).toBeGreaterThan(0);
    expect(failed.body.data.every((item: { gate: string }) => item.gate === 'failed')).toBe(true);
    expect((await ci.client.get('/release-checks', { query: { gate: 'approved' } })).status).toBe(400);
  });

  it('refuses invalid requests with 400 and stores nothing', async () => {
    const before = (await ci.client.get('/release-checks')).body.pagination.total;
    const invalid: [Record<string, unknown>, string][] = [
      [{ viewports: ['tablet'] }, 'viewports'],
      [{ pages: [] }, 'pages'],
      [{ pages: [{ production_path: 'pricing', preview_path: '/pricing' }] }, 'pages[0].production_path'],
      [{ pages: [{ production_path: '/pricing' }] }, 'pages[0].preview_path'],
      [{ production_url: 'ftp://example.com' }, 'production_url'],
      [{ preview_url: 'https://user:secret@preview.example.com' }, 'preview_url'],
      [{ preview_url: 'https://preview.example.com/?token=1' }, 'preview_url'],
      [{ pages: Array.from({ length: 201 }, () => ({ production_path: '/', preview_path: '/' })) }, 'pages'],
      [{ mismatch_threshold: 2 }, 'mismatch_threshold'],
      [{ extra: true }, 'extra'],
      [{ source: { ...SOURCE, provider: 'bitbucket' } }, 'source.provider'],
      [{ source: { ...SOURCE, commit_sha: 'abc1234' } }, 'source.commit_sha'],
      [{ source: { ...SOURCE, repository: 'shop' } }, 'source.repository'],
      [{ source: { ...SOURCE, pull_request: 0 } }, 'source.pull_request'],
      [{ source: { ...SOURCE, token: 'ghp_secret' } }, 'source.token'],
      [{ source: 'acme/shop@3f78685' }, 'source'],
    ];
    for (const [overrides, field] of invalid) {
      const response = await ci.client.post('/release-checks', request('invalid', overrides));
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    expect((await ci.client.get('/release-checks')).body.pagination.total).toBe(before);
  });

  it('needs monitors:write and monitors:read to create, monitors:read to read', async () => {
    const writeOnly = await issueKey(person, ['monitors:write']);
    const readOnly = await issueKey(person, ['monitors:read']);
    expect((await writeOnly.client.post('/release-checks', request('scopes'))).body.required_scope).toBe(
      'monitors:read',
    );
    expect((await readOnly.client.post('/release-checks', request('scopes'))).body.required_scope).toBe(
      'monitors:write',
    );
    expect((await readOnly.client.get('/release-checks')).status).toBe(200);
    const usersOnly = await issueKey(person, ['users:read']);
    expect((await usersOnly.client.get('/release-checks')).body.required_scope).toBe('monitors:read');
  });

  it("another user's check is a 404, evidence included", async () => {
    const list = await ci.client.get('/release-checks', { query: { per_page: 1 } });
    const theirs = list.body.data[0];
    const stranger = await createAccount(new ApiClient(service.baseUrl));
    expect((await stranger.session.get(`/release-checks/${theirs.id}`)).status).toBe(404);
    expect((await stranger.session.post(`/release-checks/${theirs.id}/rerun`)).status).toBe(404);
    const full = (await ci.client.get(`/release-checks/${theirs.id}`)).body;
    expect(
      (await stranger.session.get(`/release-checks/${theirs.id}/artifacts/${full.artifacts[0].id}/production.txt`))
        .status,
    ).toBe(404);
  });

  it('deleting a check deletes its evidence and files; another workspace cannot, and a deleted check is a 404', async () => {
    site.set('/gone/prod/pricing', page({ title: 'Pricing' }));
    site.set('/gone/preview/pricing', page({ title: 'Pricing, new' }));
    const check = await collected((await submit(request('gone'))).id);
    const folder = join(resolve(service.config.artifactDir), 'release-checks', check.id);
    const files = await readdir(folder, { recursive: true });
    expect(files.filter((file) => file.endsWith('.png')).length).toBeGreaterThanOrEqual(2);

    const stranger = await createAccount(new ApiClient(service.baseUrl));
    expect((await stranger.session.delete(`/release-checks/${check.id}`)).status).toBe(404);
    const reader = await issueKey(person, ['monitors:read']);
    expect((await reader.client.delete(`/release-checks/${check.id}`)).status).toBe(403);
    expect((await ci.client.get(`/release-checks/${check.id}`)).status).toBe(200);

    expect((await ci.client.delete(`/release-checks/${check.id}`)).status).toBe(204);
    expect((await ci.client.get(`/release-checks/${check.id}`)).status).toBe(404);
    expect(
      (await ci.client.get(`/release-checks/${check.id}/artifacts/${check.artifacts[0].id}/production.png`)).status,
    ).toBe(404);
    await expect(readdir(folder)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await ci.client.delete(`/release-checks/${check.id}`)).status).toBe(404);
    expect((await ci.client.delete('/release-checks/not-a-uuid')).status).toBe(400);
  });
});

describe('release checks refuse private targets (ALLOW_PRIVATE_TARGETS=false)', () => {
  let service: TestApp;
  let ci: IssuedKey;

  beforeAll(async () => {
    service = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'false', ROLE: 'api' });
    ci = await issueKey(await createAccount(new ApiClient(service.baseUrl)), ['monitors:read', 'monitors:write']);
  });
  afterAll(() => service.close());

  it.each([
    ['loopback', 'http://127.0.0.1:8080'],
    ['a 10/8 address', 'http://10.1.2.3'],
    ['the cloud metadata address', 'http://169.254.169.254/latest'],
    ['IPv6 loopback', 'http://[::1]:3000'],
    ['a name resolving to loopback', 'http://localhost:3000'],
  ])('%s is a 400 target_not_public', async (_label, url) => {
    const response = await ci.client.post('/release-checks', {
      name: 'ssrf',
      production_url: 'http://93.184.215.14',
      preview_url: url,
      request_key: newRequestKey(),
      pages: [{ production_path: '/', preview_path: '/' }],
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('target_not_public');
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'preview_url' })]);
  });
});
