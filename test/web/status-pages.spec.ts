import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Account, createAccount } from '../support/accounts';
import { ApiClient } from '../support/api-client';
import { startTestApp, type TestApp } from '../support/test-app';
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
  switchToViewerWorkspace,
  text,
} from './browser';
import { ensureWebBuild } from './web-build';

/*
 * The Status pages in a real Chromium against the real service: a person creates a page (the form's and the API's
 * errors at their fields) with a component built from two monitors, publishes it, opens an incident and posts
 * updates until it is resolved, reads it all in order on the public page, and unpublishes it. Scanned with axe-core,
 * worked by keyboard, 390 px wide without sideways scrolling; a viewer is told why they cannot act.
 */

type Json = Record<string, any>;

describe('the Status pages in the web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let person: Account;
  let onlooker: Account;
  const monitorIds: Record<string, string> = {};
  const slug = `acme-${randomBytes(3).toString('hex')}`;
  const takenSlug = `taken-${randomBytes(3).toString('hex')}`;
  let statusPageId = '';

  const url = (path: string) => `${service.baseUrl}${path}`;
  const nav = (tab: Page, name: string) => tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
  const focused = (tab: Page) => tab.evaluate(() => (document.activeElement?.textContent ?? '').trim());
  const incidentItem = (tab: Page, title: string) => tab.locator('li.incident', { hasText: title });

  beforeAll(async () => {
    ensureWebBuild();
    service = await startTestApp({
      // Status pages need no workers: the API alone serves them, the public page included.
      ROLE: 'api',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    browser = await launchBrowser();
    const api = new ApiClient(service.baseUrl);
    [person, onlooker] = await Promise.all([createAccount(api), createAccount(api)]);
    const added = await person.session.post(`/workspaces/${person.workspaceId}/members`, {
      email: onlooker.email,
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    for (const name of ['Payments API', 'Search box', 'Old blog']) {
      const monitor = await person.session.post('/monitors', {
        name,
        url: `https://example.com/${name.toLowerCase().replace(/\s+/g, '-')}`,
        interval_seconds: 86_400,
      });
      expect(monitor.status).toBe(201);
      monitorIds[name] = monitor.body.id;
    }
    // Another workspace's page holds a slug, which nobody else may take.
    expect((await onlooker.session.post('/status-pages', { slug: takenSlug, title: 'Taken' })).status).toBe(201);
    context = await newContext(browser, {
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await signedInPage(context, url('/sign-in'), person.email, person.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('creates a status page with a component built from monitors; the form’s and the API’s errors show at their fields', async () => {
    await nav(page, 'Status pages').click();
    await page.waitForURL(/\/status-pages$/);
    await page.getByRole('heading', { name: 'Status pages', level: 1 }).waitFor();
    await page.getByText('No status pages yet.').waitFor();
    const component = page.locator('li.component-draft').first();
    await component.getByRole('checkbox', { name: 'Payments API' }).waitFor();

    // Nothing filled in: the form's own messages, at their fields; the empty starter component is not an error.
    await page.getByRole('button', { name: 'Create status page' }).click();
    expect(await text(page.locator('#new-status-title-error'))).toMatch(/^Give the page a title/);
    expect(await text(page.locator('#new-status-slug-error'))).toMatch(/^Choose the address of the page/);
    expect(await page.getByLabel('Title', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    // The slug follows the title until it is edited; a malformed one is refused before the API sees it.
    await page.getByLabel('Title', { exact: true }).fill('Acme status');
    expect(await page.getByLabel('Slug').inputValue()).toBe('acme-status');
    expect(await text(page.locator('#new-status-slug-hint'))).toContain(url('/status/acme-status'));
    await page.getByLabel('Slug').fill('-Bad slug');
    await page.getByRole('button', { name: 'Create status page' }).click();
    expect(await text(page.locator('#new-status-slug-error'))).toMatch(/^Use 3 to 60 lower-case letters/);

    // A slug another workspace holds: the API's 409 in words, at the slug.
    await page.getByLabel('Slug').fill(takenSlug);
    await page.getByLabel('Description').fill('Payments and search for Acme shops.');
    await component.getByLabel('Component name').fill('Website');
    await component.getByRole('checkbox', { name: 'Payments API' }).check();
    await page.getByRole('button', { name: 'Create status page' }).click();
    await page.getByRole('alert').waitFor();
    expect(await text(page.getByRole('alert'))).toMatch(
      /^The status page was not created: correct the fields marked below \(HTTP 409\)/,
    );
    expect(await text(page.locator('#new-status-slug-error'))).toBe(
      `The slug "${takenSlug}" is taken; choose another.`,
    );
    expect(await page.getByLabel('Slug').getAttribute('aria-describedby')).toContain('new-status-slug-error');

    // A monitor deleted since the form was loaded: the API names it, and the message shows at its component.
    await page.getByLabel('Slug').fill(slug);
    await component.getByRole('checkbox', { name: 'Old blog' }).check();
    expect((await person.session.delete(`/monitors/${monitorIds['Old blog']}`)).status).toBe(204);
    await page.getByRole('button', { name: 'Create status page' }).click();
    await component.locator('.field-error').waitFor();
    expect(await text(component.locator('.field-error'))).toBe('no such monitor in this workspace');
    expect(await text(page.getByRole('alert'))).toMatch(
      /correct the fields marked below \(HTTP 400\).*components\[0\]\.monitor_ids\[\d\]/,
    );
    expect(await page.locator('#new-status-slug-error').count()).toBe(0);
    await expectNoAxeViolations(page, 'create a status page, with field errors');

    // A second component by keyboard: it takes the focus once added, and its monitors are ticked with Space.
    await component.getByRole('checkbox', { name: 'Old blog' }).uncheck();
    await page.getByRole('button', { name: 'Add a component' }).focus();
    await page.keyboard.press('Enter');
    const second = page.locator('li.component-draft').nth(1);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('id'))).toMatch(/-name$/);
    await page.keyboard.type('Search');
    await second.getByRole('checkbox', { name: 'Search box' }).focus();
    await page.keyboard.press('Space');
    expect(await second.getByRole('group', { name: 'Component 2: Search' }).count()).toBe(1);
    // A third, removed again: the focus goes back to "Add a component".
    await page.getByRole('button', { name: 'Add a component' }).click();
    await page.getByRole('button', { name: 'Remove Component 3' }).click();
    expect(await focused(page)).toBe('Add a component');
    expect(await page.locator('li.component-draft').count()).toBe(2);

    await page.getByRole('button', { name: 'Create status page' }).click();
    await page.waitForURL(/\/status-pages\/[0-9a-f-]{36}$/);
    statusPageId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: 'Acme status', level: 1 }).waitFor();
    expect(await text(page.locator('.page-header .check-badges'))).toMatch(/^Not published\s*2 components/);
    expect(await text(page.getByRole('region', { name: 'Public page' }))).toMatch(
      new RegExp(
        `^Public page\\s*Not published: ${escapeRegExp(url(`/status/${slug}`))} answers “not found” until you publish the page\\.$`,
      ),
    );
    const saved = (await person.session.get(`/status-pages/${statusPageId}`)).body as Json;
    expect(saved).toMatchObject({
      slug,
      title: 'Acme status',
      description: 'Payments and search for Acme shops.',
      published: false,
      public_url: `/status/${slug}`,
      components: [
        { name: 'Website', monitor_ids: [monitorIds['Payments API']] },
        { name: 'Search', monitor_ids: [monitorIds['Search box']] },
      ],
    });
    expect((await fetch(url(`/status/${slug}`))).status).toBe(404);
    await expectNoAxeViolations(page, 'a new status page');
  }, 90_000);

  it('edits the components (kept by id), publishes, opens an incident and posts updates in order until resolved', async () => {
    await page.goto(url(`/status-pages/${statusPageId}`));
    const before = (await person.session.get(`/status-pages/${statusPageId}`)).body.components as Json[];
    const website = page.locator('li.component-draft').first();
    await website.getByRole('checkbox', { name: 'Search box' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved. The public page shows the change on its next read.').waitFor();
    const after = (await person.session.get(`/status-pages/${statusPageId}`)).body.components as Json[];
    expect(after).toEqual([
      { id: before[0].id, name: 'Website', monitor_ids: [monitorIds['Payments API'], monitorIds['Search box']] },
      before[1],
    ]);

    // Publish, by keyboard: the link to the public page appears.
    await page.getByRole('button', { name: 'Publish', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Published: anyone with the address can now read “Acme status”.').waitFor();
    expect(await text(page.locator('.page-header .check-badges'))).toMatch(/^Published/);
    const publicLink = page.getByRole('link', { name: 'Open the public page of Acme status' });
    expect(await publicLink.getAttribute('href')).toBe(url(`/status/${slug}`));
    expect(await page.getByRole('textbox', { name: 'Public address' }).inputValue()).toBe(url(`/status/${slug}`));

    // Open an incident: its first update is listed.
    const form = page.getByRole('form', { name: 'Open an incident' });
    await form.getByRole('button', { name: 'Open incident' }).click();
    expect(await text(page.locator('#incident-title-error'))).toMatch(/^Say what is wrong/);
    expect(await text(page.locator('#incident-message-error'))).toMatch(/^Tell the public what you know/);
    await form.getByLabel('Title').fill('Checkout errors');
    await form.getByLabel('Impact').selectOption('major');
    await form.getByLabel('First update').fill('We are looking into failed payments.');
    await form.getByRole('button', { name: 'Open incident' }).click();
    await page.getByText('Opened “Checkout errors”: it shows on the public page now.').waitFor();
    const incident = incidentItem(page, 'Checkout errors');
    await incident.waitFor();
    expect(await text(incident.locator('.check-badges'))).toMatch(/^Major impact\s*Status: Investigating$/);
    expect(await form.getByLabel('Title').inputValue()).toBe('');

    // An update, by keyboard: the next step is chosen already; the updates read in order.
    expect(await incident.getByLabel('New status').inputValue()).toBe('identified');
    await incident.getByLabel('Message').fill('A bad deploy; rolling it back.');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Post update to Checkout errors');
    await page.keyboard.press('Enter');
    await incident.getByText('Posted an update to “Checkout errors”: Identified.').waitFor();
    const updates = incident.locator('li.incident-update');
    expect(await updates.count()).toBe(2);
    expect(await text(updates.nth(0))).toMatch(/^Investigating .+We are looking into failed payments\.$/);
    expect(await text(updates.nth(1))).toMatch(/^Identified .+A bad deploy; rolling it back\.$/);
    expect(await incident.getByLabel('New status').inputValue()).toBe('monitoring');
    await expectNoAxeViolations(page, 'a published status page with an open incident');

    // Another tab still offers an update after the incident is resolved: the API's refusal is shown in words.
    const stale = await context.newPage();
    await stale.goto(url(`/status-pages/${statusPageId}`));
    // A session belongs to its tab: the new one signs in and comes back to the page.
    await signInThroughForm(stale, person.email, person.password);
    await incidentItem(stale, 'Checkout errors').getByLabel('Message').waitFor();

    await incident.getByLabel('New status').selectOption('resolved');
    await incident.getByLabel('Message').fill('Payments work again.');
    await incident.getByRole('button', { name: 'Post update to Checkout errors' }).click();
    await incident.getByText('Resolved “Checkout errors”.').waitFor();
    expect(await text(incident.locator('.check-badges'))).toMatch(/^Major impact\s*Status: Resolved$/);
    expect(await text(incident)).toMatch(/resolved .+Resolved: it takes no more updates\./);
    expect(await incident.getByRole('button').count()).toBe(0);
    expect(await updates.count()).toBe(3);

    const staleIncident = incidentItem(stale, 'Checkout errors');
    await staleIncident.getByLabel('Message').fill('One more thing.');
    await staleIncident.getByRole('button', { name: 'Post update to Checkout errors' }).click();
    await staleIncident.getByRole('alert').waitFor();
    expect(await text(staleIncident.getByRole('alert'))).toMatch(
      /^The update was not posted \(HTTP 409\)\s*The incident is resolved and takes no more updates; open a new one\.$/,
    );
    await stale.close();
    await screenshot(page, 'status-pages.png');
  }, 90_000);

  it('the public page shows the component and the incident’s updates in order, names no monitor, and is gone once unpublished', async () => {
    await page.goto(url(`/status-pages/${statusPageId}`));
    await page.getByRole('link', { name: 'Open the public page of Acme status' }).click();
    await page.waitForURL(url(`/status/${slug}`));
    await page.getByRole('heading', { name: 'Acme status', level: 1 }).waitFor();
    expect(await page.title()).toBe('Acme status status');
    expect(await page.locator('li.component h3').allTextContents()).toEqual(['Website', 'Search']);
    const incident = page.locator('article.incident', { hasText: 'Checkout errors' });
    expect(await text(incident.locator('.incident-meta'))).toMatch(/^major impact · Resolved · opened /);
    const updates = await incident
      .locator('ol.updates > li')
      .evaluateAll((items) => items.map((item) => (item.textContent ?? '').replace(/\s+/g, ' ').trim()));
    expect(updates).toEqual([
      expect.stringMatching(/^Investigating .* UTC\s*We are looking into failed payments\.$/),
      expect.stringMatching(/^Identified .* UTC\s*A bad deploy; rolling it back\.$/),
      expect.stringMatching(/^Resolved .* UTC\s*Payments work again\.$/),
    ]);
    const body = await text(page.locator('body'));
    for (const hidden of ['Payments API', 'Search box', 'example.com', monitorIds['Payments API']]) {
      expect(body).not.toContain(hidden);
    }
    expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(0);

    // Back in the interface: unpublish; the public address answers "not found" from the next read.
    await page.goBack();
    await page.getByRole('heading', { name: 'Acme status', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByText('Unpublished: “Acme status” is private again, and its address answers “not found”.').waitFor();
    expect(await page.getByRole('link', { name: /Open the public page/ }).count()).toBe(0);
    expect((await person.session.get(`/status-pages/${statusPageId}`)).body.published).toBe(false);
    expect((await fetch(url(`/status/${slug}`))).status).toBe(404);
    expect((await fetch(url(`/api/v1/status-pages/public/${slug}`))).status).toBe(404);
    // The browser may show its copy for up to 60 s (Cache-Control: public, max-age=60); a reload asks again.
    await page.goto(url(`/status/${slug}`));
    const gone = await page.reload();
    expect(gone?.status()).toBe(404);
    expect(await text(page.locator('body'))).not.toContain('Checkout errors');

    // Published again for the checks that follow.
    await page.goto(url(`/status-pages/${statusPageId}`));
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText(/^Published: /).waitFor();
  }, 60_000);

  it('deletes a status page after confirming; Escape keeps it', async () => {
    const created = await person.session.post('/status-pages', {
      slug: `old-${randomBytes(3).toString('hex')}`,
      title: 'Old page',
    });
    expect(created.status).toBe(201);
    await page.goto(url(`/status-pages/${created.body.id}`));
    await page.getByRole('button', { name: 'Delete Old page' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete “Old page”?' });
    await dialog.waitFor();
    expect(await focused(page)).toBe('Cancel');
    await expectNoAxeViolations(page, 'delete a status page dialog');
    await page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    expect(await focused(page)).toBe('Delete Old page');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Delete status page' }).click();
    await page.waitForURL(/\/status-pages$/);
    await page.locator(`tr[data-status-page-id="${statusPageId}"]`).waitFor();
    expect(await page.locator(`tr[data-status-page-id="${created.body.id}"]`).count()).toBe(0);
    expect((await person.session.get(`/status-pages/${created.body.id}`)).status).toBe(404);
    expect(await text(page.locator(`tr[data-status-page-id="${statusPageId}"]`))).toMatch(
      new RegExp(`^Acme status\\s*/status/${slug}\\s*Published\\s*2\\s*\\S`),
    );
    await expectNoAxeViolations(page, 'the status page list');
  }, 60_000);

  it('at 390 px nothing scrolls sideways, the public page included; an unknown status page is said to be not found', async () => {
    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await phone.newPage();
      await tab.goto(url('/status-pages'));
      await signInThroughForm(tab, person.email, person.password);
      await tab.locator(`tr[data-status-page-id="${statusPageId}"]`).waitFor();
      await tab.locator('li.component-draft').first().getByRole('checkbox', { name: 'Payments API' }).waitFor();
      await expectFitsPhone(tab, 'status pages');
      await expectNoAxeViolations(tab, 'status pages at 390 px');
      await tab.goto(url(`/status-pages/${statusPageId}`));
      await incidentItem(tab, 'Checkout errors').waitFor();
      await tab.locator('li.component-draft').first().getByRole('checkbox', { name: 'Payments API' }).waitFor();
      await expectFitsPhone(tab, 'a status page');
      await expectNoAxeViolations(tab, 'a status page at 390 px');

      await tab.goto(url(`/status/${slug}`));
      await tab.getByRole('heading', { name: 'Acme status', level: 1 }).waitFor();
      await expectFitsPhone(tab, 'the public status page');
      await expectNoAxeViolations(tab, 'the public status page at 390 px');

      await tab.goto(url(`/status-pages/${randomUUID()}`));
      await tab.getByRole('alert').waitFor();
      expect(await text(tab.getByRole('alert'))).toMatch(/^Status page not found \(HTTP 404\)/);
      await expectNoAxeViolations(tab, 'an unknown status page');
    } finally {
      await phone.close();
    }
  }, 90_000);

  it('a viewer reads the status pages and incidents but cannot act, and is told why', async () => {
    const viewer = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await signedInPage(viewer, url('/sign-in'), onlooker.email, onlooker.password);
      await switchToViewerWorkspace(tab);

      await nav(tab, 'Status pages').click();
      await tab.locator(`tr[data-status-page-id="${statusPageId}"]`).waitFor();
      expect(await text(tab.locator('.alert-info'))).toMatch(
        /^You are a viewer of .*: you can read the status pages and their incidents, but only a member or admin can create, change, publish or delete one, or post an incident\.$/,
      );
      expect(await tab.getByRole('button', { name: 'Create status page' }).count()).toBe(0);
      await expectFitsPhone(tab, 'status pages (viewer)');
      await expectNoAxeViolations(tab, 'status pages (viewer) at 390 px');

      await tab.getByRole('link', { name: 'Acme status' }).click();
      await incidentItem(tab, 'Checkout errors').waitFor();
      expect(await text(tab.locator('.alert-info'))).toMatch(
        /^You are a viewer of .*: you can read this status page and its incidents, but only a member or admin can change, publish or delete it, or post an incident\.$/,
      );
      const components = tab.getByRole('region', { name: 'Components' });
      await components.getByText('From Payments API, Search box').waitFor();
      expect(await text(components.locator('li').nth(1))).toMatch(/^Search\s*From Search box$/);
      expect(
        await tab.getByRole('button', { name: /Publish|Unpublish|Delete|Open incident|Post update|Save/ }).count(),
      ).toBe(0);
      expect(await tab.getByRole('link', { name: 'Open the public page of Acme status' }).count()).toBe(1);
      await expectFitsPhone(tab, 'a status page (viewer)');
      await expectNoAxeViolations(tab, 'a status page (viewer) at 390 px');
    } finally {
      await viewer.close();
    }
  }, 90_000);

  it('no page broke the Content-Security-Policy: no inline script or style was refused', () => {
    expect(cspViolations).toEqual([]);
  });
});
