import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { ApiClient } from '../support/api-client';
import { HoldingSite } from '../support/holding-site';
import { waitForCollection } from '../support/release-checks';
import { startTestApp, type TestApp } from '../support/test-app';
import { page as sitePage, TestSite } from '../support/test-site';
import {
  cspViolations,
  escapeRegExp,
  expectFitsPhone,
  expectNoAxeViolations,
  launchBrowser,
  newContext,
  screenshot,
  signedInPage,
  signInThroughForm,
  text,
} from './browser';
import { ensureWebBuild } from './web-build';

/*
 * The web interface in a real Chromium against the real service (API, workers, PostgreSQL, Redis): sign-in, the
 * release-check list and page, review (and who may do it), API keys, workspaces (switcher, members, settings) and the
 * admin area, each page scanned with axe-core.
 */

describe('web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let site: TestSite;
  let held: HoldingSite;
  let person: Account;
  let ci: IssuedKey;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const checks: Record<'diff' | 'gone', any> = { diff: null, gone: null };
  let requestCounter = 0;

  const url = (path: string) => `${service.baseUrl}${path}`;

  function request(name: string, production: string, preview: string, viewports = ['desktop']) {
    return {
      name,
      production_url: production,
      preview_url: preview,
      request_key: `web-${Date.now()}-${(requestCounter += 1)}`,
      pages: [{ production_path: '/pricing', preview_path: '/pricing', required_selector: 'main' }],
      viewports,
    };
  }

  async function submit(body: Record<string, unknown>): Promise<any> {
    const created = await ci.client.post('/release-checks', body);
    expect(created.status).toBe(201);
    return created.body;
  }

  async function signOut(target: Page): Promise<void> {
    await target.getByRole('button', { name: 'Sign out' }).click();
    await target.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
  }

  /** A tab of its own (own sessionStorage, so its own session and workspace), signed in as the person. */
  async function signedInTab(
    email: string,
    password: string,
    viewport = { width: 1440, height: 900 },
    permissions: string[] = [],
  ): Promise<{ tab: Page; close: () => Promise<void> }> {
    const own = await newContext(browser, { viewport, permissions });
    const tab = await signedInPage(own, url('/sign-in'), email, password);
    return { tab, close: () => own.close() };
  }

  /** Chooses a workspace in the header's switcher (by its option text, "name (role)") and waits for it to load. */
  async function switchWorkspace(tab: Page, option: string, name: string): Promise<void> {
    await tab.getByLabel('Workspace', { exact: true }).selectOption({ label: option });
    await tab.getByRole('button', { name: 'Switch workspace' }).click();
    await tab.getByText(new RegExp(`^You are now in the workspace “${escapeRegExp(name)}”`)).waitFor();
  }

  /** A key its creator issues in one of their workspaces (keys act in the workspace they were created in). */
  async function issueKeyIn(account: Account, workspaceId: string): Promise<IssuedKey> {
    const response = await account.session.inWorkspace(workspaceId).post('/users/me/api-keys', {
      name: `ci ${workspaceId.slice(0, 8)}`,
      scopes: ['monitors:read', 'monitors:write'],
    });
    expect(response.status).toBe(201);
    const client = new ApiClient(service.baseUrl).withApiKey(response.body.secret);
    return { id: response.body.id, secret: response.body.secret, client };
  }

  async function workspaceOf(account: Account): Promise<{ id: string; name: string }> {
    const me = await account.session.get('/users/me');
    expect(me.status).toBe(200);
    return me.body.workspace;
  }

  /** Waits until every screenshot on the page has been fetched with the token and decoded. */
  async function imagesLoaded(target: Page, count: number): Promise<void> {
    await target.waitForFunction(
      (expected) => {
        const images = [...document.querySelectorAll('img[data-loaded]')] as HTMLImageElement[];
        return images.length >= expected && images.every((image) => image.complete && image.naturalWidth > 0);
      },
      count,
      { timeout: 15_000 },
    );
  }

  beforeAll(async () => {
    ensureWebBuild();
    [site, held, service] = await Promise.all([new TestSite().start(), new HoldingSite().start(), startTestApp()]);
    browser = await launchBrowser();
    const api = new ApiClient(service.baseUrl);
    person = await createAccount(api);
    ci = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(api);
    await admin.put(`/admin/api-keys/${ci.id}/rate-limit`, { requests_per_minute: 100_000 });

    // A check with differences in text, robots, canonical, screenshot and a new axe finding.
    site.set('/diff/prod/pricing', sitePage({ robots: 'index, follow', canonical: 'https://www.example.com/pricing' }));
    site.set(
      '/diff/preview/pricing',
      sitePage({
        robots: 'noindex',
        canonical: 'https://preview.example.com/pricing',
        body: '<h1>Pricing</h1>\n<p>Team plan: 59 per month.</p>\n<p>Business plan: 199 per month.</p>\n<img src="/nowhere.png" width="80" height="40">',
      }),
    );
    // A check whose preview answers 404: missing evidence.
    site.set('/gone/prod/pricing', sitePage());
    const [diff, gone] = await Promise.all([
      submit(request('Pricing redesign', `${site.origin}/diff/prod`, `${site.origin}/diff/preview`)),
      submit(request('Spring campaign', `${site.origin}/gone/prod`, `${site.origin}/gone/preview`)),
    ]);
    [checks.diff, checks.gone] = await Promise.all([
      waitForCollection(ci.client, diff.id),
      waitForCollection(ci.client, gone.id),
    ]);
    expect(checks.diff).toMatchObject({ collection_status: 'completed', gate: 'pending' });
    expect(checks.gone).toMatchObject({ collection_status: 'incomplete', gate: 'failed' });

    context = await newContext(browser, { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await site?.stop();
    await held?.stop();
  });

  it('sends a visitor to sign-in, shows a refused sign-in as a problem, then signs in', async () => {
    await page.goto(url('/'));
    await page.waitForURL(/\/sign-in$/);
    await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await expectNoAxeViolations(page, 'sign-in');
    await screenshot(page, 'sign-in.png');

    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await text(alert)).toMatch(/email or password is not right.*HTTP 401/is);
    await expectNoAxeViolations(page, 'sign-in with an error');

    await signInThroughForm(page, person.email, person.password);
    await page.waitForURL(/\/release-checks$/);
    const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem('vigil.session') ?? 'null'));
    expect(stored.token).toEqual(expect.any(String));
    expect(stored.expiresAt).toBeGreaterThan(Date.now());
  });

  it('lists release checks newest first with their gates, and filters by gate', async () => {
    await page.getByRole('heading', { name: 'Release checks', level: 1 }).waitFor();
    const titles = page.locator('.check-row-title');
    await titles.first().waitFor();
    expect(await titles.allInnerTexts()).toEqual(expect.arrayContaining(['Pricing redesign', 'Spring campaign']));
    const diffRow = page.locator('.check-row', { hasText: 'Pricing redesign' });
    expect(await text(diffRow)).toMatch(/Gate: Pending/);
    const goneRow = page.locator('.check-row', { hasText: 'Spring campaign' });
    expect(await text(goneRow)).toMatch(/Gate: Failed[\s\S]*Collection: Incomplete/);
    await expectNoAxeViolations(page, 'release checks');
    await screenshot(page, 'release-checks.png');

    await page.getByLabel('Gate').selectOption('failed');
    await page.waitForURL(/\?gate=failed$/);
    await page.waitForFunction(() => !document.body.innerText.includes('Pricing redesign'));
    expect(await page.locator('.check-row-title').allInnerTexts()).toEqual(['Spring campaign']);
    await page.getByLabel('Gate').selectOption('');
    await page.locator('.check-row', { hasText: 'Pricing redesign' }).waitFor();
  });

  it('shows a completed check with differences: both screenshots, the overlay, text diff, robots, findings', async () => {
    await page.getByRole('link', { name: 'Pricing redesign' }).click();
    await page.waitForURL(new RegExp(`/release-checks/${checks.diff.id}$`));
    expect(checks.diff.review_url).toBe(`/release-checks/${checks.diff.id}`);
    await page.getByRole('heading', { name: 'Pricing redesign', level: 1 }).waitFor();
    await imagesLoaded(page, 2);
    expect(await page.getByRole('img', { name: 'Production screenshot, /pricing, desktop' }).count()).toBe(1);
    expect(await page.getByRole('img', { name: 'Preview screenshot, /pricing, desktop' }).count()).toBe(1);
    // The images are fetched with the Bearer token and shown through object URLs.
    expect(await page.getByRole('img', { name: 'Preview screenshot, /pricing, desktop' }).getAttribute('src')).toMatch(
      /^blob:/,
    );

    const removed = page.locator('.text-diff del');
    const added = page.locator('.text-diff ins');
    expect(await removed.allInnerTexts()).toEqual([expect.stringContaining('Team plan: 49 per month.')]);
    expect(await added.allInnerTexts()).toEqual([expect.stringContaining('Team plan: 59 per month.')]);
    const robots = page.getByRole('row', { name: /Robots meta/ });
    expect(await text(robots)).toMatch(/index, follow[\s\S]*noindex/);
    const canonical = page.getByRole('row', { name: /Canonical link/ });
    expect(await text(canonical)).toMatch(/www\.example\.com\/pricing[\s\S]*preview\.example\.com\/pricing/);
    expect(await text(page.locator('.inline-facts'))).toMatch(/Production\s*Found[\s\S]*Preview\s*Found/);
    const finding = page.locator('.findings-new .finding', { hasText: 'image-alt' });
    expect(await text(finding)).toMatch(/critical|serious|moderate|minor/);
    expect(await finding.getByRole('link').getAttribute('href')).toMatch(/^https:\/\/dequeuniversity\.com\//);
    const stats = await text(page.locator('.stats'));
    expect(stats).toMatch(/With differences\s*1/);
    expect(stats).toMatch(/Missing evidence\s*0/);

    // Three views of the screenshots: side by side (the default), the differences over the preview, and alone.
    const views = page.getByRole('group', { name: 'Screenshot view, /pricing, desktop' });
    expect(await views.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')).toBe('true');
    await views.getByRole('button', { name: 'Overlay' }).click();
    await page.getByRole('img', { name: 'Difference overlay, /pricing, desktop' }).waitFor();
    await imagesLoaded(page, 3);
    expect(await views.getByRole('button', { name: 'Overlay' }).getAttribute('aria-pressed')).toBe('true');
    await expectNoAxeViolations(page, 'release check with differences');
    await screenshot(page, 'release-check.png');
    await views.getByRole('button', { name: 'Difference' }).click();
    await page.getByRole('img', { name: 'Differences only, /pricing, desktop' }).waitFor();
    await imagesLoaded(page, 1);
    expect(await page.getByRole('img', { name: /^(Production|Preview) screenshot/ }).count()).toBe(0);
    await expectNoAxeViolations(page, 'release check, differences only');
    await views.getByRole('button', { name: 'Side by side' }).click();
    await imagesLoaded(page, 2);
  });

  it('approves with a required note and the scope shown once every pair is accepted; the gate turns passed', async () => {
    const panel = page.locator('.review-panel');
    expect(await text(panel)).toMatch(/applies to revision 1, for 1 page × 1 viewport \(desktop\)/);
    expect(await text(page.locator('.pair-progress'))).toMatch(/0 of 1 pair with differences decided/);
    await page.getByRole('button', { name: 'Accept /pricing, desktop' }).click();
    await page.getByText('1 of 1 pair with differences decided').waitFor();
    await expectNoAxeViolations(page, 'release check with its pair accepted');
    await screenshot(page, 'review-pairs.png', false);
    expect(await text(page.locator('.pair-decision'))).toMatch(
      new RegExp(`Accepted\\s+by ${person.email.replace('.', '\\.')}`),
    );
    await page.getByRole('button', { name: 'Approve revision 1' }).click();
    expect(await text(page.locator('#review-note-error'))).toMatch(/Write a note/);
    expect(await page.getByLabel(/Review note/).getAttribute('aria-invalid')).toBe('true');

    await page
      .getByLabel(/Review note/)
      .fill('Price change from 49 to 59 is intended; noindex is the preview default.');
    await page.getByRole('button', { name: 'Approve revision 1' }).click();
    await page.getByText('Approved revision 1. The gate is now passed.').waitFor();
    expect(await text(page.locator('.check-badges'))).toMatch(/Gate: Passed/);
    const history = page.locator('.history');
    expect(await text(history)).toMatch(new RegExp(`Approved revision 1\\s+by ${person.email.replace('.', '\\.')}`));
    expect(await text(history)).toContain('Price change from 49 to 59 is intended');
    expect((await ci.client.get(`/release-checks/${checks.diff.id}`)).body.gate).toBe('passed');
    await expectNoAxeViolations(page, 'release check after approval');
    await screenshot(page, 'review.png');
  });

  it('an incomplete check shows missing evidence as missing and offers no approval, with the reason', async () => {
    await page.goto(url(`/release-checks/${checks.gone.id}`));
    await page.getByRole('heading', { name: 'Spring campaign', level: 1 }).waitFor();
    await imagesLoaded(page, 1);
    const missing = page.getByRole('note', { name: 'Preview evidence missing' });
    expect(await text(missing)).toMatch(/Missing evidence[\s\S]*HTTP error[\s\S]*404/);
    expect(await page.getByRole('img', { name: /^Preview screenshot/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Approve/ }).count()).toBe(0);
    expect(await text(page.locator('.review-panel'))).toMatch(
      /This check cannot be approved[\s\S]*Evidence is missing for 1 of 1/,
    );
    expect(await text(page.locator('.check-badges'))).toMatch(/Gate: Failed[\s\S]*Cannot be approved/);
    await expectNoAxeViolations(page, 'incomplete release check');
  });

  it('explains a decision on a revision that was collected again meanwhile, and loads the new evidence', async () => {
    // The page shows revision 1 while someone collects the evidence again.
    expect((await ci.client.post(`/release-checks/${checks.gone.id}/rerun`)).status).toBe(202);
    await waitForCollection(ci.client, checks.gone.id);
    await page.getByLabel(/Review note/).fill('The preview is not deployed yet.');
    await page.getByRole('button', { name: 'Reject revision 1' }).click();
    const stale = page.getByRole('alert').filter({ hasText: 'The check changed while you were reviewing' });
    await stale.waitFor();
    expect(await text(stale)).toMatch(/revision 1[\s\S]*revision 2 is now current/);
    await page.getByRole('button', { name: 'Reject revision 2' }).waitFor();
    expect(await text(page.locator('.meta-grid'))).toMatch(/Revision\s*2/);
    expect((await ci.client.get(`/release-checks/${checks.gone.id}`)).body.review.history).toEqual([]);
  });

  it('polls a check while its evidence is collected, then records a rejection with its note', async () => {
    // The site holds its first answers until the page has shown the collection under way.
    held.set('/prod/pricing', sitePage({ title: 'Held' }));
    held.set('/preview/pricing', sitePage({ title: 'Held' }));
    void held.hold(['/prod/pricing', '/preview/pricing']);
    const created = await submit(request('Checkout copy', `${held.origin}/prod`, `${held.origin}/preview`));
    await page.goto(url(`/release-checks/${created.id}`));
    await page.getByRole('heading', { name: 'Checkout copy', level: 1 }).waitFor();
    expect(await text(page.locator('.check-badges'))).toMatch(/Collection: (Queued|Collecting)/);
    expect(await text(page.locator('.review-panel'))).toMatch(/Review opens when collection finishes/);
    // The site answers; no reload: the page polls every 2 s until collection ends.
    held.release();
    await page.locator('.check-badges', { hasText: 'Collection: Complete' }).waitFor({ timeout: 45_000 });
    await imagesLoaded(page, 2);

    await page.getByLabel(/Review note/).fill('Copy is not final.');
    await page.getByRole('button', { name: 'Reject revision 1' }).click();
    await page.getByText('Rejected revision 1. The gate is now failed.').waitFor();
    expect(await text(page.locator('.check-badges'))).toMatch(/Gate: Failed[\s\S]*Review: Rejected/);
    expect(await text(page.locator('.history'))).toMatch(/Rejected revision 1[\s\S]*Copy is not final\./);
    expect(await page.getByRole('button', { name: /Approve|Reject/ }).count()).toBe(0);
    const check = (await ci.client.get(`/release-checks/${created.id}`)).body;
    expect(check).toMatchObject({ revision: 1, gate: 'failed', review: { status: 'rejected' } });
  }, 120_000);

  it('renders the check page (and the other screens) 390 px wide without horizontal scrolling', async () => {
    const mobile = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const phone = await mobile.newPage();
      await phone.goto(url(`/release-checks/${checks.diff.id}`));
      await phone.waitForURL(/\/sign-in\?next=/);
      await signInThroughForm(phone, person.email, person.password);
      await phone.waitForURL(new RegExp(`/release-checks/${checks.diff.id}$`));
      await phone.getByRole('heading', { name: 'Pricing redesign', level: 1 }).waitFor();
      await imagesLoaded(phone, 2);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectNoAxeViolations(phone, 'release check at 390 px');
      await screenshot(phone, 'mobile-release-check.png');
      const screens = [
        { link: 'Release checks', path: '/release-checks', content: '.check-row' },
        { link: 'API keys', path: '/settings/api-keys', content: 'table' },
      ];
      for (const { link, path, content } of screens) {
        await phone.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
        await phone.waitForURL(new RegExp(`${path}$`));
        await phone.locator(content).first().waitFor();
        const width = await phone.evaluate(() => document.documentElement.scrollWidth);
        expect({ path, width }).toEqual({ path, width: 390 });
      }
    } finally {
      await mobile.close();
    }
  });

  it('creates an API key whose secret is shown once, then revokes it and the API refuses it', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(/\/settings\/api-keys$/);
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByRole('table').waitFor();
    await expectNoAxeViolations(page, 'API keys');

    // Every scope is offered with its meaning.
    expect(await page.getByRole('checkbox').count()).toBe(11);
    expect(await page.getByRole('checkbox', { name: 'reports:write' }).count()).toBe(1);
    expect(
      await page.getByRole('checkbox', { name: 'monitors:read' }).evaluate((box) => {
        const id = box.getAttribute('aria-describedby');
        return id ? document.getElementById(id)?.textContent : null;
      }),
    ).toMatch(/List, fetch and inspect monitors/);

    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await text(page.locator('#key-name-error'))).toMatch(/Give the key a name/);
    expect(await text(page.locator('#scopes-error'))).toMatch(/at least one scope/);

    await page.getByLabel('Name').fill('Deploy bot');
    await page.getByRole('checkbox', { name: 'users:read' }).check();
    await page.getByRole('checkbox', { name: 'monitors:read' }).check();
    await page.getByLabel(/Expires/).fill('2099-01-31T12:00');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretField = page.getByLabel('Secret', { exact: true });
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^vgl_[A-Za-z0-9]{40,}$/);
    expect(await text(page.locator('.secret-card'))).toMatch(/shown only this once/);
    await page.getByRole('button', { name: 'Copy secret' }).waitFor();
    await page.locator('tr', { hasText: 'Deploy bot' }).waitFor();
    await expectNoAxeViolations(page, 'API keys with a new secret');
    await screenshot(page, 'api-keys.png');

    const withKey = new ApiClient(service.baseUrl).withApiKey(secret);
    const me = await withKey.get('/users/me');
    expect(me.status).toBe(200);
    const keys = (await person.session.get('/users/me/api-keys')).body.data;
    const created = keys.find((key: any) => key.name === 'Deploy bot');
    expect(created).toMatchObject({ scopes: ['monitors:read', 'users:read'], revoked_at: null });
    expect(created.expires_at).toMatch(/^2099-01-3[01]T/);

    await page.reload();
    const row = page.locator('tr', { hasText: 'Deploy bot' });
    await row.waitFor();
    expect(await page.getByLabel('Secret', { exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect(await text(row)).toContain(`${secret.slice(0, 12)}…`);

    await row.getByRole('button', { name: 'Revoke Deploy bot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “Deploy bot”?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Revoked “Deploy bot”.').waitFor();
    expect(await text(row)).toMatch(/Revoked/);
    expect((await withKey.get('/users/me')).status).toBe(401);
  });

  it('a member sees no admin area: no link, and the page says not permitted', async () => {
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.goto(url('/admin'));
    await page.getByRole('heading', { name: 'Not permitted', level: 1 }).waitFor();
    expect(await page.getByRole('heading', { name: 'Users' }).count()).toBe(0);
    await expectNoAxeViolations(page, 'not permitted');
  });

  it('an ended session goes back to sign-in, and signing out clears it', async () => {
    await page.evaluate(() => {
      const session = JSON.parse(sessionStorage.getItem('vigil.session')!);
      sessionStorage.setItem('vigil.session', JSON.stringify({ ...session, token: 'not-a-valid-token' }));
    });
    await page.getByRole('link', { name: 'Release checks', exact: true }).click();
    await page.waitForURL(/\/sign-in\?next=%2Frelease-checks$/);
    await page.getByText('Your session has ended').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('vigil.session'))).toBeNull();

    await signInThroughForm(page, person.email, person.password);
    await page.waitForURL(/\/release-checks$/);
    await signOut(page);
    expect(await page.evaluate(() => sessionStorage.getItem('vigil.session'))).toBeNull();
    await page.goto(url('/settings/api-keys'));
    await page.waitForURL(/\/sign-in\?next=%2Fsettings%2Fapi-keys$/);
  });

  it('an administrator adds a person and raises a key’s rate-limit ceiling', async () => {
    const limited = await issueKey(person, ['monitors:read']);
    await signInThroughForm(page, process.env.ADMIN_EMAIL!, process.env.ADMIN_PASSWORD!);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(/\/admin$/);
    await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
    const keyRow = page.locator(`tr[data-key-id="${limited.id}"]`);
    await keyRow.waitFor();
    expect(await text(keyRow)).toContain(person.email);
    await expectNoAxeViolations(page, 'admin');

    const email = `reviewer-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Initial password').fill('short');
    await page.getByRole('button', { name: 'Add person' }).click();
    // The browser's own check stops a too-short password; the API's problem shows for what it refuses.
    expect(await page.getByLabel('Initial password').evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(
      false,
    );
    await page.getByLabel('Initial password').fill('a-long-enough-password');
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByText(`Added ${email} as member.`).waitFor();
    await page.getByRole('row', { name: new RegExp(email.replace('.', '\\.')) }).waitFor();

    const limit = keyRow.getByRole('spinbutton');
    expect(await limit.inputValue()).toBe('120');
    await limit.fill('2500');
    await keyRow.getByRole('button', { name: /^Save/ }).click();
    await keyRow.getByText('Saved: 2500 requests a minute.').waitFor();
    const listed = (await limited.client.get('/release-checks')).headers;
    expect(listed.get('ratelimit-limit')).toBe('2500');
    await screenshot(page, 'admin.png');
  });

  it('switches workspaces in the header: each shows only its own checks, and one the person left falls back to the default', async () => {
    const api = new ApiClient(service.baseUrl);
    const [owner, traveller] = await Promise.all([createAccount(api), createAccount(api)]);
    const team = await owner.session.post('/workspaces', { name: 'Falcon team' });
    expect(team.status).toBe(201);
    const added = await owner.session.post(`/workspaces/${team.body.id}/members`, {
      email: traveller.email,
      role: 'member',
    });
    expect(added.status).toBe(201);
    const home = await workspaceOf(traveller);
    const [teamKey, homeKey] = await Promise.all([issueKeyIn(owner, team.body.id), issueKeyIn(traveller, home.id)]);
    const [teamCheck, homeCheck] = await Promise.all([
      teamKey.client.post(
        '/release-checks',
        request('Falcon launch', `${site.origin}/diff/prod`, `${site.origin}/diff/preview`),
      ),
      homeKey.client.post(
        '/release-checks',
        request('Personal landing', `${site.origin}/diff/prod`, `${site.origin}/diff/preview`),
      ),
    ]);
    expect([teamCheck.status, homeCheck.status]).toEqual([201, 201]);

    const { tab, close } = await signedInTab(traveller.email, traveller.password);
    try {
      await tab.waitForURL(/\/release-checks$/);
      await tab.locator('.check-row', { hasText: 'Personal landing' }).waitFor();
      expect(await tab.locator('.check-row', { hasText: 'Falcon launch' }).count()).toBe(0);
      const switcher = tab.getByLabel('Workspace', { exact: true });
      expect(await switcher.inputValue()).toBe(home.id);
      expect(await switcher.locator('option').allInnerTexts()).toEqual([
        `${home.name} (admin)`,
        'Falcon team (member)',
      ]);

      await switchWorkspace(tab, 'Falcon team (member)', 'Falcon team');
      await tab.locator('.check-row', { hasText: 'Falcon launch' }).waitFor();
      expect(await tab.locator('.check-row', { hasText: 'Personal landing' }).count()).toBe(0);
      expect(await tab.evaluate(() => sessionStorage.getItem('vigil.workspace'))).toBe(team.body.id);
      await expectNoAxeViolations(tab, 'release checks after switching workspace');
      await screenshot(tab, 'workspace-switcher.png', false);

      // A check belongs to its workspace: it names who opened it, and switching away leaves it for the other list.
      await tab.getByRole('link', { name: 'Falcon launch' }).click();
      await tab.getByRole('heading', { name: 'Falcon launch', level: 1 }).waitFor();
      expect(await text(tab.locator('.meta-grid > div', { hasText: 'Opened by' }))).toMatch(
        new RegExp(`^Opened by\\s*${escapeRegExp(owner.email)} \\(with an API key\\)$`),
      );
      // By keyboard this time: the list, then Switch.
      await tab.getByLabel('Workspace', { exact: true }).focus();
      await tab.keyboard.press('ArrowUp');
      await tab.keyboard.press('Tab');
      expect(await tab.evaluate(() => document.activeElement?.textContent)).toBe('Switch workspace');
      await tab.keyboard.press('Enter');
      await tab.getByText(`You are now in the workspace “${home.name}” (your role: admin).`).waitFor();
      await tab.waitForURL(/\/release-checks$/);
      await tab.locator('.check-row', { hasText: 'Personal landing' }).waitFor();
      expect(await tab.locator('.check-row', { hasText: 'Falcon launch' }).count()).toBe(0);

      // Removed from the team while acting in it: the next call finds it gone and the default workspace loads.
      await switchWorkspace(tab, 'Falcon team (member)', 'Falcon team');
      await tab.locator('.check-row', { hasText: 'Falcon launch' }).waitFor();
      expect((await owner.session.delete(`/workspaces/${team.body.id}/members/${traveller.id}`)).status).toBe(204);
      await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
      const notice = tab.getByRole('alert').filter({ hasText: 'no longer a member of the workspace you were in' });
      await notice.waitFor();
      expect(await text(notice)).toContain(`switched to your default workspace, “${home.name}”`);
      await tab.locator('tr', { hasText: `ci ${home.id.slice(0, 8)}` }).waitFor();
      expect(await tab.evaluate(() => sessionStorage.getItem('vigil.workspace'))).toBe(home.id);
      expect(await text(tab.locator('.workspace-switcher'))).toBe(`Workspace ${home.name}`);
      await expectNoAxeViolations(tab, 'API keys after removal from a workspace');
    } finally {
      await close();
    }
  }, 60_000);

  it('an admin adds a member by e-mail (one-time password shown once), changes their role and removes them; the last admin cannot step down or leave', async () => {
    const email = `crew-${Date.now()}@example.com`;
    let password = '';
    const { tab, close } = await signedInTab(process.env.ADMIN_EMAIL!, process.env.ADMIN_PASSWORD!, undefined, [
      'clipboard-read',
      'clipboard-write',
    ]);
    try {
      await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workspace' }).click();
      await tab.waitForURL(/\/workspace$/);
      await tab.getByLabel('Name of the new workspace').fill('Release crew');
      await tab.getByRole('button', { name: 'Create workspace' }).click();
      await tab.getByText('You are now in the workspace “Release crew” (your role: admin).').waitFor();
      await tab.getByRole('heading', { name: 'Release crew', level: 1 }).waitFor();
      const members = tab.locator('.member-list > li');
      await members.first().waitFor();
      expect(await members.count()).toBe(1);
      await expectNoAxeViolations(tab, 'workspace (admin)');

      // Someone new to Vigil: an instance administrator creates them, with a password shown this once.
      await tab.getByLabel('Email').fill(email);
      await tab.getByRole('radio', { name: 'Member' }).check();
      await tab.getByRole('button', { name: 'Add member' }).click();
      await tab.getByText(`Added ${email} as a member.`).waitFor();
      await tab.getByRole('heading', { name: `${email} can now sign in` }).waitFor();
      password = await tab.getByLabel('One-time password').inputValue();
      expect(password.length).toBeGreaterThanOrEqual(12);
      await tab.getByRole('button', { name: 'Copy one-time password' }).click();
      await tab.locator('.secret-card').getByText('Copied to the clipboard.').waitFor();
      expect(await tab.evaluate(() => navigator.clipboard.readText())).toBe(password);
      const row = tab.locator('.member-list > li', { hasText: email });
      await row.waitFor();
      await expectNoAxeViolations(tab, 'workspace with a one-time password');
      await screenshot(tab, 'workspace.png');
      const api = new ApiClient(service.baseUrl);
      expect((await api.post('/auth/login', { email, password })).status).toBe(200);
      await tab.getByRole('button', { name: 'I have passed the password on' }).click();
      expect(await tab.getByLabel('One-time password').count()).toBe(0);
      expect(await tab.content()).not.toContain(password);

      // A member already: the API's problem shows next to the form.
      await tab.getByLabel('Email').fill(email);
      await tab.getByRole('button', { name: 'Add member' }).click();
      const already = tab.locator('form').getByRole('alert');
      await already.waitFor();
      expect(await text(already)).toMatch(/member already.*HTTP 409/i);

      // By keyboard: pick the role in the member's list, then Save.
      await row.getByLabel(`Role of ${email}`).focus();
      await tab.keyboard.press('v');
      expect(await row.getByLabel(`Role of ${email}`).inputValue()).toBe('viewer');
      await tab.keyboard.press('Tab');
      expect(await tab.evaluate(() => document.activeElement?.textContent)).toBe(`Save role of ${email}`);
      await tab.keyboard.press('Enter');
      await tab.getByText(`${email} is now a viewer.`).waitFor();
      const admin = await signInAsAdmin(api);
      const crew = (await admin.get('/workspaces')).body.data.find((item: any) => item.name === 'Release crew');
      const listed = (await admin.get(`/workspaces/${crew.id}/members`)).body.data;
      expect(listed.find((member: any) => member.email === email).role).toBe('viewer');

      // The only admin can neither step down nor leave.
      const own = tab.locator('.member-list > li', { hasText: process.env.ADMIN_EMAIL! });
      await own.getByLabel(/^Role of/).selectOption('member');
      await own.getByRole('button', { name: /^Save role of/ }).click();
      const refused = tab.getByRole('alert').filter({ hasText: 'was not changed' });
      await refused.waitFor();
      expect(await text(refused)).toMatch(/HTTP 409.*A workspace needs an admin/);
      expect(await own.getByLabel(/^Role of/).inputValue()).toBe('admin');
      await expectNoAxeViolations(tab, 'workspace with last_admin refused');
      await own.getByRole('button', { name: 'Leave' }).click();
      const leave = tab.getByRole('dialog', { name: 'Leave Release crew?' });
      await leave.getByRole('button', { name: 'Leave workspace' }).click();
      expect(await text(leave.getByRole('alert'))).toMatch(/A workspace needs an admin.*HTTP 409/);
      await leave.getByRole('button', { name: 'Cancel' }).click();
      await leave.waitFor({ state: 'detached' });

      await row.getByRole('button', { name: `Remove ${email}` }).click();
      const dialog = tab.getByRole('dialog', { name: `Remove ${email}?` });
      await dialog.getByRole('button', { name: 'Remove member' }).click();
      await dialog.waitFor({ state: 'detached' });
      await tab.getByText(`Removed ${email} from Release crew.`).waitFor();
      expect(await row.count()).toBe(0);
      expect((await admin.get(`/workspaces/${crew.id}/members`)).body.data).toHaveLength(1);

      await tab.setViewportSize({ width: 390, height: 844 });
      await expectFitsPhone(tab, 'workspace (admin)');
    } finally {
      await close();
    }

    // Removed from their only workspace, the person is told so when they sign in, and can create one of their own.
    const alone = await signedInTab(email, password, { width: 390, height: 844 });
    try {
      await alone.tab.getByRole('heading', { name: 'You are not in a workspace', level: 1 }).waitFor();
      await expectNoAxeViolations(alone.tab, 'no workspace');
      await expectFitsPhone(alone.tab, 'no workspace');
      await alone.tab.getByRole('button', { name: 'Create workspace' }).click();
      expect(await text(alone.tab.locator('#first-workspace-name-error'))).toMatch(/Give the workspace a name/);
      await alone.tab.getByLabel('Workspace name').fill('Crew home');
      await alone.tab.getByRole('button', { name: 'Create workspace' }).click();
      await alone.tab.getByText('You are now in the workspace “Crew home” (your role: admin).').waitFor();
      await alone.tab.getByRole('heading', { name: 'Release checks', level: 1 }).waitFor();
      expect(await text(alone.tab.locator('.workspace-switcher'))).toBe('Workspace Crew home');
    } finally {
      await alone.close();
    }
  }, 60_000);

  it('review says who may approve: a viewer gets no form and the reason; with the second-person rule the opener may only reject, and a member approves', async () => {
    const api = new ApiClient(service.baseUrl);
    const [owner, teammate, onlooker] = await Promise.all([createAccount(api), createAccount(api), createAccount(api)]);
    const workspace = await workspaceOf(owner);
    for (const [person, role] of [
      [teammate, 'member'],
      [onlooker, 'viewer'],
    ] as const) {
      const added = await owner.session.post(`/workspaces/${workspace.id}/members`, { email: person.email, role });
      expect(added.status).toBe(201);
    }
    const key = await issueKeyIn(owner, workspace.id);
    const opened = await key.client.post(
      '/release-checks',
      request('Team pricing', `${site.origin}/diff/prod`, `${site.origin}/diff/preview`),
    );
    expect(opened.status).toBe(201);
    const check = await waitForCollection(key.client, opened.body.id);
    expect(check).toMatchObject({ collection_status: 'completed', opened_by: { id: owner.id, email: owner.email } });
    const checkPath = `/release-checks/${check.id}`;

    // The workspace's admin (who opened the check with their key) renames it and turns the second-person rule on.
    const ownerTab = await signedInTab(owner.email, owner.password);
    try {
      const { tab } = ownerTab;
      await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workspace' }).click();
      await tab.getByRole('heading', { name: workspace.name, level: 1 }).waitFor();
      await tab.getByLabel('Name', { exact: true }).fill('Pricing team');
      await tab.getByRole('checkbox', { name: 'Require a second person to approve release checks' }).check();
      await tab.getByRole('button', { name: 'Save settings' }).click();
      await tab.getByText('Saved. A second person must now approve each release check.').waitFor();
      await tab.getByRole('heading', { name: 'Pricing team', level: 1 }).waitFor();
      const saved = (await owner.session.get(`/workspaces/${workspace.id}`)).body;
      expect(saved).toMatchObject({ name: 'Pricing team', review_policy: { require_distinct_reviewer: true } });
      expect(await text(tab.locator('.workspace-switcher'))).toContain('Pricing team');

      await tab.goto(url(checkPath));
      await tab.getByRole('heading', { name: 'Team pricing', level: 1 }).waitFor();
      await imagesLoaded(tab, 2);
      expect(await text(tab.locator('.meta-grid > div', { hasText: 'Opened by' }))).toMatch(
        new RegExp(`^Opened by\\s*${escapeRegExp(owner.email)} \\(with an API key\\)$`),
      );
      const panel = tab.locator('.review-panel');
      expect(await text(panel)).toContain(
        `Who may approve: a member or admin of Pricing team other than the person who opened the check (${owner.email})`,
      );
      expect(await text(tab.locator('#distinct-reviewer-reason'))).toMatch(
        /A second person must approve this check.*you opened this one \(with an API key you created\), so you cannot approve it.*you can still reject it/,
      );
      expect(await tab.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
      expect(await tab.getByRole('button', { name: 'Reject revision 1' }).count()).toBe(1);
      await expectNoAxeViolations(tab, 'release check, opener under the second-person rule');
      await screenshot(tab, 'review-second-person.png');
    } finally {
      await ownerTab.close();
    }

    // A viewer, on a phone: reads the check, but there is nothing to decide with, and the panel says why.
    const viewerTab = await signedInTab(onlooker.email, onlooker.password, { width: 390, height: 844 });
    try {
      const { tab } = viewerTab;
      await switchWorkspace(tab, 'Pricing team (viewer)', 'Pricing team');
      await tab.getByRole('link', { name: 'Team pricing' }).click();
      await tab.getByRole('heading', { name: 'Team pricing', level: 1 }).waitFor();
      await imagesLoaded(tab, 2);
      expect(await text(tab.locator('#review-not-permitted'))).toMatch(
        /You cannot review this check.*You are a viewer of Pricing team: viewers can read release checks but not approve or reject them/,
      );
      expect(await tab.getByLabel(/Review note/).count()).toBe(0);
      expect(await tab.getByRole('button', { name: /Approve|Reject|Collect evidence/ }).count()).toBe(0);
      await expectFitsPhone(tab, 'release check (viewer)');
      await expectNoAxeViolations(tab, 'release check (viewer) at 390 px');

      // The members page is read-only for them, and says who manages it.
      await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workspace' }).click();
      await tab.getByRole('heading', { name: 'Pricing team', level: 1 }).waitFor();
      await tab.locator('.member-list > li').nth(2).waitFor();
      expect(await text(tab.locator('.members-read-only'))).toMatch(/Only admins of this workspace manage its members/);
      expect(await tab.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0);
      expect(await tab.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
      expect(await tab.getByRole('button', { name: 'Add member' }).count()).toBe(0);
      expect(await text(tab.locator('.member-list > li', { hasText: onlooker.email }))).toMatch(/you.*Role: Viewer/);
      await expectFitsPhone(tab, 'workspace (viewer)');
      await expectNoAxeViolations(tab, 'workspace (viewer) at 390 px');
      await screenshot(tab, 'mobile-workspace.png');
    } finally {
      await viewerTab.close();
    }

    // A member of the team, who did not open it, approves.
    const memberTab = await signedInTab(teammate.email, teammate.password);
    try {
      const { tab } = memberTab;
      await switchWorkspace(tab, 'Pricing team (member)', 'Pricing team');
      await tab.goto(url(checkPath));
      await tab.getByRole('heading', { name: 'Team pricing', level: 1 }).waitFor();
      expect(await tab.locator('#distinct-reviewer-reason').count()).toBe(0);
      await tab.getByRole('button', { name: 'Accept /pricing, desktop' }).click();
      await tab.getByText('1 of 1 pair with differences decided').waitFor();
      await tab.getByLabel(/Review note/).fill('Checked both sides; the price change is intended.');
      await tab.getByRole('button', { name: 'Approve revision 1' }).click();
      await tab.getByText('Approved revision 1. The gate is now passed.').waitFor();
      expect(await text(tab.locator('.history'))).toContain(`Approved revision 1 by ${teammate.email}`);
      await expectNoAxeViolations(tab, 'release check approved by a second person');
    } finally {
      await memberTab.close();
    }
    expect((await key.client.get(checkPath)).body).toMatchObject({
      gate: 'passed',
      review: { decision: { decision: 'approve', reviewer: { email: teammate.email } } },
    });
  }, 180_000);

  it('no page broke the Content-Security-Policy: no inline script or style was refused', () => {
    expect(cspViolations).toEqual([]);
  });
});
