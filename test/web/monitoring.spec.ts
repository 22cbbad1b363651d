import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { ApiClient } from '../support/api-client';
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
 * Monitors, a monitor's page (uptime, charts, timeline, tracked values, badge), changes and accessibility scans in a
 * real Chromium against the real service: each is used as a person would (sign in, act, see the result), scanned
 * with axe-core, worked by keyboard somewhere, and shown 390 px wide without sideways scrolling.
 */

const pricing = (team: string, extra = '') =>
  sitePage({
    title: 'Pricing',
    body: `<h1>Pricing</h1>\n<p>Team plan: <span class="team">${team}</span> per month.</p>\n<p>Business plan: 199 per month.</p>${extra}`,
  });

describe('monitoring in the web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let site: TestSite;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let person: Account;
  let onlooker: Account;
  let ci: IssuedKey;
  let monitorId = '';
  let firstScanId = '';

  const url = (path: string) => `${service.baseUrl}${path}`;
  const nav = (tab: Page, name: string) => tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

  beforeAll(async () => {
    ensureWebBuild();
    // The monitor list reads each row's uptime with a call of its own; the suite tests pages, not the rate limit.
    [site, service] = await Promise.all([new TestSite().start(), startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' })]);
    browser = await launchBrowser();
    const api = new ApiClient(service.baseUrl);
    [person, onlooker] = await Promise.all([createAccount(api), createAccount(api)]);
    ci = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(api);
    await admin.put(`/admin/api-keys/${ci.id}/rate-limit`, { requests_per_minute: 100_000 });
    const added = await person.session.post(`/workspaces/${person.workspaceId}/members`, {
      email: onlooker.email,
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    site.set('/pricing', pricing('$49'));
    // Twenty-one paused monitors: two pages of them under the "Paused" filter.
    for (let index = 1; index <= 21; index += 1) {
      const created = await ci.client.post('/monitors', {
        name: `Archive page ${String(index).padStart(2, '0')}`,
        url: `${site.origin}/archive/${index}`,
        interval_seconds: 86_400,
      });
      expect(created.status).toBe(201);
      expect((await ci.client.patch(`/monitors/${created.body.id}`, { paused: true })).status).toBe(200);
    }
    context = await newContext(browser, {
      viewport: { width: 1440, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await signedInPage(context, url('/sign-in'), person.email, person.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await site?.stop();
  });

  it('creates a monitor with the form: the API’s field errors show at their fields, then it saves and checks now per region', async () => {
    await nav(page, 'Monitors').click();
    await page.waitForURL(/\/monitors$/);
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New monitor' }).click();
    await page.getByRole('heading', { name: 'New monitor', level: 1 }).waitFor();

    // Nothing filled in: the form's own messages. Then a URL the API refuses: its message, at the URL field.
    await page.getByRole('button', { name: 'Create monitor' }).click();
    expect(await text(page.locator('#monitor-name-error'))).toMatch(/Give the monitor a name/);
    await page.getByLabel('Name', { exact: true }).fill('Pricing');
    await page.getByLabel('URL').fill('not a web address');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    const urlError = page.locator('#monitor-url-error');
    await urlError.waitFor();
    expect(await page.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('URL').getAttribute('aria-describedby')).toContain('monitor-url-error');
    expect(await text(page.getByRole('alert'))).toMatch(/correct the fields marked below.*HTTP 400/);
    await expectNoAxeViolations(page, 'new monitor with field errors');

    // A tracked value with an empty selector: the API names the row's field.
    await page.getByLabel('URL').fill(`${site.origin}/pricing`);
    await page.getByLabel(/^Keyword/).fill('Pricing');
    await page.getByLabel(/^Selector/).fill('main');
    await page.getByRole('button', { name: 'Add a tracked value' }).click();
    await page.getByLabel('Name of value 1').fill('team');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.locator('#tracked-0-selector-error').waitFor();
    await page.getByLabel('Selector of value 1').fill('.team');
    await page.getByLabel('Kind of value 1').selectOption('price');

    // An assertion the API cannot evaluate (a JSONPath without its $): the message at the row's field.
    await page.getByRole('button', { name: 'Add an assertion' }).click();
    await page.getByLabel('What assertion 1 reads').selectOption('json_path');
    await page.getByLabel('JSONPath of assertion 1').fill('price');
    await page.getByLabel('Condition of assertion 1').selectOption('exists');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    expect(await text(page.locator('#assertion-0-property-error'))).toMatch(/JSONPath expression starting with \$/);
    await page.getByLabel('What assertion 1 reads').selectOption('css_text');
    await page.getByLabel('CSS selector of assertion 1').fill('h1');
    await page.getByLabel('Condition of assertion 1').selectOption('contains');
    await page.getByLabel('Value of assertion 1').fill('Pricing');
    await expectNoAxeViolations(page, 'new monitor with an assertion');
    await screenshot(page, 'monitor-form.png');
    await page.getByRole('button', { name: 'Create monitor' }).click();

    await page.waitForURL(/\/monitors\/[0-9a-f-]{36}$/);
    monitorId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: 'Pricing', level: 1 }).waitFor();
    const saved = (await ci.client.get(`/monitors/${monitorId}`)).body;
    expect(saved).toMatchObject({
      name: 'Pricing',
      keyword: 'Pricing',
      selector: 'main',
      regions: ['local'],
      tracked_values: [{ name: 'team', selector: '.team', kind: 'price' }],
      assertions: [{ type: 'css_text', property: 'h1', operator: 'contains', value: 'Pricing' }],
    });
    expect(await text(page.locator('.monitor-facts'))).toMatch(/text of h1 contains Pricing/);

    // Check now, by keyboard: the result of each region shows.
    await page.getByRole('button', { name: 'Check now Pricing' }).focus();
    await page.keyboard.press('Enter');
    const result = page.locator('.check-run');
    await result.waitFor({ timeout: 30_000 });
    expect(await text(result)).toMatch(/Checked “Pricing” now: passed in its region/);
    expect(await text(result.getByRole('row', { name: /local/ }))).toMatch(/local\s*Passed\s*200/);
    await expectNoAxeViolations(page, 'monitor after check now');
  }, 60_000);

  it('lists monitors with status, uptime over 24 hours, last check and regions; filters by status over pages; pauses and resumes', async () => {
    // Monitors are listed oldest first: the new one is on the second page, and alone under "Up".
    await nav(page, 'Monitors').click();
    await page.getByText('22 monitors').waitFor();
    await page.getByLabel('Status').selectOption('up');
    await page.waitForURL(/\/monitors\?status=up$/);
    const row = page.locator(`tr[data-monitor-id="${monitorId}"]`);
    await row.waitFor();
    await row.getByText('100%').waitFor();
    expect(await text(row)).toMatch(/Pricing.*Status: Up.*100%.*every 5 minutes.*local/);
    await expectNoAxeViolations(page, 'monitors');
    await screenshot(page, 'monitors.png');

    await page.getByLabel('Status').selectOption('paused');
    await page.waitForURL(/\/monitors\?status=paused$/);
    await page.getByText('21 monitors paused').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(20);
    await page.getByRole('navigation', { name: 'Monitor pages' }).getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/\/monitors\?status=paused&page=2$/);
    await page.getByRole('link', { name: 'Archive page 21' }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Status').selectOption('up');
    await row.waitFor();

    await row.getByRole('button', { name: 'Pause Pricing' }).click();
    await page.getByText('Paused “Pricing”').waitFor();
    expect(await text(row)).toMatch(/Status: Paused/);
    await row.getByRole('button', { name: 'Resume Pricing' }).click();
    await page.getByText('Resumed “Pricing”').waitFor();
    expect(await text(row)).toMatch(/Status: Pending/);
    expect((await ci.client.get(`/monitors/${monitorId}`)).body.paused).toBe(false);
  });

  it('a monitor’s page: uptime per region, charts as labelled SVG with their figures, the timeline of a change, a tracked value and its chart, the badge', async () => {
    site.set('/pricing', pricing('$59'));
    await page.goto(url(`/monitors/${monitorId}`));
    await page.getByRole('heading', { name: 'Pricing', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Check now Pricing' }).click();
    await page.locator('.check-run').waitFor({ timeout: 30_000 });

    // The change and the moved value are on the timeline.
    const timeline = page.locator('.timeline');
    await timeline.getByText(/59/).first().waitFor();
    expect(await text(timeline)).toMatch(/Heuristic summary/);

    const uptime = page.getByRole('table', { name: /Uptime by region/ });
    expect(await text(uptime.getByRole('row', { name: /All regions/ }))).toMatch(/100%\s*\d+ checks?/);
    expect(await text(uptime.getByRole('row', { name: /^local/ }))).toMatch(/100%/);
    const bars = page.getByRole('img', { name: 'Uptime by window, all regions' });
    expect(await bars.evaluate((svg) => svg.tagName.toLowerCase())).toBe('svg');
    expect(await bars.getAttribute('aria-describedby')).toBeTruthy();
    await page.getByRole('img', { name: 'Average response time, last 24 hours, all regions' }).waitFor();

    // By keyboard: another window for the response times.
    await page.getByLabel('Response times over').focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('img', { name: 'Average response time, last 7 days, all regions' }).waitFor();

    // The tracked value: its newest reading, and a chart of its readings once there are two.
    const tracked = page.locator('.tracked-value', { hasText: 'team' });
    await tracked.getByText('$59').waitFor();
    await tracked.getByRole('img', { name: /^team over its last \d+ readings$/ }).waitFor();
    await tracked.getByText('Show the figures as a table').click();
    expect(await text(tracked.locator('details table'))).toMatch(/USD 49.*USD 59/);

    // The badge: on, shown, its Markdown copied.
    await page.getByRole('button', { name: 'Enable badge' }).click();
    const badge = page.getByRole('img', { name: 'Status badge of Pricing' });
    await badge.waitFor();
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('img.status-badge');
      return image?.complete && image.naturalWidth > 0;
    });
    const markdown = await page.getByLabel('Markdown').inputValue();
    expect(markdown).toMatch(new RegExp(`^!\\[Pricing status\\]\\(${url('/api/v1/badges/')}[A-Za-z0-9_-]+\\.svg\\)$`));
    await page.getByRole('button', { name: 'Copy markdown' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(markdown);
    expect((await ci.client.get(`/monitors/${monitorId}`)).body.badge_enabled).toBe(true);

    await expectNoAxeViolations(page, 'monitor page');
    await screenshot(page, 'monitor.png');
  }, 60_000);

  it('changes: the list across monitors, a change’s diff and summary with its source, marked useful and archived', async () => {
    await nav(page, 'Changes').click();
    await page.getByRole('heading', { name: 'Changes', level: 1 }).waitFor();
    const rows = page.locator('.change-row');
    await rows.first().waitFor();
    expect(await text(rows.first())).toMatch(/Pricing/);
    await expectNoAxeViolations(page, 'changes');
    await screenshot(page, 'changes.png');

    const content = page.locator('.change-row', { hasText: 'Content' }).first();
    await content.getByRole('link').click();
    await page.getByRole('heading', { name: 'The watched text changed', level: 1 }).waitFor();
    const changeId = page.url().split('/').pop()!;
    expect(await page.locator('.text-diff del').allInnerTexts()).toEqual([expect.stringContaining('$49')]);
    expect(await page.locator('.text-diff ins').allInnerTexts()).toEqual([expect.stringContaining('$59')]);
    expect(await text(page.locator('.card', { hasText: 'Summary' }).first())).toMatch(/Heuristic summary/);

    // By keyboard: Enter on Useful, Space on Archive.
    await page.getByRole('button', { name: 'Useful' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Marked as useful.').waitFor();
    expect(await page.getByRole('button', { name: 'Useful' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Archive' }).focus();
    await page.keyboard.press('Space');
    await page.getByText('Archived: it no longer shows among open changes.').waitFor();
    expect(await text(page.locator('.page-header .check-badges'))).toMatch(/Useful.*Archived/);
    await expectNoAxeViolations(page, 'a change');
    await screenshot(page, 'change.png');
    expect((await person.session.get(`/changes/${changeId}`)).body).toMatchObject({
      feedback: 'useful',
      archived: true,
    });

    await nav(page, 'Changes').click();
    await page.getByLabel('Show').selectOption('true');
    await page.waitForURL(/\/changes\?archived=true$/);
    await page.locator(`a[href="/changes/${changeId}"]`).waitFor();

    // At phone width the diff wraps: nothing scrolls sideways.
    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await phone.newPage();
      await tab.goto(url(`/changes/${changeId}`));
      await signInThroughForm(tab, person.email, person.password);
      await tab.getByRole('heading', { name: 'The watched text changed', level: 1 }).waitFor();
      await expectFitsPhone(tab, 'a change');
      await expectNoAxeViolations(tab, 'a change at 390 px');
      await screenshot(tab, 'mobile-change.png');
      await tab.goto(url(`/monitors/${monitorId}`));
      await tab.getByRole('heading', { name: 'Pricing', level: 1 }).waitFor();
      await tab.getByRole('img', { name: 'Uptime by window, all regions' }).waitFor();
      await expectFitsPhone(tab, 'a monitor');
      await expectNoAxeViolations(tab, 'a monitor at 390 px');
      await screenshot(tab, 'mobile-monitor.png');
      await tab.goto(url('/monitors?status=up'));
      await tab.locator(`tr[data-monitor-id="${monitorId}"]`).waitFor();
      await expectFitsPhone(tab, 'monitors');
    } finally {
      await phone.close();
    }
  }, 60_000);

  it('accessibility: starts a scan and shows its progress, attests it as the baseline with a required note, then reports new and fixed', async () => {
    site.set('/pricing', pricing('$59', '\n<img src="/logo.png" width="40" height="40">'));
    await nav(page, 'Accessibility').click();
    await page.getByRole('heading', { name: 'Accessibility', level: 1 }).waitFor();
    await page.getByLabel('Monitor').selectOption({ label: 'Pricing' });
    await page.getByRole('button', { name: 'Start scan' }).click();
    await page.waitForURL(/\/accessibility\/scans\/[0-9a-f-]{36}$/);
    firstScanId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: 'Accessibility scan', level: 1 }).waitFor();
    await page.locator('.check-badges', { hasText: 'Scan: Completed' }).waitFor({ timeout: 60_000 });
    expect(await text(page.locator('#comparison-heading').locator('..'))).toMatch(/no baseline yet/);
    expect(await text(page.locator('.findings').first())).toMatch(/image-alt/);

    // The note is required; by keyboard from there.
    await page.getByRole('button', { name: 'Attest as baseline' }).click();
    expect(await text(page.locator('#attest-note-error'))).toMatch(/Write a note/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('attest-note');
    await page.keyboard.type('Checked with a screen reader; the logo is decorative and fixed next sprint.');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Attest as baseline');
    await page.keyboard.press('Enter');
    await page.getByText(`Attested by ${person.email}: this scan is now the monitor’s baseline.`).waitFor();
    const baselineCard = page.locator('#baseline-heading').locator('..');
    await baselineCard.getByText('This scan is the baseline').waitFor();
    expect(await text(baselineCard)).toMatch(
      new RegExp(`This scan is the baseline, attested by ${person.email.replace('.', '\\.')}.*logo is decorative`),
    );
    await expectNoAxeViolations(page, 'an attested scan');

    // The logo gets its alt text, but a button loses its name: one fixed, one new.
    site.set(
      '/pricing',
      pricing('$59', '\n<img src="/logo.png" alt="Vigil" width="40" height="40">\n<button></button>'),
    );
    await nav(page, 'Accessibility').click();
    await page.getByLabel('Monitor').selectOption({ label: 'Pricing' });
    await page.getByRole('button', { name: 'Start scan' }).click();
    await page.waitForURL(
      (next) => next.pathname.startsWith('/accessibility/scans/') && !next.pathname.endsWith(firstScanId),
    );
    await page.getByText(/The scan is (queued|running)/).waitFor();
    await page.locator('.check-badges', { hasText: 'Scan: Completed' }).waitFor({ timeout: 60_000 });
    const comparison = page.locator('#comparison-heading').locator('..');
    await comparison.getByRole('heading', { name: /^New \(\d+\)$/ }).waitFor();
    expect(await text(comparison)).toMatch(/New \(\d+\).*button-name.*Regression.*Fixed \(\d+\).*image-alt/);
    expect(await text(page.locator('#baseline-heading').locator('..'))).toMatch(
      new RegExp(`The baseline scan, attested by ${person.email.replace('.', '\\.')}`),
    );
    await expectNoAxeViolations(page, 'an accessibility report');
    await screenshot(page, 'accessibility-report.png');

    await nav(page, 'Accessibility').click();
    await page.locator(`tr[data-scan-id="${firstScanId}"]`).waitFor();
    await expectNoAxeViolations(page, 'accessibility scans');
    await screenshot(page, 'accessibility.png');
  }, 120_000);

  it('a viewer reads the report but cannot attest, and is told why', async () => {
    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await signedInPage(phone, url('/sign-in'), onlooker.email, onlooker.password);
      await tab.getByLabel('Workspace', { exact: true }).selectOption({ index: 1 });
      await tab.getByRole('button', { name: 'Switch workspace' }).click();
      await tab.getByText(/^You are now in the workspace .* \(your role: viewer\)/).waitFor();
      await tab.goto(url(`/accessibility/scans/${firstScanId}`));
      await tab.getByRole('heading', { name: 'Accessibility scan', level: 1 }).waitFor();
      expect(await text(tab.locator('#attest-not-permitted'))).toMatch(
        /You cannot attest this scan.*You are a viewer of .*: attesting a baseline is a person’s statement/,
      );
      expect(await tab.getByRole('button', { name: 'Attest as baseline' }).count()).toBe(0);
      expect(await tab.getByRole('button', { name: 'Start scan' }).count()).toBe(0);
      await expectFitsPhone(tab, 'accessibility report (viewer)');
      await expectNoAxeViolations(tab, 'accessibility report (viewer) at 390 px');
      await tab.goto(url('/monitors?status=up'));
      await tab.locator(`tr[data-monitor-id="${monitorId}"]`).waitFor();
      expect(await tab.getByRole('button', { name: /^Pause|^Check now/ }).count()).toBe(0);
      expect(await tab.getByRole('link', { name: 'New monitor' }).count()).toBe(0);
    } finally {
      await phone.close();
    }
  }, 60_000);

  it('a heartbeat monitor: made with the form (the API’s cron error at its field), its ping URL to copy, a ping in its results, a new URL after confirming', async () => {
    await page.goto(url('/monitors/new'));
    await page.getByLabel('Name').fill('Nightly backup');
    await page.getByLabel('Heartbeat').check();
    // A heartbeat monitor has no page: no URL to give.
    expect(await page.getByLabel('URL').count()).toBe(0);
    await page.getByLabel('On a cron schedule').check();
    await page.getByLabel(/^Cron expression/).fill('every night');
    await page.getByLabel(/^Time zone/).fill('Europe/Paris');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.locator('#heartbeat-cron-error').waitFor();
    expect(await page.getByLabel(/^Cron expression/).getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page, 'the heartbeat form with a field error');
    await page.getByLabel(/^Cron expression/).fill('0 3 * * *');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { name: 'Nightly backup', level: 1 }).waitFor();
    const id = page.url().split('/').pop()!;
    const facts = page.locator('.monitor-facts');
    expect(await text(facts)).toContain('At 0 3 * * * (cron) in Europe/Paris, 5 minutes of grace');

    const pingUrl = await page.getByLabel('Ping URL', { exact: true }).inputValue();
    expect(pingUrl).toMatch(new RegExp(`^${service.baseUrl}/api/v1/ping/hb_[A-Za-z0-9_-]{32}$`));
    await page.getByRole('button', { name: 'Copy ping url' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pingUrl);
    const results = page.getByRole('region', { name: 'Recent results' });
    await results.getByText('No results yet').waitFor();

    // The job pings its exit code, as the card's crontab line does; the page shows the failure once reloaded.
    expect(await text(page.getByRole('region', { name: 'Heartbeat' }).locator('pre'))).toBe(
      `backup.sh; curl -fsS -m 10 --retry 3 ${pingUrl}/$?`,
    );
    expect((await fetch(`${pingUrl}/2`, { method: 'POST', body: 'tar: disk full' })).status).toBe(200);
    await page.reload();
    await results.locator('tbody tr').first().waitFor();
    expect(await text(results.locator('tbody tr').first())).toMatch(
      /Failed\s*Ping\s*—\s*the job failed with exit code 2: tar: disk full$/,
    );
    await expectNoAxeViolations(page, 'a heartbeat monitor with a failed ping');

    await page.getByRole('button', { name: 'New ping URL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give this monitor a new ping URL?' });
    await dialog.getByRole('button', { name: 'Replace the URL' }).click();
    await dialog.waitFor({ state: 'detached' });
    const rotated = await page.getByLabel('Ping URL', { exact: true }).inputValue();
    expect(rotated).not.toBe(pingUrl);
    expect((await fetch(pingUrl)).status).toBe(404);
    expect((await person.session.get(`/monitors/${id}`)).body.ping_url).toBe(rotated);

    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await phone.newPage();
      await tab.goto(url(`/monitors/${id}`));
      await signInThroughForm(tab, person.email, person.password);
      await tab.getByRole('heading', { name: 'Nightly backup', level: 1 }).waitFor();
      await tab.getByRole('region', { name: 'Recent results' }).locator('tbody tr').first().waitFor();
      await expectFitsPhone(tab, 'a heartbeat monitor');
    } finally {
      await phone.close();
    }
  }, 90_000);

  it('no page broke the Content-Security-Policy: no inline script or style was refused', () => {
    expect(cspViolations).toEqual([]);
  });
});
