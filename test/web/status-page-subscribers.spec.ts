import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Account, createAccount } from '../support/accounts';
import { ApiClient } from '../support/api-client';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  cspViolations,
  expectFitsPhone,
  expectNoAxeViolations,
  launchBrowser,
  newContext,
  screenshot,
  signedInPage,
  signInThroughForm,
  switchToViewerWorkspace,
  text,
} from './browser';
import { ensureWebBuild } from './web-build';

/*
 * A status page's subscribers in a real Chromium against the real service: an e-mail address (waiting for its
 * confirmation, following one component) and a webhook (confirmed at once, the whole page) subscribe through the
 * public API; the page's management view lists both, and the webhook is removed after confirming. Scanned with
 * axe-core, 390 px wide without sideways scrolling; a viewer reads the list but is offered no "Remove".
 */

type Json = Record<string, any>;

describe('status-page subscribers in the web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let person: Account;
  let onlooker: Account;
  const slug = `shop-${randomBytes(3).toString('hex')}`;
  const email = `ops-${randomBytes(3).toString('hex')}@example.com`;
  const webhook = 'http://127.0.0.1:9/hook';
  let statusPageId = '';

  const url = (path: string) => `${service.baseUrl}${path}`;
  const subscribersRegion = (tab: Page) => tab.getByRole('region', { name: 'Subscribers' });
  const subscriberItem = (tab: Page, address: string) => tab.locator('li.subscriber', { hasText: address });
  const listedAddresses = async () => {
    const listed = await person.session.get(`/status-pages/${statusPageId}/subscribers`);
    expect(listed.status).toBe(200);
    return (listed.body.data as Json[]).map((subscriber) => subscriber.email ?? subscriber.webhook_url);
  };

  beforeAll(async () => {
    ensureWebBuild();
    service = await startTestApp({
      // Subscribers need no workers to be listed: nothing is sent (no SMTP), the confirmation waits in the outbox.
      ROLE: 'api',
      RATE_LIMIT_PER_MINUTE: '100000',
      // The webhook subscriber's URL is on this machine, which the service refuses otherwise.
      ALLOW_PRIVATE_TARGETS: 'true',
    });
    browser = await launchBrowser();
    const api = new ApiClient(service.baseUrl);
    [person, onlooker] = await Promise.all([createAccount(api), createAccount(api)]);
    const added = await person.session.post(`/workspaces/${person.workspaceId}/members`, {
      email: onlooker.email,
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    const monitor = await person.session.post('/monitors', {
      name: 'Checkout API',
      url: 'https://example.com/checkout',
      interval_seconds: 86_400,
    });
    expect(monitor.status).toBe(201);
    const created = await person.session.post('/status-pages', {
      slug,
      title: 'Example Shop',
      published: true,
      components: [{ name: 'Checkout', monitor_ids: [monitor.body.id] }],
    });
    expect(created.status).toBe(201);
    statusPageId = created.body.id;

    // Subscribing is public: no credentials.
    const checkout = created.body.components[0].id as string;
    const byEmail = await api.post(`/status-pages/public/${slug}/subscribers`, { email, component_ids: [checkout] });
    expect(byEmail).toMatchObject({ status: 202, body: { status: 'confirmation_sent' } });
    const byWebhook = await api.post(`/status-pages/public/${slug}/subscribers`, { webhook_url: webhook });
    expect(byWebhook).toMatchObject({ status: 202, body: { status: 'subscribed' } });

    context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    page = await signedInPage(context, url('/sign-in'), person.email, person.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('lists the e-mail address waiting for confirmation and the confirmed webhook, with what each follows', async () => {
    await page.goto(url(`/status-pages/${statusPageId}`));
    const region = subscribersRegion(page);
    await subscriberItem(page, email).waitFor();
    expect(await text(region.locator('p').nth(0))).toMatch(
      /^People subscribe on its public page, by e-mail with its form or with a webhook through the API; an e-mail address is told nothing until its owner follows the confirmation link sent to it\.$/,
    );
    expect(await region.getByRole('link', { name: 'its public page' }).getAttribute('href')).toBe(
      url(`/status/${slug}`),
    );
    await region.getByText('2 subscribers', { exact: true }).waitFor();
    // Oldest first.
    expect(await region.locator('li.subscriber strong').allTextContents()).toEqual([email, webhook]);

    const byEmail = subscriberItem(page, email);
    expect(await text(byEmail.locator('.check-badges'))).toBe(`${email} E-mail Waiting for confirmation`);
    expect(await byEmail.locator('dt').allTextContents()).toEqual(['Follows', 'Subscribed']);
    expect(await byEmail.locator('dd').first().textContent()).toBe('Checkout');
    const byWebhook = subscriberItem(page, webhook);
    expect(await text(byWebhook.locator('.check-badges'))).toBe(`${webhook} Webhook`);
    expect(await byWebhook.locator('dd').first().textContent()).toBe('Whole page');
    expect(await byWebhook.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await expectNoAxeViolations(page, 'a status page with subscribers');
    await screenshot(page, 'status-page-subscribers.png');
  }, 60_000);

  it('removes the webhook after confirming; Escape keeps it; the API no longer lists it', async () => {
    await page.goto(url(`/status-pages/${statusPageId}`));
    const region = subscribersRegion(page);
    const removeWebhook = region.getByRole('button', { name: `Remove ${webhook}` });
    await removeWebhook.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Remove ${webhook}?` });
    await dialog.waitFor();
    expect(await text(dialog.locator('p'))).toBe(
      'The URL is sent no more notifications about “Example Shop”, and is not told it was removed. It may subscribe again later.',
    );
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await expectNoAxeViolations(page, 'remove a subscriber dialog');
    await page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    expect(await listedAddresses()).toEqual([email, webhook]);

    await removeWebhook.click();
    await dialog.getByRole('button', { name: 'Remove subscriber' }).click();
    await region.getByText(`Removed ${webhook}: it is told nothing more.`).waitFor();
    expect(await dialog.count()).toBe(0);
    expect(await subscriberItem(page, webhook).count()).toBe(0);
    expect(await region.locator('li.subscriber strong').allTextContents()).toEqual([email]);
    await region.getByText('1 subscriber', { exact: true }).waitFor();
    // Its row is gone with the button that had the focus: the section's heading has it now.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('subscribers-heading');
    expect(await listedAddresses()).toEqual([email]);
    await expectNoAxeViolations(page, 'a status page after removing a subscriber');
  }, 60_000);

  it('at 390 px nothing scrolls sideways; a viewer reads the subscribers but is offered no "Remove"', async () => {
    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await phone.newPage();
      await tab.goto(url(`/status-pages/${statusPageId}`));
      await signInThroughForm(tab, person.email, person.password);
      await subscriberItem(tab, email).waitFor();
      await tab.locator('li.component-draft').first().getByLabel('Component name').waitFor();
      await expectFitsPhone(tab, 'a status page with subscribers');
      await expectNoAxeViolations(tab, 'a status page with subscribers at 390 px');
      await screenshot(tab, 'status-page-subscribers-phone.png');
    } finally {
      await phone.close();
    }

    const viewer = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await signedInPage(viewer, url('/sign-in'), onlooker.email, onlooker.password);
      await switchToViewerWorkspace(tab);
      await tab.goto(url(`/status-pages/${statusPageId}`));
      await subscriberItem(tab, email).waitFor();
      expect(await subscribersRegion(tab).getByRole('button').count()).toBe(0);
      await expectFitsPhone(tab, 'a status page with subscribers (viewer)');
      await expectNoAxeViolations(tab, 'a status page with subscribers (viewer) at 390 px');
    } finally {
      await viewer.close();
    }
  }, 90_000);

  it('no page broke the Content-Security-Policy: no inline script or style was refused', () => {
    expect(cspViolations).toEqual([]);
  });
});
