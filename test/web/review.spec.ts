import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { ApiClient } from '../support/api-client';
import { waitForCollection } from '../support/release-checks';
import { startTestApp, type TestApp } from '../support/test-app';
import { page as sitePage, TestSite } from '../support/test-site';
import { expectFitsPhone, expectNoAxeViolations, launchBrowser, newContext, signedInPage, text } from './browser';
import { ensureWebBuild } from './web-build';

/*
 * Reviewing pair by pair in a real Chromium (decision 0013): a reviewer goes through a check with the keyboard only
 * (j and k between pairs, a to accept, r to write the note a rejection needs), narrows the pairs with the filter,
 * decides every pair with differences and submits; the page stays axe-clean and fits a 390 px phone.
 */
describe('the review page, pair by pair (real Chromium against the real service)', () => {
  let service: TestApp;
  let site: TestSite;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let person: Account;
  let ci: IssuedKey;
  let check: Record<string, any>;

  const focusedPair = () =>
    page.evaluate(() => document.activeElement?.closest('article')?.querySelector('h3')?.textContent?.trim() ?? '');

  beforeAll(async () => {
    ensureWebBuild();
    site = await new TestSite().start();
    for (const [path, before, after] of [
      ['/pricing', 'Pro costs €19 a month.', 'Pro costs €24 a month.'],
      ['/about', 'Founded in 2019.', 'Founded in 2019 in Lyon.'],
      ['/contact', 'Write to us.', 'Write to us.'],
    ]) {
      site.set(`/prod${path}`, sitePage({ title: path, body: `<h1>${path}</h1><p>${before}</p>` }));
      site.set(`/preview${path}`, sitePage({ title: path, body: `<h1>${path}</h1><p>${after}</p>` }));
    }
    service = await startTestApp();
    const api = new ApiClient(service.baseUrl);
    person = await createAccount(api);
    ci = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(api);
    await admin.put(`/admin/api-keys/${ci.id}/rate-limit`, { requests_per_minute: 100_000 });
    const created = await ci.client.post('/release-checks', {
      name: 'Keyboard review',
      production_url: `${site.origin}/prod`,
      preview_url: `${site.origin}/preview`,
      request_key: `keyboard-${Date.now()}`,
      pages: ['/pricing', '/about', '/contact'].map((path) => ({ production_path: path, preview_path: path })),
      viewports: ['desktop', 'mobile'],
    });
    check = await waitForCollection(ci.client, created.body.id);
    expect(check.summary).toMatchObject({ pairs: 6, with_differences: 4, awaiting_decision: 4 });
    browser = await launchBrowser();
    context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    page = await signedInPage(context, `${service.baseUrl}/sign-in`, person.email, person.password);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await service?.close();
    await site?.stop();
  });

  it('a reviewer decides every pair with the keyboard only, then submits the review', async () => {
    await page.goto(`${service.baseUrl}/release-checks/${check.id}`);
    await page.getByRole('heading', { name: 'Keyboard review', level: 1 }).waitFor();
    // Pairs with differences first; the two without are collapsed at the end.
    const headings = await page.locator('article.artifact h3').allInnerTexts();
    expect(headings.slice(0, 4).every((heading) => /\/pricing|\/about/.test(heading))).toBe(true);
    expect(await text(page.locator('.unchanged-pairs > summary'))).toMatch(/2 pairs without differences/);
    expect(await text(page.locator('.pair-progress'))).toMatch(/0 of 4 pairs with differences decided/);
    await expectNoAxeViolations(page, 'review page, nothing decided');

    // j moves to the first pair; a accepts it.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    expect(await focusedPair()).toMatch(/\/about|\/pricing/);
    const first = await focusedPair();
    await page.keyboard.press('a');
    await page.getByText('1 of 4 pairs with differences decided').waitFor();
    // j and a for the next two.
    // k from the second pair comes back to the first.
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await focusedPair()).toBe(first);
    for (const decided of [2, 3]) {
      await page.keyboard.press('j');
      expect(await focusedPair()).not.toBe(first);
      await page.keyboard.press('a');
      await page.getByText(`${decided} of 4 pairs with differences decided`).waitFor();
    }
    // The last: r goes to the note, which a rejection needs; Tab to Accept would accept instead. Reject it.
    await page.keyboard.press('j');
    await page.keyboard.press('r');
    await page.keyboard.type('The new sentence wraps badly on phones.');
    await page.keyboard.press('Tab'); // Accept
    await page.keyboard.press('Tab'); // Reject
    await page.keyboard.press('Enter');
    await page.getByText('4 of 4 pairs with differences decided, 1 rejected').waitFor();

    // The filter narrows to the rejected pair.
    await page.getByLabel('Show').selectOption('rejected');
    expect(await page.locator('article.artifact').count()).toBe(1);
    expect(await text(page.locator('.pair-decision'))).toMatch(/Rejected\s+by.*wraps badly/s);
    await page.getByLabel('Show').selectOption('all');

    // Submit the review with a note: a rejected pair means rejecting the revision.
    await page.getByLabel(/Review note/).fill('One pair wraps badly on phones.');
    await page.getByRole('button', { name: 'Reject revision 1' }).click();
    await page.getByText('Rejected revision 1. The gate is now failed.').waitFor();
    const stored = (await ci.client.get(`/release-checks/${check.id}`)).body;
    expect(stored).toMatchObject({ gate: 'failed', review: { status: 'rejected' } });
    const outcomes = stored.review.decision.pairs.map((pair: any) => pair.outcome).sort();
    expect(outcomes).toEqual(['accepted', 'accepted', 'accepted', 'rejected', 'unchanged', 'unchanged']);
    await expectNoAxeViolations(page, 'review page, reviewed');
  }, 90_000);

  it('fits a 390 px phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${service.baseUrl}/release-checks/${check.id}`);
    await page.getByRole('heading', { name: 'Keyboard review', level: 1 }).waitFor();
    await expectFitsPhone(page, 'review page');
    await expectNoAxeViolations(page, 'review page at 390 px');
  });
});
