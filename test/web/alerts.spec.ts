import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { Receiver, until } from '../e2e/alerts-receiver';
import { type Account, createAccount } from '../support/accounts';
import { ApiClient } from '../support/api-client';
import { TestCertificateAuthority } from '../support/test-certificates';
import { startTestApp, type TestApp } from '../support/test-app';
import { page as sitePage, TestSite } from '../support/test-site';
import {
  cspViolations,
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
 * The Alerts pages in a real Chromium against the real service (with its workers) and a real webhook receiver on
 * 127.0.0.1: a person adds a webhook destination (the form's and the API's errors at their fields), copies its
 * signing secret shown once, sends a test and reads the receiver's answer, adds a rule on a monitor's page, sees the
 * alert in the delivery log with each attempt, and redelivers it; enables, disables, rotates and deletes. Scanned
 * with axe-core, worked by keyboard, 390 px wide without sideways scrolling; a viewer is told why they cannot act.
 */

type Json = Record<string, any>;

describe('the Alerts pages in the web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let site: TestSite;
  let receiver: Receiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let person: Account;
  let onlooker: Account;
  let monitorId = '';
  let destinationId = '';
  let secret = '';
  let deliveryId = '';
  let redeliveryId = '';

  const url = (path: string) => `${service.baseUrl}${path}`;
  const nav = (tab: Page, name: string) => tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
  const subnav = (tab: Page, name: string) =>
    tab.getByRole('navigation', { name: 'Alerts' }).getByRole('link', { name });
  const destinationItem = (tab: Page, id: string) => tab.locator(`li[data-destination-id="${id}"]`);
  const focused = (tab: Page) => tab.evaluate(() => (document.activeElement?.textContent ?? '').trim());
  /** The events the receiver got at a path, parsed, with the request they came in. */
  const received = (path: string) =>
    receiver.at(path).map((request) => ({ request, event: JSON.parse(request.body) as Json }));

  beforeAll(async () => {
    ensureWebBuild();
    [site, receiver, service] = await Promise.all([
      new TestSite().start(),
      new Receiver().start(),
      startTestApp({
        // The pages poll while a delivery is retried; the suite tests pages, not the rate limit.
        RATE_LIMIT_PER_MINUTE: '100000',
        // A failed attempt is retried within a second, so the log shows both attempts while the test waits.
        DELIVERY_RETRY_DELAYS_MS: '500,500,500',
        // Checks run only when the test presses "Check now".
        SCHEDULER_TICK_MS: '60000',
        // E-mail destinations need an SMTP server: without one, the API refuses them at the `type` field.
        SMTP_URL: '',
      }),
    ]);
    site.set('/checkout', sitePage({ title: 'Checkout' }));
    browser = await launchBrowser();
    const api = new ApiClient(service.baseUrl);
    [person, onlooker] = await Promise.all([createAccount(api), createAccount(api)]);
    const added = await person.session.post(`/workspaces/${person.workspaceId}/members`, {
      email: onlooker.email,
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    const monitor = await person.session.post('/monitors', {
      name: 'Checkout',
      url: `${site.origin}/checkout`,
      interval_seconds: 86_400,
    });
    expect(monitor.status).toBe(201);
    monitorId = monitor.body.id;
    context = await newContext(browser, {
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await signedInPage(context, url('/sign-in'), person.email, person.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await site?.stop();
    await receiver?.stop();
  });

  it('adds a webhook destination (the form’s and the API’s errors at their fields), shows its secret once with Copy, and a test shows the receiver’s answer', async () => {
    await nav(page, 'Alerts').click();
    await page.waitForURL(/\/alerts$/);
    await page.getByRole('heading', { name: 'Destinations', level: 1 }).waitFor();
    await page.getByText('No destinations yet: alerts have nowhere to go.').waitFor();
    expect(await subnav(page, 'Destinations').getAttribute('aria-current')).toBe('page');

    // Nothing filled in: the form's own messages, at their fields.
    await page.getByRole('button', { name: 'Add destination' }).click();
    expect(await text(page.locator('#destination-name-error'))).toMatch(/Give the destination a name/);
    expect(await text(page.locator('#destination-target-error'))).toMatch(/Enter the address that receives/);

    // A URL the API refuses: its message at the URL field, the problem in words above.
    await page.getByLabel('Name', { exact: true }).fill('Ops');
    await page.getByLabel('URL', { exact: true }).fill('not a web address');
    await page.getByRole('button', { name: 'Add destination' }).click();
    await page.getByRole('alert').waitFor();
    expect(await text(page.getByRole('alert'))).toMatch(
      /The destination was not added: correct the fields marked below \(HTTP 400\).*config\.url/,
    );
    expect(await page.locator('#destination-name-error').count()).toBe(0);
    const target = page.getByLabel('URL', { exact: true });
    expect(await target.getAttribute('aria-invalid')).toBe('true');
    expect(await target.getAttribute('aria-describedby')).toContain('destination-target-error');
    expect(await text(page.locator('#destination-target-error'))).not.toBe('');
    await expectNoAxeViolations(page, 'add a destination, with field errors');

    // E-mail without an SMTP server: the API says why, at the Type field.
    await page.getByLabel('Type').selectOption('email');
    await page.getByLabel(/^Addresses/).fill('ops@example.com');
    await page.getByRole('button', { name: 'Add destination' }).click();
    await page.locator('#destination-type-error').waitFor();
    expect(await text(page.locator('#destination-type-error'))).toMatch(/need the service to have SMTP_URL set/);
    expect(await page.getByLabel('Type').getAttribute('aria-invalid')).toBe('true');

    // A webhook to the receiver, by keyboard: the secret appears once, with the focus, and copies.
    await page.getByLabel('Type').selectOption('webhook');
    await page.getByLabel('URL', { exact: true }).fill(`${receiver.origin}/hook`);
    await page.getByLabel('Maintenance ended').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Add destination');
    await page.keyboard.press('Enter');
    const card = page.locator('.secret-card');
    await card.getByRole('heading', { name: 'Webhook “Ops” added' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.classList.contains('secret-card'))).toBe(true);
    expect(await text(card)).toMatch(/Copy this signing secret now\. It is shown only this once/);
    secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy signing secret' }).click();
    await card.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectNoAxeViolations(page, 'a new webhook with its secret');

    const listed = (await person.session.get('/alert-destinations')).body.data as Json[];
    expect(listed).toEqual([
      expect.objectContaining({
        name: 'Ops',
        type: 'webhook',
        config: { url: `${receiver.origin}/hook` },
        events: ['maintenance.ended'],
        enabled: true,
      }),
    ]);
    destinationId = listed[0].id;
    expect(JSON.stringify(listed)).not.toContain(secret);

    // Once stored, it is gone for good: not on the page, not after a reload.
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    expect(await card.count()).toBe(0);
    await page.reload();
    await destinationItem(page, destinationId).waitFor();
    expect(await page.content()).not.toContain('whsec_');
    expect(await text(destinationItem(page, destinationId))).toMatch(
      /Ops.*Webhook.*Enabled.*Sends to.*\/hook.*Workspace events.*Maintenance ended/,
    );

    // A test, by keyboard: the receiver's answer, in words and as it came; the ping is signed with the secret.
    await page.getByRole('button', { name: 'Send test to Ops' }).focus();
    await page.keyboard.press('Enter');
    const result = destinationItem(page, destinationId).locator('.test-result');
    await result.waitFor();
    expect(await text(result)).toMatch(
      /^Test ping delivered to “Ops”: the receiver answered HTTP 200 in [\d.]+ m?s\.\s*The receiver’s answer:\s*answered 200$/,
    );
    const [ping] = received('/hook');
    expect(ping.event.type).toBe('ping');
    expect(new Webhook(secret).verify(ping.request.body, ping.request.headers as Record<string, string>)).toEqual(
      ping.event,
    );
    await screenshot(page, 'alerts.png');

    // A receiver that refuses: not delivered, and what it said.
    receiver.answer('/hook', 503);
    await page.getByRole('button', { name: 'Send test to Ops' }).click();
    await result.getByText(/not delivered/).waitFor();
    expect(await text(result)).toMatch(
      /^Test ping to “Ops” not delivered: the receiver answered HTTP 503 after .*answered 503$/,
    );
    await expectNoAxeViolations(page, 'destinations with a test result');
  }, 90_000);

  it('adds a rule on a monitor’s page choosing the destination; the monitor going down shows in the delivery log with each attempt; redeliver sends it again', async () => {
    await page.goto(url(`/monitors/${monitorId}`));
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    const rules = page.getByRole('region', { name: 'Alert rules' });
    await rules.getByText('No alert rules: nobody is told when this monitor goes down or changes.').waitFor();

    // No destination chosen: the form says so. Then a value the API refuses: its message at its field.
    await rules.getByRole('button', { name: 'Add rule' }).click();
    expect(await text(page.locator('#rule-destinations-error'))).toMatch(/Choose at least one destination/);
    await rules.getByRole('checkbox', { name: 'Ops' }).check();
    await rules.getByLabel(/^Failed checks in a row/).fill('0');
    await rules.getByRole('button', { name: 'Add rule' }).click();
    await page.locator('#rule-failures-error').waitFor();
    expect(await rules.getByLabel(/^Failed checks in a row/).getAttribute('aria-invalid')).toBe('true');
    expect(await text(rules.getByRole('alert'))).toMatch(
      /The rule was not added: correct the fields marked below.*HTTP 400/,
    );
    expect(await page.locator('#rule-destinations-error').count()).toBe(0);
    await expectNoAxeViolations(page, 'a monitor, adding a rule with a field error');

    // By keyboard: one failed check is enough; Enter adds it.
    const failures = rules.getByLabel(/^Failed checks in a row/);
    await failures.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    await rules.getByText('Added a rule: Alerts when a check fails in at least 1 region.').waitFor();
    const rule = rules.locator('li.rule');
    expect(await text(rule)).toMatch(
      /^Down\s*State: OK\s*Alerts when a check fails in at least 1 region\. Tells the same destinations when it recovers\.\s*Sends to: Ops/,
    );
    const saved = (await person.session.get(`/monitors/${monitorId}/rules`)).body.data as Json[];
    expect(saved).toEqual([
      expect.objectContaining({
        event: 'down',
        destination_ids: [destinationId],
        confirm: { consecutive_failures: 1, min_regions: 1 },
        notify_recovery: true,
        enabled: true,
      }),
    ]);

    // The page goes down; the receiver refuses the first attempt and takes the retry.
    site.set('/checkout', { status: 500, html: 'down' });
    receiver.answer('/hook', 500);
    await page.getByRole('button', { name: 'Check now Checkout' }).click();
    await page
      .locator('.check-run')
      .getByText(/failed in 1 of 1 region/)
      .waitFor({ timeout: 30_000 });
    await rule.getByText('State: Firing: alerted, not yet recovered').waitFor();
    await expectNoAxeViolations(page, 'a monitor with a firing rule');
    const downs = await until('the down alert, delivered on its second attempt', () => {
      const got = received('/hook').filter(({ event }) => event.type === 'monitor.down');
      return got.length === 2 && got[1].request.status === 200 ? got : undefined;
    });
    expect(downs.map(({ request }) => request.status)).toEqual([500, 200]);
    expect(downs[0].request.headers['webhook-id']).toBe(downs[1].request.headers['webhook-id']);

    // The delivery log: the event, its destination, delivered after two attempts.
    await nav(page, 'Alerts').click();
    await subnav(page, 'Delivery log').click();
    await page.waitForURL(/\/alerts\/deliveries$/);
    await page.getByRole('heading', { name: 'Delivery log', level: 1 }).waitFor();
    const row = page.locator('tr[data-delivery-id]', { hasText: 'Monitor down' });
    await row.waitFor();
    await row.getByText('Delivery: Delivered').waitFor();
    expect(await text(row)).toMatch(
      new RegExp(
        `^Monitor down\\s*monitor\\.down\\s*Ops\\s*${receiver.origin}/hook\\s*Delivery: Delivered\\s*2\\s*last: HTTP 200\\s*\\S`,
      ),
    );
    deliveryId = (await row.getAttribute('data-delivery-id'))!;
    await expectNoAxeViolations(page, 'the delivery log');

    // Filters: by status (none failed), then by destination, by keyboard.
    await page.getByLabel('Status').selectOption('failed');
    await page.waitForURL(/\/alerts\/deliveries\?status=failed$/);
    await page.getByRole('heading', { name: 'No deliveries match these filters' }).waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.waitForURL(/\/alerts\/deliveries$/);
    await page.getByLabel('Destination').focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForURL(new RegExp(`/alerts/deliveries\\?destination=${destinationId}$`));
    await row.waitFor();

    // A delivery: each attempt with what the receiver answered, and what was sent.
    await row.getByRole('link', { name: 'Monitor down' }).click();
    await page.getByRole('heading', { name: 'Monitor down to Ops', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Attempts (2)' }).waitFor();
    const attempts = page.locator('li.attempt');
    expect(await text(attempts.nth(0))).toMatch(/^Attempt 1: Not delivered.*Answer\s*HTTP 500.*answered 500$/);
    expect(await text(attempts.nth(1))).toMatch(/^Attempt 2: Delivered.*Answer\s*HTTP 200.*answered 200$/);
    const sent = page.getByRole('region', { name: 'What was sent' });
    expect(await text(sent)).toMatch(/webhook-id.*webhook-signature\s*v1,/);
    expect(await text(sent)).toContain(`"type": "monitor.down"`);
    expect(await text(sent)).not.toContain(secret);
    await expectNoAxeViolations(page, 'a delivery with its attempts');

    // Redeliver, by keyboard: a new delivery of the same event, followed to its page, where it arrives.
    await page.getByRole('button', { name: 'Redeliver' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText(/^Redelivery queued: a new delivery of the same event/).waitFor();
    await page.getByRole('link', { name: 'See the new delivery' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (next) => /\/alerts\/deliveries\/[0-9a-f-]{36}$/.test(next.pathname) && !next.pathname.endsWith(deliveryId),
    );
    redeliveryId = page.url().split('/').pop()!;
    await page.locator('.page-header .check-badges', { hasText: 'Delivery: Delivered' }).waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { name: 'Attempts (1)' }).waitFor();
    expect(await text(page.locator('li.attempt'))).toMatch(/^Attempt 1: Delivered.*Answer\s*HTTP 200/);
    const again = received('/hook').filter(({ event }) => event.type === 'monitor.down');
    expect(again).toHaveLength(3);
    expect(again[2].request.headers['webhook-id']).toBe(again[0].request.headers['webhook-id']);
    expect((await person.session.get(`/webhook-deliveries/${redeliveryId}`)).body).toMatchObject({
      event_id: (await person.session.get(`/webhook-deliveries/${deliveryId}`)).body.event_id,
      status: 'succeeded',
    });

    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Delivery log' }).click();
    await page.locator(`tr[data-delivery-id="${redeliveryId}"]`).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(2);
  }, 120_000);

  it('disables and enables a destination and a rule, rotates the secret (shown once), and deletes a destination after confirming', async () => {
    await nav(page, 'Alerts').click();
    const ops = destinationItem(page, destinationId);
    await ops.waitFor();
    await ops.getByRole('button', { name: 'Disable Ops' }).click();
    await page.getByText('Disabled “Ops”: nothing is sent to it until it is enabled again.').waitFor();
    expect(await text(ops.locator('.check-badges'))).toMatch(/^Webhook\s*Disabled$/);
    expect((await person.session.get(`/alert-destinations/${destinationId}`)).body.enabled).toBe(false);
    await ops.getByRole('button', { name: 'Enable Ops' }).click();
    await page.getByText('Enabled “Ops”: alerts are sent to it again.').waitFor();
    expect((await person.session.get(`/alert-destinations/${destinationId}`)).body.enabled).toBe(true);

    // Rotating asks first; the new secret is shown once and signs the next test.
    await ops.getByRole('button', { name: 'Rotate secret of Ops' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give “Ops” a new signing secret?' });
    await dialog.waitFor();
    await expectNoAxeViolations(page, 'rotate secret dialog');
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: 'New signing secret for “Ops”' }).waitFor();
    expect(await text(page.locator('.secret-card'))).toMatch(/The previous secret keeps signing for 24 hours/);
    const rotated = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    await ops.getByRole('button', { name: 'Send test to Ops' }).click();
    await ops.getByText(/Test ping delivered to “Ops”/).waitFor();
    const ping = received('/hook').pop()!;
    expect(new Webhook(rotated).verify(ping.request.body, ping.request.headers as Record<string, string>)).toEqual(
      ping.event,
    );

    // A Slack destination has no secret; deleting it asks first, and Escape keeps it.
    await page.getByLabel('Type').selectOption('slack');
    await page.getByLabel('Name', { exact: true }).fill('Team chat');
    await page.getByLabel('Slack webhook URL').fill(`${receiver.origin}/slack`);
    await page.getByRole('button', { name: 'Add destination' }).click();
    await page.getByText('Added “Team chat”. Send it a test to see that it receives alerts.').waitFor();
    expect(await page.locator('.secret-card').count()).toBe(0);
    const chat = page.locator('li.destination', { hasText: 'Team chat' });
    expect(await chat.getByRole('button', { name: /Rotate secret/ }).count()).toBe(0);
    const chatId = (await chat.getAttribute('data-destination-id'))!;
    await chat.getByRole('button', { name: 'Delete Team chat' }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Delete “Team chat”?' });
    await confirm.waitFor();
    expect(await focused(page)).toBe('Cancel');
    await page.keyboard.press('Escape');
    expect(await confirm.count()).toBe(0);
    expect(await focused(page)).toBe('Delete Team chat');
    await page.keyboard.press('Enter');
    await confirm.getByRole('button', { name: 'Delete destination' }).click();
    await page.getByText('Deleted “Team chat”. Rules no longer send to it.').waitFor();
    expect(await chat.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('destinations-heading');
    expect((await person.session.get(`/alert-destinations/${chatId}`)).status).toBe(404);

    // The rule, disabled and enabled again on the monitor's page.
    await page.goto(url(`/monitors/${monitorId}`));
    const rule = page.locator('li.rule');
    await rule.waitFor();
    await rule.getByRole('button', { name: 'Disable the “Down” rule' }).click();
    await page.getByText('Disabled the “Down” rule: it sends nothing until it is enabled again.').waitFor();
    expect(await text(rule.locator('.check-badges'))).toBe('Disabled');
    expect((await person.session.get(`/monitors/${monitorId}/rules`)).body.data[0].enabled).toBe(false);
    await rule.getByRole('button', { name: 'Enable the “Down” rule' }).click();
    await page.getByText('Enabled the “Down” rule: it sends alerts again.').waitFor();
    expect((await person.session.get(`/monitors/${monitorId}/rules`)).body.data[0].enabled).toBe(true);

    // A second rule, deleted after confirming; the first stays.
    const changes = await person.session.post(`/monitors/${monitorId}/rules`, {
      event: 'change',
      destination_ids: [destinationId],
    });
    await page.reload();
    const changesRule = page.locator(`li.rule[data-rule-id="${changes.body.id}"]`);
    await changesRule.getByRole('button', { name: 'Delete the “Changes” rule' }).click();
    const confirmRule = page.getByRole('dialog', { name: 'Delete the “Changes” rule?' });
    await confirmRule.getByRole('button', { name: 'Delete rule' }).click();
    await page.getByText('Deleted the “Changes” rule. What it sent stays in the delivery log.').waitFor();
    await changesRule.waitFor({ state: 'detached' });
    const left = (await person.session.get(`/monitors/${monitorId}/rules`)).body.data;
    expect(left.map((remaining: { event: string }) => remaining.event)).toEqual(['down']);
  }, 90_000);

  it('shows the certificate an HTTPS monitor is served, and adds a certificate_expiry rule with the form', async () => {
    const authority = await TestCertificateAuthority.create();
    authority.trust();
    const secure = await new TestSite().start({ certificate: await authority.issue({ daysLeft: 5 }) });
    try {
      secure.set('/', sitePage({ title: 'Shop' }));
      const monitor = await person.session.post('/monitors', { name: 'Shop over HTTPS', url: `${secure.origin}/` });
      expect((await person.session.post(`/monitors/${monitor.body.id}/check`)).status).toBe(200);
      await page.goto(url(`/monitors/${monitor.body.id}`));
      const fact = page.locator('.monitor-facts div', { has: page.getByText('Certificate', { exact: true }) });
      expect(await text(fact.locator('dd'))).toMatch(
        /^5 days left expires .+Issued by CN=Vigil Test CA, O=Vigil tests to CN=127\.0\.0\.1$/,
      );

      const rules = page.getByRole('region', { name: 'Alert rules' });
      await rules.getByLabel('Alert when').selectOption('certificate_expiry');
      // A certificate fires once, at once: no checks in a row, regions or reminders to set.
      expect(await rules.getByLabel(/^Failed checks in a row/).count()).toBe(0);
      await rules.getByRole('checkbox', { name: 'Ops' }).check();
      await rules.getByLabel(/^Days before expiry/).fill('400');
      await rules.getByRole('button', { name: 'Add rule' }).click();
      await page.locator('#rule-days-before-error').waitFor();
      await rules.getByLabel(/^Days before expiry/).fill('14');
      await rules.getByRole('button', { name: 'Add rule' }).click();
      const sentence =
        'Alerts once per certificate when the site serves one with 14 days or fewer left. Tells the same destinations when a renewed certificate is served.';
      await rules.getByText(`Added a rule: ${sentence}`).waitFor();
      const saved = (await person.session.get(`/monitors/${monitor.body.id}/rules`)).body.data as Json[];
      expect(saved).toMatchObject([{ event: 'certificate_expiry', days_before: 14, destination_ids: [destinationId] }]);
      await expectNoAxeViolations(page, 'a monitor with its certificate and a certificate_expiry rule');
    } finally {
      await secure.stop();
    }
  }, 90_000);

  it('at 390 px nothing scrolls sideways; an unknown delivery is said to be not found', async () => {
    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await phone.newPage();
      await tab.goto(url('/alerts'));
      await signInThroughForm(tab, person.email, person.password);
      await destinationItem(tab, destinationId).waitFor();
      await tab.getByRole('button', { name: 'Send test to Ops' }).click();
      await destinationItem(tab, destinationId).locator('.test-result').waitFor();
      await expectFitsPhone(tab, 'destinations');
      await expectNoAxeViolations(tab, 'destinations at 390 px');
      await tab.goto(url('/alerts/deliveries'));
      await tab.locator(`tr[data-delivery-id="${deliveryId}"]`).waitFor();
      await expectFitsPhone(tab, 'the delivery log');
      await expectNoAxeViolations(tab, 'the delivery log at 390 px');
      await tab.goto(url(`/alerts/deliveries/${deliveryId}`));
      await tab.getByRole('heading', { name: 'Attempts (2)' }).waitFor();
      await expectFitsPhone(tab, 'a delivery');
      await expectNoAxeViolations(tab, 'a delivery at 390 px');
      await tab.goto(url(`/monitors/${monitorId}`));
      await tab.locator('li.rule').waitFor();
      await expectFitsPhone(tab, 'a monitor with its rules');
      await expectNoAxeViolations(tab, 'a monitor with its rules at 390 px');

      await tab.goto(url(`/alerts/deliveries/${randomUUID()}`));
      await tab.getByRole('alert').waitFor();
      expect(await text(tab.getByRole('alert'))).toMatch(/^Delivery not found \(HTTP 404\)/);
      await expectNoAxeViolations(tab, 'an unknown delivery');
    } finally {
      await phone.close();
    }
  }, 90_000);

  it('a viewer reads destinations, rules and the delivery log but cannot act, and is told why', async () => {
    const viewer = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await signedInPage(viewer, url('/sign-in'), onlooker.email, onlooker.password);
      await tab.getByLabel('Workspace', { exact: true }).selectOption({ index: 1 });
      await tab.getByRole('button', { name: 'Switch workspace' }).click();
      await tab.getByText(/^You are now in the workspace .* \(your role: viewer\)/).waitFor();

      await nav(tab, 'Alerts').click();
      await destinationItem(tab, destinationId).waitFor();
      expect(await text(tab.locator('.alert-info'))).toMatch(
        /^You are a viewer of .*: you can read the destinations and the delivery log, but only a member or admin can add, test, change or delete a destination, or redeliver an alert\.$/,
      );
      expect(await tab.getByRole('button', { name: /Add destination|Send test|Disable|Rotate|Delete/ }).count()).toBe(
        0,
      );
      await destinationItem(tab, destinationId).getByRole('link', { name: 'Deliveries to Ops' }).click();
      await tab.waitForURL(new RegExp(`/alerts/deliveries\\?destination=${destinationId}$`));
      await tab.locator(`tr[data-delivery-id="${deliveryId}"]`).waitFor();
      expect(await text(tab.locator('.alert-info'))).toMatch(/only a member or admin can redeliver an alert/);
      await expectFitsPhone(tab, 'the delivery log (viewer)');
      await expectNoAxeViolations(tab, 'the delivery log (viewer) at 390 px');

      await tab.locator(`tr[data-delivery-id="${deliveryId}"]`).getByRole('link', { name: 'Monitor down' }).click();
      await tab.getByRole('heading', { name: 'Attempts (2)' }).waitFor();
      expect(await text(tab.locator('.alert-info'))).toMatch(
        /You are a viewer of .*: you can read this delivery and its attempts, but only a member or admin can redeliver it\./,
      );
      expect(await tab.getByRole('button', { name: 'Redeliver' }).count()).toBe(0);
      await expectNoAxeViolations(tab, 'a delivery (viewer) at 390 px');

      await tab.goto(url(`/monitors/${monitorId}`));
      const rules = tab.getByRole('region', { name: 'Alert rules' });
      await rules.locator('li.rule').waitFor();
      expect(await text(rules.locator('.alert-info'))).toMatch(
        /You are a viewer of .*: you can read this monitor’s alert rules, but only a member or admin can add, enable, disable or delete them\./,
      );
      expect(await text(rules.locator('li.rule'))).toMatch(/^Down.*Sends to: Ops$/);
      expect(await rules.getByRole('button').count()).toBe(0);
      expect(await rules.getByRole('checkbox').count()).toBe(0);
      await expectFitsPhone(tab, 'a monitor (viewer)');
      await expectNoAxeViolations(tab, 'a monitor (viewer) at 390 px');
    } finally {
      await viewer.close();
    }
  }, 90_000);

  it('no page broke the Content-Security-Policy: no inline script or style was refused', () => {
    expect(cspViolations).toEqual([]);
  });
});
