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
  signedInPage,
  signInThroughForm,
  text,
} from './browser';
import { ensureWebBuild } from './web-build';

type Json = Record<string, any>;

/*
 * Resources managed by a declaration (monitoring as code) in a real Chromium against the real service: a declaration
 * applied through the API marks its monitor in the list and on its page (an unmanaged one stays unmarked), the edit
 * form says a hand edit is drift and asks before saving (the next plan then shows the drift), and its rule,
 * destination, status page and maintenance window are marked too, their deletion warned about. Scanned with axe-core, and 390 px wide
 * without sideways scrolling.
 */

describe('resources managed by a declaration in the web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let person: Account;
  let shop: Json;
  let blog: Json;

  const url = (path: string) => `${service.baseUrl}${path}`;
  const declaration = (suffix: string) => `/workspaces/${person.workspaceId}/declaration${suffix}`;
  /** Plans the document and applies the plan, as `vigil apply` does; answers the plan's changes. */
  const planAndApply = async (document: Json): Promise<Json[]> => {
    const planned = await person.session.post(declaration('/plan'), { document });
    expect(planned.status).toBe(200);
    const applied = await person.session.post(declaration('/apply'), {
      document,
      fingerprint: planned.body.fingerprint,
    });
    expect([applied.status, applied.status === 200 ? null : applied.body]).toEqual([200, null]);
    return applied.body.changes;
  };
  const shopDocument = { version: 1, monitors: { shop: { name: 'Shop', url: 'https://shop.example.com/' } } };
  const row = (tab: Page, monitor: Json) => tab.locator(`tr[data-monitor-id="${monitor.id}"]`);
  const managedBadge = '.badge-managed';

  beforeAll(async () => {
    ensureWebBuild();
    // Checks run only when asked: the monitors' addresses are not reachable from here.
    service = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', SCHEDULER_TICK_MS: '60000' });
    browser = await launchBrowser();
    person = await createAccount(new ApiClient(service.baseUrl));

    const changes = await planAndApply(shopDocument);
    expect(changes.map((change) => `${change.action} ${change.kind} ${change.key}`)).toEqual(['create monitor shop']);
    const created = await person.session.post('/monitors', { name: 'Blog', url: 'https://blog.example.com/' });
    expect(created.status).toBe(201);
    blog = created.body;
    shop = (await person.session.get(`/monitors/${changes[0].id}`)).body;
    expect([shop.declaration_key, blog.declaration_key]).toEqual(['shop', null]);

    context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    page = await signedInPage(context, url('/sign-in'), person.email, person.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('marks the managed monitor in the list and on its page, with its key; the unmanaged one has no marker', async () => {
    await page.goto(url('/monitors'));
    await row(page, shop).waitFor();
    await row(page, blog).waitFor();
    const badge = row(page, shop).locator(managedBadge);
    expect(await text(badge)).toBe('declaration: shop Managed by a declaration (key shop): change it in the file.');
    expect(await text(badge.locator('[aria-hidden="true"]'))).toBe('declaration: shop');
    expect(await badge.getAttribute('title')).toMatch(
      /^Managed by a declaration \(key “shop”\): changes belong in the file/,
    );
    expect(await row(page, blog).locator(managedBadge).count()).toBe(0);
    await expectNoAxeViolations(page, 'monitors, one managed by a declaration');

    await row(page, shop).getByRole('link', { name: 'Shop' }).click();
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor();
    expect(await text(page.locator('.page-header .check-badges').locator(managedBadge))).toMatch(/^declaration: shop /);
    await expectNoAxeViolations(page, 'a monitor managed by a declaration');

    await page.goto(url(`/monitors/${blog.id}`));
    await page.getByRole('heading', { name: 'Blog', level: 1 }).waitFor();
    expect(await page.locator(managedBadge).count()).toBe(0);
  }, 60_000);

  it('the edit form of a managed monitor says a hand edit is drift and asks before saving; the next plan shows it', async () => {
    await page.goto(url(`/monitors/${shop.id}/edit`));
    await page.getByRole('heading', { name: 'Edit Shop', level: 1 }).waitFor();
    const notice = page.locator('form .drift-notice');
    await notice.waitFor();
    expect(await text(notice.locator('.alert-title'))).toBe('Managed by a declaration');
    expect(await text(notice.locator('p').nth(1))).toBe(
      'This monitor is managed by a declaration (key shop). Changes made here to what the file sets are drift: the ' +
        'next plan shows them and the next apply reverts them. Change the file instead.',
    );
    await expectNoAxeViolations(page, 'edit a managed monitor');

    // Saving asks first; cancelling saves nothing and gives the focus back to the button.
    await page.getByLabel('Name').fill('Shop (edited by hand)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save changes to “Shop” by hand?' });
    await dialog.waitFor();
    expect(await text(dialog.locator('p'))).toMatch(/^This monitor is managed by a declaration \(key shop\)\. /);
    await expectNoAxeViolations(page, 'the drift confirmation of a managed monitor');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Save changes');
    expect(page.url()).toBe(url(`/monitors/${shop.id}/edit`));
    expect((await person.session.get(`/monitors/${shop.id}`)).body.name).toBe('Shop');

    // Saving anyway saves; the monitor stays managed, and the next plan puts the file's name back.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByRole('button', { name: 'Save anyway' }).click();
    await page.waitForURL(url(`/monitors/${shop.id}`));
    await page.getByRole('heading', { name: 'Shop (edited by hand)', level: 1 }).waitFor();
    const saved = (await person.session.get(`/monitors/${shop.id}`)).body;
    expect([saved.name, saved.declaration_key]).toEqual(['Shop (edited by hand)', 'shop']);
    const plan = await person.session.post(declaration('/plan'), { document: shopDocument });
    expect(plan.body.changes).toEqual([
      expect.objectContaining({
        action: 'update',
        kind: 'monitor',
        key: 'shop',
        fields: [expect.objectContaining({ field: 'name', before: 'Shop (edited by hand)', after: 'Shop' })],
      }),
    ]);

    // Pausing it by hand asks too.
    await page.getByRole('button', { name: 'Pause Shop (edited by hand)' }).click();
    const pause = page.getByRole('dialog', { name: 'Pause “Shop (edited by hand)” by hand?' });
    await pause.waitFor();
    await pause.getByRole('button', { name: 'Cancel' }).click();
    await pause.waitFor({ state: 'detached' });
    expect((await person.session.get(`/monitors/${shop.id}`)).body.paused).toBe(false);

    // An unmanaged monitor's form has no notice, and saves without asking.
    await page.goto(url(`/monitors/${blog.id}/edit`));
    await page.getByRole('heading', { name: 'Edit Blog', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Blog (renamed)');
    expect(await page.locator('.drift-notice').count()).toBe(0);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(url(`/monitors/${blog.id}`));
    await page.getByRole('heading', { name: 'Blog (renamed)', level: 1 }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  }, 60_000);

  it('marks a managed rule, destination, status page and maintenance window, and warns before deleting them', async () => {
    const slug = `shop-${Date.now().toString(36)}`;
    await planAndApply({
      version: 1,
      alert_destinations: { ops: { name: 'Ops', type: 'webhook', config: { url: 'https://hooks.example.com/vigil' } } },
      monitors: {
        shop: {
          name: 'Shop',
          url: 'https://shop.example.com/',
          rules: { down: { event: 'down', destinations: ['ops'] } },
        },
      },
      status_pages: { public: { slug, title: 'Shop status', components: [{ name: 'Shop', monitors: ['shop'] }] } },
      maintenance_windows: {
        deploys: { name: 'Deploys', monitors: ['shop'], starts_at: '2030-01-06T02:00:00Z', duration_minutes: 60 },
      },
    });

    // The rule on its monitor's page, under the key plans give it.
    await page.goto(url(`/monitors/${shop.id}`));
    const rule = page.locator('li.rule');
    await rule.waitFor();
    expect(await text(rule.locator('.check-badges [aria-hidden="true"]'))).toBe('declaration: shop/down');
    await rule.getByRole('button', { name: 'Delete the “Down” rule' }).click();
    const deleteRule = page.getByRole('dialog', { name: 'Delete the “Down” rule?' });
    await deleteRule.waitFor();
    expect(await text(deleteRule.locator('p').first())).toBe(
      'This alert rule is managed by a declaration (key shop/down). Deleting it here is drift: the next apply ' +
        'creates it again while the file declares it. Remove it from the file instead.',
    );
    await expectNoAxeViolations(page, 'deleting a managed rule');
    await deleteRule.getByRole('button', { name: 'Cancel' }).click();
    await deleteRule.waitFor({ state: 'detached' });

    // The destination, among the alert destinations.
    await page.goto(url('/alerts'));
    const destination = page.locator('li.destination', { hasText: 'Ops' });
    await destination.waitFor();
    expect(await text(destination.locator('.check-badges [aria-hidden="true"]'))).toBe('declaration: ops');
    await destination.getByRole('button', { name: 'Delete Ops' }).click();
    const deleteDestination = page.getByRole('dialog', { name: 'Delete “Ops”?' });
    await deleteDestination.waitFor();
    expect(await text(deleteDestination.locator('p').first())).toMatch(
      /^This alert destination is managed by a declaration \(key ops\)\. Deleting it here is drift/,
    );
    await deleteDestination.getByRole('button', { name: 'Cancel' }).click();
    await deleteDestination.waitFor({ state: 'detached' });
    await destination.getByRole('button', { name: 'Disable Ops' }).click();
    await page.getByRole('dialog', { name: 'Disable “Ops” by hand?' }).waitFor();
    await expectNoAxeViolations(page, 'disabling a managed destination');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // The status page, in the list and on its page, whose form warns as the monitor's does.
    await page.goto(url('/status-pages'));
    const listed = page.locator('tr', { hasText: 'Shop status' });
    await listed.waitFor();
    expect(await text(listed.locator(`${managedBadge} [aria-hidden="true"]`))).toBe('declaration: public');
    await expectNoAxeViolations(page, 'status pages, one managed by a declaration');
    await listed.getByRole('link', { name: 'Shop status' }).click();
    await page.getByRole('heading', { name: 'Shop status', level: 1 }).waitFor();
    expect(await text(page.locator(`.page-header ${managedBadge} [aria-hidden="true"]`))).toBe('declaration: public');
    const form = page.getByRole('form', { name: 'Edit the status page' });
    await form.locator('.drift-notice').waitFor();
    expect(await text(form.locator('.drift-notice p').nth(1))).toMatch(
      /^This status page is managed by a declaration \(key public\)\. Changes made here/,
    );
    await form.getByRole('button', { name: 'Save changes' }).click();
    const save = page.getByRole('dialog', { name: 'Save changes to “Shop status” by hand?' });
    await save.waitFor();
    await save.getByRole('button', { name: 'Cancel' }).click();
    await save.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete Shop status' }).click();
    const deletePage = page.getByRole('dialog', { name: 'Delete “Shop status”?' });
    await deletePage.waitFor();
    expect(await text(deletePage.locator('p').first())).toMatch(
      /^This status page is managed by a declaration \(key public\)\. Deleting it here is drift/,
    );
    await expectNoAxeViolations(page, 'deleting a managed status page');
    await deletePage.getByRole('button', { name: 'Cancel' }).click();

    // The maintenance window, among the windows.
    await page.goto(url('/maintenance'));
    const window = page.locator('li.maintenance-window', { hasText: 'Deploys' });
    await window.waitFor();
    expect(await text(window.locator(`${managedBadge} [aria-hidden="true"]`))).toBe('declaration: deploys');
    await window.getByRole('button', { name: 'Delete Deploys' }).click();
    const deleteWindow = page.getByRole('dialog', { name: 'Delete “Deploys”?' });
    await deleteWindow.waitFor();
    expect(await text(deleteWindow.locator('p').first())).toMatch(
      /^This maintenance window is managed by a declaration \(key deploys\)\. Deleting it here is drift/,
    );
    await expectNoAxeViolations(page, 'deleting a managed maintenance window');
    await deleteWindow.getByRole('button', { name: 'Cancel' }).click();
  }, 90_000);

  it('works at 390 px: the marked list, the monitor page and the warning form fit without sideways scrolling', async () => {
    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await phone.newPage();
      await tab.goto(url('/monitors'));
      await signInThroughForm(tab, person.email, person.password);
      await row(tab, shop).locator(managedBadge).waitFor();
      await expectFitsPhone(tab, 'monitors, one managed');
      await expectNoAxeViolations(tab, 'monitors, one managed, at 390 px');

      await tab.goto(url(`/monitors/${shop.id}`));
      await tab.locator(`.page-header ${managedBadge}`).waitFor();
      await expectFitsPhone(tab, 'a managed monitor');
      await expectNoAxeViolations(tab, 'a managed monitor at 390 px');

      await tab.goto(url(`/monitors/${shop.id}/edit`));
      await tab.locator('.drift-notice').waitFor();
      await expectFitsPhone(tab, 'edit a managed monitor');
      await expectNoAxeViolations(tab, 'edit a managed monitor at 390 px');
      await tab.getByRole('button', { name: 'Save changes' }).click();
      await tab.getByRole('dialog').waitFor();
      await expectFitsPhone(tab, 'the drift confirmation');
      await expectNoAxeViolations(tab, 'the drift confirmation at 390 px');
    } finally {
      await phone.close();
    }
  }, 90_000);

  it('no page broke the Content-Security-Policy: no inline script or style was refused', () => {
    expect(cspViolations).toEqual([]);
  });
});
