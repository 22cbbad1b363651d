import type { Browser, BrowserContext, Page } from 'playwright-core';
import { until } from '../e2e/alerts-receiver';
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
 * Monitor dependencies in a real Chromium against the real service: a person makes one heartbeat monitor depend on
 * another with the form (the API's refusal shown at the field), sees "Depends on" on its page, and once the parent is
 * down and the child fails, finds the child's held alert on the parent's page. Heartbeat monitors make the outages
 * exact: a `/fail` ping is a failed check at once. Scanned with axe-core, and 390 px wide without sideways scrolling.
 */

describe('monitor dependencies in the web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let person: Account;
  let parent: Json;
  let child: Json;
  let other: Json;

  const url = (path: string) => `${service.baseUrl}${path}`;
  const ping = (monitor: Json, path = '') => fetch(`${monitor.ping_url}${path}`, { method: 'POST' });
  const job = async (name: string): Promise<Json> => {
    const created = await person.session.post('/monitors', {
      name,
      mode: 'heartbeat',
      schedule: { interval_seconds: 86_400 },
    });
    expect(created.status).toBe(201);
    return created.body;
  };

  beforeAll(async () => {
    ensureWebBuild();
    service = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    browser = await launchBrowser();
    person = await createAccount(new ApiClient(service.baseUrl));
    parent = await job('Database');
    child = await job('Checkout API');
    other = await job('Cache');
    // Nothing listens at port 9: the destination only gives the child's rule somewhere to send.
    const destination = await person.session.post('/alert-destinations', {
      name: 'Nowhere',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/x' },
    });
    expect(destination.status).toBe(201);
    const rule = await person.session.post(`/monitors/${child.id}/rules`, {
      event: 'down',
      destination_ids: [destination.body.id],
    });
    expect(rule.status).toBe(201);
    context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    page = await signedInPage(context, url('/sign-in'), person.email, person.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('sets a dependency with the form (the API’s refusal at the field), then the child’s page says what it depends on', async () => {
    await page.goto(url(`/monitors/${child.id}/edit`));
    await page.getByRole('heading', { name: 'Edit Checkout API', level: 1 }).waitFor();
    const dependsOn = page.getByLabel('Depends on');
    await page.locator('#monitor-parent:not([disabled])').waitFor();
    expect(await dependsOn.locator('option').allTextContents()).toEqual(['Nothing', 'Database', 'Cache']);
    expect(await dependsOn.getAttribute('aria-describedby')).toBe('monitor-parent-hint');
    expect(await text(page.locator('#monitor-parent-hint'))).toBe(
      'While it is down, this monitor’s alerts are held, not sent.',
    );

    // The monitor chosen is deleted meanwhile: the API refuses it, and its message shows at the field.
    await dependsOn.selectOption({ label: 'Cache' });
    expect((await person.session.delete(`/monitors/${other.id}`)).status).toBe(204);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#monitor-parent-error').waitFor();
    expect(await text(page.locator('#monitor-parent-error'))).toMatch(/no such monitor/);
    expect(await dependsOn.getAttribute('aria-invalid')).toBe('true');
    expect(await dependsOn.getAttribute('aria-describedby')).toBe('monitor-parent-hint monitor-parent-error');
    await expectNoAxeViolations(page, 'edit a monitor, with the parent refused');

    await dependsOn.selectOption({ label: 'Database' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(url(`/monitors/${child.id}`));
    await page.getByRole('heading', { name: 'Checkout API', level: 1 }).waitFor();
    expect((await person.session.get(`/monitors/${child.id}`)).body.parent_id).toBe(parent.id);
    const note = page.locator('p', { hasText: /^Depends on/ });
    await note.waitFor();
    expect(await text(note)).toBe('Depends on Database');
    // A monitor without dependents has no held alerts to show.
    expect(await page.getByRole('region', { name: 'Held alerts' }).count()).toBe(0);
    await expectNoAxeViolations(page, 'a monitor with a parent');

    // The parent's form does not offer its own dependent; the child's form shows its parent chosen.
    await note.getByRole('link', { name: 'Database' }).click();
    await page.waitForURL(url(`/monitors/${parent.id}`));
    await page.getByRole('heading', { name: 'Database', level: 1 }).waitFor();
    await page.goto(url(`/monitors/${parent.id}/edit`));
    await page.locator('#monitor-parent:not([disabled])').waitFor();
    expect(await page.getByLabel('Depends on').locator('option').allTextContents()).toEqual(['Nothing']);
    await page.goto(url(`/monitors/${child.id}/edit`));
    await page.locator('#monitor-parent:not([disabled])').waitFor();
    expect(await page.getByLabel('Depends on').inputValue()).toBe(parent.id);
  }, 60_000);

  it('while the parent is down the child’s alert is held, and listed on the parent’s page', async () => {
    expect((await ping(parent, '/fail')).status).toBe(200);
    await until('the parent down', async () =>
      (await person.session.get(`/monitors/${parent.id}`)).body.status === 'down' ? true : undefined,
    );
    expect((await ping(child, '/fail')).status).toBe(200);
    const held = await until('the held alert', async () => {
      const list = (await person.session.get(`/monitors/${parent.id}/held-alerts`)).body;
      return list.pagination.total > 0 ? (list.data[0] as Json) : undefined;
    });
    expect(held).toMatchObject({ monitor_id: child.id, monitor_name: 'Checkout API', message: 'the job failed' });

    await page.goto(url(`/monitors/${parent.id}`));
    await page.getByRole('heading', { name: 'Database', level: 1 }).waitFor();
    const section = page.getByRole('region', { name: 'Held alerts' });
    const row = section.locator(`tr[data-held-alert-id="${held.id}"]`);
    await row.waitFor();
    expect(await text(row.locator('th'))).toBe('Checkout API');
    expect(await row.locator('td').allTextContents()).toEqual([
      expect.stringMatching(/\d{4}/),
      held.region,
      'the job failed',
    ]);
    await expectNoAxeViolations(page, 'a monitor with held alerts');

    // The child's page: the parent is down, so its alerts are held.
    await row.getByRole('link', { name: 'Checkout API' }).click();
    await page.getByRole('heading', { name: 'Checkout API', level: 1 }).waitFor();
    const note = page.locator('p', { hasText: /^Depends on/ });
    await note.waitFor();
    expect(await text(note)).toBe('Depends on Database (down: this monitor’s new alerts are held)');
    await expectNoAxeViolations(page, 'a monitor whose parent is down');

    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await phone.newPage();
      await tab.goto(url(`/monitors/${parent.id}`));
      await signInThroughForm(tab, person.email, person.password);
      await tab.getByRole('heading', { name: 'Database', level: 1 }).waitFor();
      await tab.locator(`tr[data-held-alert-id="${held.id}"]`).waitFor();
      await expectFitsPhone(tab, 'a monitor with held alerts');
      await expectNoAxeViolations(tab, 'a monitor with held alerts at 390 px');
      await tab.goto(url(`/monitors/${child.id}/edit`));
      await tab.locator('#monitor-parent:not([disabled])').waitFor();
      await expectFitsPhone(tab, 'edit a monitor with a parent');
    } finally {
      await phone.close();
    }
  }, 90_000);

  it('no page broke the Content-Security-Policy: no inline script or style was refused', () => {
    expect(cspViolations).toEqual([]);
  });
});
