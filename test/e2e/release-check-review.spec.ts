import { ApiClient } from '../support/api-client';
import { type Account, createAccount, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { waitForCollection } from '../support/release-checks';
import { startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';

type Json = Record<string, any>;

/**
 * Review pair by pair (decision 0013): every pair with stable differences is accepted or rejected by a person before
 * the revision's review is submitted; a rerun marks pairs whose evidence a person already accepted, and carrying
 * those acceptances over is the reviewer's act, recorded as such. Nothing passes without a submitted review.
 */
describe('release-check review, pair by pair', () => {
  let service: TestApp;
  let site: TestSite;
  /** Admin of the team; her CI key opens the checks. */
  let alice: Account;
  /** A member who reviews. */
  let bob: Account;
  /** A viewer. */
  let carol: Account;
  let team: string;
  let ci: IssuedKey;
  const inTeam = (account: Account) => account.session.inWorkspace(team);

  /** Three pages: pricing and about differ on preview, contact does not. */
  const PAGES = ['/pricing', '/about', '/contact'];

  beforeAll(async () => {
    site = await new TestSite().start();
    site.set('/prod/pricing', page({ title: 'Pricing', body: '<h1>Pricing</h1><p>Pro costs €19 a month.</p>' }));
    site.set('/preview/pricing', page({ title: 'Pricing', body: '<h1>Pricing</h1><p>Pro costs €24 a month.</p>' }));
    site.set('/prod/about', page({ title: 'About', body: '<h1>About us</h1><p>Founded in 2019.</p>' }));
    site.set('/preview/about', page({ title: 'About', body: '<h1>About us</h1><p>Founded in 2019 in Lyon.</p>' }));
    site.set('/prod/contact', page({ title: 'Contact', body: '<h1>Contact</h1><p>Write to us.</p>' }));
    site.set('/preview/contact', page({ title: 'Contact', body: '<h1>Contact</h1><p>Write to us.</p>' }));
    service = await startTestApp();
    const api = new ApiClient(service.baseUrl);
    [alice, bob, carol] = [await createAccount(api), await createAccount(api), await createAccount(api)];
    const created = await alice.session.post('/workspaces', { name: 'Review team' });
    team = created.body.id;
    for (const [person, role] of [
      [bob, 'member'],
      [carol, 'viewer'],
    ] as const) {
      expect((await alice.session.post(`/workspaces/${team}/members`, { email: person.email, role })).status).toBe(201);
    }
    const key = await inTeam(alice).post('/users/me/api-keys', {
      name: 'CI',
      scopes: ['monitors:read', 'monitors:write'],
    });
    ci = { id: key.body.id, secret: key.body.secret, client: api.withApiKey(key.body.secret) };
    const admin = await signInAsAdmin(api);
    await admin.put(`/admin/api-keys/${ci.id}/rate-limit`, { requests_per_minute: 100_000 });
  });

  afterAll(async () => {
    await service?.close();
    await site?.stop();
  });

  async function openCheck(): Promise<Json> {
    const created = await ci.client.post('/release-checks', {
      name: 'Release',
      production_url: `${site.origin}/prod`,
      preview_url: `${site.origin}/preview`,
      request_key: `review-${Date.now()}-${Math.random()}`,
      pages: PAGES.map((path) => ({ production_path: path, preview_path: path })),
      viewports: ['desktop', 'mobile'],
    });
    expect(created.status).toBe(201);
    return waitForCollection(ci.client, created.body.id);
  }

  const pathOf = (artifact: Json) => artifact.production_path as string;
  const pairsOn = (check: Json, path: string) => check.artifacts.filter((artifact: Json) => pathOf(artifact) === path);
  const decide = (who: ApiClient, check: Json, artifact: Json, body: Json) =>
    who.put(`/release-checks/${check.id}/artifacts/${artifact.id}/decision`, { revision: check.revision, ...body });
  const review = (who: ApiClient, check: Json, body: Json) =>
    who.post(`/release-checks/${check.id}/review`, { revision: check.revision, note: 'Reviewed every pair.', ...body });

  // Each test collects a check of six pairs in the browser (the rerun's test, two): up to 86 s on a loaded machine.
  it('decides pair by pair: an undecided pair refuses approval, a rejected pair fails the gate', async () => {
    const check = await openCheck();
    expect(check.summary).toMatchObject({ pairs: 6, with_differences: 4, awaiting_decision: 4 });
    for (const artifact of check.artifacts) {
      expect(artifact.needs_decision).toBe(pathOf(artifact) !== '/contact');
      expect(artifact).toMatchObject({ decision: null, unchanged_since_revision: null });
      expect(artifact.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    }
    const reviewer = inTeam(bob);
    const [pricingDesktop, pricingMobile] = pairsOn(check, '/pricing');
    const [aboutDesktop, aboutMobile] = pairsOn(check, '/about');

    // A pair without differences has nothing to decide; a rejection needs a note.
    const [contact] = pairsOn(check, '/contact');
    expect((await decide(reviewer, check, contact, { decision: 'accept' })).body.code).toBe('pair_has_no_differences');
    const noNote = await decide(reviewer, check, pricingDesktop, { decision: 'reject' });
    expect(noNote.status).toBe(400);
    expect(noNote.body.errors).toEqual([{ field: 'note', message: expect.stringMatching(/required to reject/) }]);
    // A stale revision is refused.
    expect((await decide(reviewer, check, pricingDesktop, { decision: 'accept', revision: 2 })).body.code).toBe(
      'stale_revision',
    );

    const accepted = await decide(reviewer, check, pricingDesktop, { decision: 'accept', note: 'New price is right.' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.decision).toMatchObject({
      decision: 'accepted',
      note: 'New price is right.',
      decided_by: { id: bob.id, email: bob.email },
      carried_from_revision: null,
    });
    for (const artifact of [pricingMobile, aboutDesktop]) {
      expect((await decide(reviewer, check, artifact, { decision: 'accept' })).status).toBe(200);
    }
    // One pair is still undecided: approving is refused, naming it, and changes nothing.
    const incomplete = await review(reviewer, check, { decision: 'approve' });
    expect(incomplete.status).toBe(409);
    expect(incomplete.body).toMatchObject({
      code: 'review_incomplete',
      pairs: [{ artifact_id: aboutMobile.id, production_path: '/about', viewport: 'mobile' }],
    });
    const unchanged = (await ci.client.get(`/release-checks/${check.id}`)).body;
    expect(unchanged).toMatchObject({ gate: 'pending', summary: { awaiting_decision: 1 } });

    // A rejected pair: approval is refused; the review is rejected and the gate fails.
    expect((await decide(reviewer, check, aboutMobile, { decision: 'reject', note: 'Text wraps badly.' })).status).toBe(
      200,
    );
    expect((await review(reviewer, check, { decision: 'approve' })).body.code).toBe('pairs_rejected');
    const rejected = await review(reviewer, check, { decision: 'reject', note: 'About page on mobile is broken.' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ gate: 'failed', review: { status: 'rejected' } });
    const record = rejected.body.review.decision;
    const outcome = (path: string, viewport: string) =>
      record.pairs.find((pair: Json) => pair.production_path === path && pair.viewport === viewport);
    expect(record.pairs).toHaveLength(6);
    expect(outcome('/contact', 'desktop')).toMatchObject({ outcome: 'unchanged', decided_by: null });
    expect(outcome('/pricing', 'desktop')).toMatchObject({
      outcome: 'accepted',
      note: 'New price is right.',
      decided_by: { email: bob.email },
    });
    expect(outcome('/about', 'mobile')).toMatchObject({ outcome: 'rejected', note: 'Text wraps badly.' });
    // The revision is reviewed: no more pair decisions.
    expect((await decide(reviewer, check, pricingDesktop, { decision: 'accept' })).body.code).toBe('already_reviewed');
  }, 240_000);

  it('a rerun with one pair changed offers the unchanged acceptances to carry over, leaving exactly that pair to decide', async () => {
    const first = await openCheck();
    const reviewer = inTeam(bob);
    for (const artifact of first.artifacts.filter((pair: Json) => pair.needs_decision)) {
      expect((await decide(reviewer, first, artifact, { decision: 'accept' })).status).toBe(200);
    }
    expect((await review(reviewer, first, { decision: 'approve' })).body.gate).toBe('passed');

    // A one-line fix that shows at mobile width only: every other pair is what the reviewer accepted.
    site.set(
      '/preview/about',
      page({
        title: 'About',
        body:
          '<style>@media (min-width: 1000px) { .phone-only { display: none } }</style>' +
          '<h1>About us</h1><p>Founded in 2019 in Lyon.</p><p class="phone-only">Call us from your phone.</p>',
      }),
    );
    const rerun = await ci.client.post(`/release-checks/${first.id}/rerun`);
    expect(rerun.status).toBe(202);
    const second = await waitForCollection(ci.client, first.id);
    expect(second).toMatchObject({ revision: 2, gate: 'pending', summary: { awaiting_decision: 4 } });
    const changedPair = (artifact: Json) => pathOf(artifact) === '/about' && artifact.viewport === 'mobile';
    for (const artifact of second.artifacts) {
      const expected = artifact.needs_decision && !changedPair(artifact) ? 1 : null;
      expect({ path: pathOf(artifact), viewport: artifact.viewport, since: artifact.unchanged_since_revision }).toEqual(
        {
          path: pathOf(artifact),
          viewport: artifact.viewport,
          since: expected,
        },
      );
      expect(artifact.decision).toBeNull();
    }

    // Nothing is carried without being asked, and carrying over is not approval by itself.
    expect((await review(reviewer, second, { decision: 'approve' })).body.code).toBe('review_incomplete');
    const carried = await review(reviewer, second, { decision: 'approve', carry_over: true });
    expect(carried.status).toBe(409);
    expect(carried.body.code).toBe('review_incomplete');
    expect(carried.body.pairs).toEqual([expect.objectContaining({ production_path: '/about', viewport: 'mobile' })]);
    // The refused review carried nothing either.
    const after = (await ci.client.get(`/release-checks/${first.id}`)).body;
    expect(after.artifacts.every((artifact: Json) => artifact.decision === null)).toBe(true);

    // Decide the one changed pair, then carry the rest over in the same review.
    const [changed] = second.artifacts.filter(changedPair);
    expect((await decide(reviewer, second, changed, { decision: 'accept' })).status).toBe(200);
    const approved = await review(reviewer, second, { decision: 'approve', carry_over: true });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ revision: 2, gate: 'passed', review: { status: 'approved' } });
    const pairs = approved.body.review.decision.pairs;
    const carriedPairs = pairs.filter((pair: Json) => pair.carried_from_revision === 1);
    expect(carriedPairs).toHaveLength(3);
    for (const pair of carriedPairs) {
      expect(pair).toMatchObject({ outcome: 'accepted', decided_by: { id: bob.id, email: bob.email } });
    }
    expect(pairs.find((pair: Json) => pair.artifact_id === changed.id)).toMatchObject({
      outcome: 'accepted',
      carried_from_revision: null,
    });
  }, 240_000);

  it('a viewer and an API key decide nothing', async () => {
    const check = await openCheck();
    const [pair] = pairsOn(check, '/pricing');
    const viewer = await decide(inTeam(carol), check, pair, { decision: 'accept' });
    expect(viewer.status).toBe(403);
    expect(viewer.body.required_scope).toBe('release-checks:review');
    const key = await decide(ci.client, check, pair, { decision: 'accept' });
    expect(key.status).toBe(403);
    expect(key.body.required_scope).toBe('release-checks:review');
    const stored = (await ci.client.get(`/release-checks/${check.id}`)).body;
    expect(stored.artifacts.every((artifact: Json) => artifact.decision === null)).toBe(true);
  }, 240_000);
});
