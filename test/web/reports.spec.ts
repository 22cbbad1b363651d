import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
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
 * The Reports pages in a real Chromium against the real service, its API and its workers apart: a person creates a
 * CSV uptime report (the form's and the API's errors at their fields), generates it, sees it ready and downloads the
 * file. A second API instance answers generation at once (REPORT_WAIT_MS=0, so `202`): with no worker running, the
 * page shows the run queued and keeps checking; a failed run is told in words; a worker coming up finishes the next
 * one and the page shows it ready. Scanned with axe-core, worked by keyboard, 390 px wide without sideways
 * scrolling; a viewer is told why they cannot act, and downloads all the same.
 */

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('the Reports pages in the web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let quick: TestApp;
  let worker: TestApp | undefined;
  let db: Client;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let person: Account;
  let onlooker: Account;
  let monitorId = '';
  let reportId = '';
  let readyRunId = '';

  const url = (path: string, app: TestApp = service) => `${app.baseUrl}${path}`;
  const nav = (tab: Page, name: string) => tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
  const focused = (tab: Page) => tab.evaluate(() => (document.activeElement?.textContent ?? '').trim());
  const runItem = (tab: Page, id: string) => tab.locator(`li.run[data-run-id="${id}"]`);

  beforeAll(async () => {
    ensureWebBuild();
    // The API (waiting up to 30 s for a run, as in production), a second API that never waits, and a worker.
    [service, quick, worker] = await Promise.all([
      startTestApp({ ROLE: 'api', RATE_LIMIT_PER_MINUTE: '100000' }),
      startTestApp({ ROLE: 'api', RATE_LIMIT_PER_MINUTE: '100000', REPORT_WAIT_MS: '0' }),
      startTestApp({ ROLE: 'worker' }),
    ]);
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    browser = await launchBrowser();
    const api = new ApiClient(service.baseUrl);
    [person, onlooker] = await Promise.all([createAccount(api), createAccount(api)]);
    const added = await person.session.post(`/workspaces/${person.workspaceId}/members`, {
      email: onlooker.email,
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    for (const name of ['Payments API', 'Search box']) {
      const monitor = await person.session.post('/monitors', {
        name,
        url: `https://example.com/${name.toLowerCase().replace(/\s+/g, '-')}`,
        interval_seconds: 86_400,
      });
      expect(monitor.status).toBe(201);
      if (name === 'Payments API') monitorId = monitor.body.id;
    }
    context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    page = await signedInPage(context, url('/sign-in'), person.email, person.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await db?.end();
    await worker?.close();
    await quick?.close();
    await service?.close();
  });

  it('creates a CSV uptime report; the form’s and the API’s errors show at their fields', async () => {
    await nav(page, 'Reports').click();
    await page.waitForURL(/\/reports$/);
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByText('No reports yet.').waitFor();
    await page.getByRole('checkbox', { name: 'Payments API' }).waitFor();

    // Nothing filled in, and days the wrong way round: the form's own messages, at their fields.
    await page.getByRole('radio', { name: 'Between two days (UTC)' }).check();
    await page.getByLabel('First day').fill('2025-03-10');
    await page.getByLabel('Last day (included)').fill('2025-03-01');
    await page.getByRole('button', { name: 'Create report' }).click();
    expect(await text(page.locator('#report-name-error'))).toMatch(/^Name the report/);
    expect(await text(page.locator('#report-last-day-error'))).toBe('The last day cannot come before the first.');
    expect(await page.getByLabel('Last day (included)').getAttribute('aria-invalid')).toBe('true');

    // Too long a period: the API's message, at the period.
    await page.getByLabel('Name', { exact: true }).fill('Weekly uptime');
    await page.getByLabel('First day').fill('2024-01-01');
    await page.getByLabel('Last day (included)').fill('2025-06-30');
    await page.getByRole('button', { name: 'Create report' }).click();
    await page.getByRole('alert').waitFor();
    expect(await text(page.getByRole('alert'))).toMatch(
      /^The report was not created: correct the fields marked below \(HTTP 400\).*period/,
    );
    expect(await text(page.locator('#report-period-error'))).toBe('must span at most 366 days');
    expect(await page.getByRole('group', { name: 'Period' }).getAttribute('aria-describedby')).toBe(
      'report-period-error',
    );
    await expectNoAxeViolations(page, 'create a report, with field errors');

    // A release checks report takes no monitors: the choice goes away and says why.
    await page.getByLabel('Type').selectOption('release_checks');
    await page.getByText('A release checks report covers every release check of the workspace.').waitFor();
    expect(await page.getByRole('group', { name: 'Monitors' }).count()).toBe(0);
    await page.getByLabel('Type').selectOption('uptime');
    expect(await text(page.locator('#report-type-hint'))).toBe(
      'Covers checks, uptime and response times per monitor, and per day.',
    );

    // By keyboard: a monitor ticked with Space, the preset chosen with the arrow keys, CSV, then Create.
    await page.getByRole('checkbox', { name: 'Payments API' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('radio', { name: 'Between two days (UTC)' }).focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.getByRole('radio', { name: 'Last 7 days' }).isChecked()).toBe(true);
    expect(await page.getByLabel('First day').count()).toBe(0);
    await page.getByLabel('Format').selectOption('csv');
    await page.getByLabel('Format').focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Create report');
    await page.keyboard.press('Enter');

    await page.waitForURL(/\/reports\/[0-9a-f-]{36}$/);
    reportId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: 'Weekly uptime', level: 1 }).waitFor();
    await page.locator('.report-facts').getByText('Payments API').waitFor();
    expect(await text(page.locator('.report-facts'))).toMatch(
      /Monitors\s*Payments API\s*Period\s*Last 7 days\s*Format\s*CSV \(for a spreadsheet\)/,
    );
    await page.getByText('Not generated yet.').waitFor();
    expect((await person.session.get(`/reports/${reportId}`)).body).toMatchObject({
      name: 'Weekly uptime',
      type: 'uptime',
      monitor_ids: [monitorId],
      period: { preset: 'last_7_days' },
      format: 'csv',
      runs: [],
    });
    await expectNoAxeViolations(page, 'a new report');
  }, 90_000);

  it('generates the report, shows the run ready with its size and SHA-256, and downloads the CSV file', async () => {
    await page.getByRole('button', { name: 'Generate now' }).focus();
    await page.keyboard.press('Enter');
    const ready = page.getByText(
      /^The report is ready: [\d.]+ (bytes|kB), generated .+\. Download it from the runs below\.$/,
    );
    await ready.waitFor({ timeout: 40_000 });
    const runs = (await person.session.get(`/reports/${reportId}`)).body.runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'ready', failure: null });
    readyRunId = runs[0].id;
    const run = runItem(page, readyRunId);
    expect(await text(run.locator('.check-badges'))).toBe('Run: Ready');
    expect(await text(run.locator('.run-facts'))).toMatch(
      new RegExp(`Size\\s*${runs[0].size} bytes\\s*SHA-256\\s*${runs[0].sha256}$`),
    );
    await expectNoAxeViolations(page, 'a report with a ready run');
    await screenshot(page, 'reports.png');

    // The download goes through the API with the session's token and is saved under the API's file name.
    const button = run.getByRole('button', { name: /^Download CSV of the run requested / });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^Weekly-uptime-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = readFileSync(await download.path());
    expect(sha256(file)).toBe(runs[0].sha256);
    expect(file.length).toBe(runs[0].size);
    const [header, ...rows] = file.toString('utf8').trim().split(/\r?\n/);
    expect(header).toBe('Monitor id,Monitor,URL,Checks,Passed,Uptime %,Average response (ms)');
    expect(rows).toEqual([
      expect.stringMatching(new RegExp(`^${monitorId},Payments API,https://example.com/payments-api,0,0,`)),
    ]);
    await run.getByText(`Downloaded ${download.suggestedFilename()} (${runs[0].size} bytes).`).waitFor();

    // The list shows the report with its latest run.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Reports' }).click();
    const row = page.locator(`tr[data-report-id="${reportId}"]`);
    await row.waitFor();
    expect(await text(row)).toMatch(/^Weekly uptime\s*Uptime, CSV\s*Last 7 days\s*Run: Ready/);
    await expectNoAxeViolations(page, 'the report list');
  }, 90_000);

  it('a generation the API does not wait for is shown queued, checked again until it ends, and a failure is told in words', async () => {
    // No worker: runs wait in the queue.
    await worker!.close();
    worker = undefined;
    const tab = await context.newPage();
    try {
      await tab.goto(url(`/reports/${reportId}`, quick));
      await signInThroughForm(tab, person.email, person.password);
      await tab.getByRole('heading', { name: 'Weekly uptime', level: 1 }).waitFor();
      const reads: string[] = [];
      tab.on('request', (request) => {
        if (request.method() === 'GET' && request.url().endsWith(`/api/v1/reports/${reportId}`))
          reads.push(request.url());
      });

      await tab.getByRole('button', { name: 'Generate now' }).click();
      const progress = tab.locator('.report-progress');
      await progress
        .getByText(
          /^The run requested .+ is queued, waiting for a worker\. This page checks again every 1\.5 seconds\.$/,
        )
        .waitFor();
      expect(await progress.getAttribute('role')).toBe('status');
      const queued = (await person.session.get(`/reports/${reportId}`)).body.runs[0];
      expect(queued.status).toBe('queued');
      const run = runItem(tab, queued.id);
      expect(await text(run.locator('.check-badges'))).toBe('Run: Queued');
      expect(await text(run.locator('.run-facts'))).toMatch(/Generated\s*In progress\s*Size\s*—\s*SHA-256\s*—$/);
      expect(await run.getByRole('button').count()).toBe(0);
      expect(await tab.getByRole('button', { name: 'Generate now' }).isEnabled()).toBe(true);
      await expectNoAxeViolations(tab, 'a report with a run in progress');
      // It keeps asking.
      await tab.waitForTimeout(4_000);
      expect(reads.length).toBeGreaterThanOrEqual(2);
      await progress.getByText(/is queued, waiting for a worker/).waitFor();

      // The run fails (as when its job has failed for good): the page says so, in words.
      await db.query(`update report_runs set status = 'failed', failure = $2 where id = $1`, [
        queued.id,
        'The report could not be generated after several attempts; generate it again.',
      ]);
      await progress.getByText('The report could not be generated', { exact: true }).waitFor();
      expect(await text(progress)).toMatch(
        /^The report could not be generated\s*The report could not be generated after several attempts; generate it again\.$/,
      );
      expect(await text(run)).toMatch(/Run: Failed.*Failed: The report could not be generated after several attempts/);

      // Again, and a worker comes up: the page follows the run until it is ready.
      await tab.getByRole('button', { name: 'Generate now' }).click();
      await progress.getByText(/is queued, waiting for a worker/).waitFor();
      worker = await startTestApp({ ROLE: 'worker' });
      await progress.getByText(/^The report is ready: /).waitFor({ timeout: 30_000 });
      const latest = (await person.session.get(`/reports/${reportId}`)).body.runs[0];
      expect(latest.status).toBe('ready');
      expect(await text(runItem(tab, latest.id).locator('.check-badges'))).toBe('Run: Ready');
      await runItem(tab, latest.id)
        .getByRole('button', { name: /^Download CSV/ })
        .waitFor();
    } finally {
      await tab.close();
    }
  }, 120_000);

  it('deletes a report after confirming; Escape keeps it', async () => {
    const created = await person.session.post('/reports', {
      name: 'Old report',
      type: 'changes',
      period: { preset: 'last_month' },
      format: 'json',
    });
    expect(created.status).toBe(201);
    await page.goto(url(`/reports/${created.body.id}`));
    expect(await text(page.locator('.report-facts'))).toMatch(
      /Monitors\s*Every monitor of the workspace when generated/,
    );
    await page.getByRole('button', { name: 'Delete Old report' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete “Old report”?' });
    await dialog.waitFor();
    expect(await focused(page)).toBe('Cancel');
    await expectNoAxeViolations(page, 'delete a report dialog');
    await page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    expect(await focused(page)).toBe('Delete Old report');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Delete report' }).click();
    await page.waitForURL(/\/reports$/);
    await page.locator(`tr[data-report-id="${reportId}"]`).waitFor();
    expect(await page.locator(`tr[data-report-id="${created.body.id}"]`).count()).toBe(0);
    expect((await person.session.get(`/reports/${created.body.id}`)).status).toBe(404);
  }, 60_000);

  it('at 390 px nothing scrolls sideways; an unknown report is said to be not found', async () => {
    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await phone.newPage();
      await tab.goto(url('/reports'));
      await signInThroughForm(tab, person.email, person.password);
      await tab.locator(`tr[data-report-id="${reportId}"]`).waitFor();
      await tab.getByRole('checkbox', { name: 'Payments API' }).waitFor();
      await expectFitsPhone(tab, 'reports');
      await expectNoAxeViolations(tab, 'reports at 390 px');
      await tab.goto(url(`/reports/${reportId}`));
      await runItem(tab, readyRunId).waitFor();
      await expectFitsPhone(tab, 'a report');
      await expectNoAxeViolations(tab, 'a report at 390 px');

      await tab.goto(url(`/reports/${randomUUID()}`));
      await tab.getByRole('alert').waitFor();
      expect(await text(tab.getByRole('alert'))).toMatch(/^Report not found \(HTTP 404\)/);
      await expectNoAxeViolations(tab, 'an unknown report');
    } finally {
      await phone.close();
    }
  }, 90_000);

  it('a viewer reads reports and downloads their files but cannot create, generate or delete, and is told why', async () => {
    const viewer = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await signedInPage(viewer, url('/sign-in'), onlooker.email, onlooker.password);
      await switchToViewerWorkspace(tab);

      await nav(tab, 'Reports').click();
      await tab.locator(`tr[data-report-id="${reportId}"]`).waitFor();
      expect(await text(tab.locator('.alert-info'))).toMatch(
        /^You are a viewer of .*: you can read the reports and download their files, but only a member or admin can create, generate or delete a report\.$/,
      );
      expect(await tab.getByRole('button', { name: 'Create report' }).count()).toBe(0);
      await expectFitsPhone(tab, 'reports (viewer)');
      await expectNoAxeViolations(tab, 'reports (viewer) at 390 px');

      await tab.getByRole('link', { name: 'Weekly uptime' }).click();
      await runItem(tab, readyRunId).waitFor();
      expect(await text(tab.locator('.alert-info'))).toMatch(
        /^You are a viewer of .*: you can read this report and download its files, but only a member or admin can generate or delete it\.$/,
      );
      expect(await tab.getByRole('button', { name: /Generate|Delete/ }).count()).toBe(0);
      const [download] = await Promise.all([
        tab.waitForEvent('download'),
        runItem(tab, readyRunId)
          .getByRole('button', { name: /^Download CSV/ })
          .click(),
      ]);
      const file = readFileSync(await download.path());
      expect(sha256(file)).toBe((await person.session.get(`/reports/${reportId}/runs/${readyRunId}`)).body.sha256);
      await expectFitsPhone(tab, 'a report (viewer)');
      await expectNoAxeViolations(tab, 'a report (viewer) at 390 px');
    } finally {
      await viewer.close();
    }
  }, 90_000);

  it('no page broke the Content-Security-Policy: no inline script or style was refused', () => {
    expect(cspViolations).toEqual([]);
  });
});
