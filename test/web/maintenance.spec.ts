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
  switchToViewerWorkspace,
  text,
} from './browser';
import { ensureWebBuild } from './web-build';

/*
 * Maintenance in a real Chromium against the real service: a person starts a window now for 30 minutes over a
 * monitor and ends it now; schedules a weekly one until a time in another time zone than the browser's (the wall-clock
 * times sent as that zone's), sees the API's error at the monitors it names, and deletes it; starts one over every
 * monitor by ticking none. Scanned with axe-core, 390 px wide without sideways scrolling; a viewer is told why they
 * cannot act.
 */

type Json = Record<string, any>;

describe('maintenance in the web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let person: Account;
  let onlooker: Account;
  const monitorIds: Record<string, string> = {};

  const url = (path: string) => `${service.baseUrl}${path}`;
  const nav = (tab: Page, name: string) => tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
  const windowItem = (tab: Page, name: string) => tab.locator('li.maintenance-window', { hasText: name });
  const monitorsHint = (tab: Page) => tab.locator('#maintenance-monitors-hint');
  /** A `datetime-local` value: the wall-clock time of `instant` in New York, the browser's time zone. */
  const newYorkLocal = (instant: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-CA', {
        timeZone: 'America/New_York',
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .formatToParts(new Date(instant))
        .map((part) => [part.type, part.value]),
    );
    return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
  };
  const windowsOf = async (account: Account) => (await account.session.get('/maintenance-windows')).body.data as Json[];

  beforeAll(async () => {
    ensureWebBuild();
    // Windows need no workers: the API says where each stands from the clock. Without them no check runs either.
    service = await startTestApp({ ROLE: 'api', RATE_LIMIT_PER_MINUTE: '100000' });
    browser = await launchBrowser();
    const api = new ApiClient(service.baseUrl);
    [person, onlooker] = await Promise.all([createAccount(api), createAccount(api)]);
    const added = await person.session.post(`/workspaces/${person.workspaceId}/members`, {
      email: onlooker.email,
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    for (const name of ['Checkout', 'Search', 'Old blog']) {
      const monitor = await person.session.post('/monitors', {
        name,
        url: `https://example.com/${name.toLowerCase().replace(/\s+/g, '-')}`,
        interval_seconds: 86_400,
      });
      expect(monitor.status).toBe(201);
      monitorIds[name] = monitor.body.id;
    }
    // A browser in New York: the time zone field starts there, and a window scheduled in Berlin must not.
    context = await newContext(browser, { viewport: { width: 1280, height: 900 }, timezoneId: 'America/New_York' });
    page = await signedInPage(context, url('/sign-in'), person.email, person.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('starts a window now for 30 minutes over a monitor, lists it as active, and ends it now', async () => {
    await nav(page, 'Maintenance').click();
    await page.waitForURL(/\/maintenance$/);
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    await page.getByText('No maintenance windows yet.').waitFor();
    await page.getByRole('checkbox', { name: 'Checkout' }).waitFor();
    expect(await page.getByLabel('Mute alerts').isChecked()).toBe(true);
    expect(await page.getByLabel('Start now').isChecked()).toBe(true);

    expect(await page.getByLabel('For a duration').isChecked()).toBe(true);
    // No monitor ticked is every monitor, and the form says so.
    expect(await text(monitorsHint(page))).toBe(
      'None ticked: the window covers every monitor of the workspace, those added later included.',
    );

    // Nothing filled in: the form's own message, at its field; no monitor is no mistake.
    await page.getByRole('button', { name: 'Start maintenance' }).click();
    expect(await text(page.locator('#maintenance-name-error'))).toMatch(/^Give the window a name/);
    expect(await page.locator('#maintenance-monitors-error').count()).toBe(0);
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Name').fill('Database upgrade');
    await page.getByLabel('Message').fill('Checkout may be slow while we upgrade the database.');
    await page.getByRole('checkbox', { name: 'Checkout' }).check();
    expect(await text(monitorsHint(page))).toBe('Only the ticked monitor; untick it to cover every monitor.');
    await page.getByLabel('Duration (minutes)').fill('30');
    await page.getByRole('button', { name: 'Start maintenance' }).click();
    await page.getByText(/^Started “Database upgrade”: under way until /).waitFor();

    const item = windowItem(page, 'Database upgrade');
    expect(await text(item)).toMatch(
      /^Database upgrade\s*Status: Active\s*Checkout may be slow while we upgrade the database\.\s*Effect\s*Alerts muted\s*Covers\s*Checkout\s*Under way\s*.+ – .+\s*Duration\s*30 minutes/,
    );
    expect(await item.getByText('Repeats').count()).toBe(0);
    const [created] = await windowsOf(person);
    expect(created).toMatchObject({
      name: 'Database upgrade',
      message: 'Checkout may be slow while we upgrade the database.',
      effect: 'mute_alerts',
      monitor_ids: [monitorIds.Checkout],
      duration_minutes: 30,
      rrule: null,
      active: true,
      status: 'active',
      ended_at: null,
    });
    expect(Date.parse(created.current.ends_at) - Date.parse(created.current.starts_at)).toBe(30 * 60_000);
    // The form is ready for the next window.
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    await expectNoAxeViolations(page, 'maintenance, an active window');

    await item.getByRole('button', { name: 'End now Database upgrade' }).click();
    await page.getByText('Ended “Database upgrade” now.').waitFor();
    expect(await text(item)).toMatch(/^Database upgrade\s*Status: Completed.*Ran\s*.+ – .+\s*Duration\s*30 minutes/);
    expect(await item.getByRole('button', { name: /End now/ }).count()).toBe(0);
    const [ended] = await windowsOf(person);
    expect(ended).toMatchObject({ id: created.id, active: false, status: 'completed', current: null, next: null });
    expect(ended.ended_at).not.toBeNull();
    await expectNoAxeViolations(page, 'maintenance, a completed window');
  }, 90_000);

  it('schedules a weekly window until a time in another time zone, shows the API’s error at the monitors, and deletes it', async () => {
    await page.getByLabel('Schedule', { exact: true }).check();
    // The browser's time zone to begin with.
    expect(await page.getByLabel('Time zone').inputValue()).toBe('America/New_York');
    await page.getByLabel('Name').fill('Nightly backup');
    await page.getByLabel('Pause checks').check();
    await page.getByRole('checkbox', { name: 'Search' }).check();
    await page.getByRole('checkbox', { name: 'Old blog' }).check();
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Starts at').fill('2030-06-02T03:00');
    await page.getByLabel('Repeats').selectOption({ label: 'Weekly on Sunday' });
    // Until a time instead of a duration: one before the start is the form's own mistake.
    await page.getByLabel('Until a time').check();
    expect(await page.getByLabel('Duration (minutes)').count()).toBe(0);
    await page.getByLabel('Ends at').fill('2030-06-02T02:00');
    await page.getByRole('button', { name: 'Schedule maintenance' }).click();
    expect(await text(page.locator('#maintenance-ends-error'))).toBe('End after the start.');
    await page.getByLabel('Ends at').fill('2030-06-02T04:30');

    // A monitor deleted since the form was loaded: the API names it, and its message shows at the monitors.
    expect((await person.session.delete(`/monitors/${monitorIds['Old blog']}`)).status).toBe(204);
    await page.getByRole('button', { name: 'Schedule maintenance' }).click();
    await page.locator('#maintenance-monitors-error').waitFor();
    expect(await text(page.locator('#maintenance-monitors-error'))).toBe('no such monitor in this workspace');
    expect(await text(page.getByRole('alert'))).toMatch(
      /^The maintenance window was not created: correct the fields marked below \(HTTP 400\).*monitor_ids\[1\]/,
    );
    await expectNoAxeViolations(page, 'schedule maintenance, with field errors');

    await page.getByRole('checkbox', { name: 'Old blog' }).uncheck();
    await page.getByRole('button', { name: 'Schedule maintenance' }).click();
    await page.getByText(/^Scheduled “Nightly backup” for /).waitFor();
    const item = windowItem(page, 'Nightly backup');
    expect(await text(item)).toMatch(
      /^Nightly backup\s*Status: Scheduled\s*Effect\s*Checks paused\s*Covers\s*Search\s*Next\s*.+ – .+\s*Duration\s*1 hour 30 minutes\s*Repeats\s*Weekly on Sunday\s*Time zone\s*Europe\/Berlin/,
    );
    const scheduled = (await windowsOf(person)).find((listed) => listed.name === 'Nightly backup')!;
    // 03:00 to 04:30 in Berlin in summer (UTC+2), not in New York.
    expect(scheduled).toMatchObject({
      effect: 'pause_checks',
      monitor_ids: [monitorIds.Search],
      starts_at: '2030-06-02T01:00:00.000Z',
      ends_at: '2030-06-02T02:30:00.000Z',
      duration_minutes: 90,
      rrule: 'FREQ=WEEKLY;BYDAY=SU',
      timezone: 'Europe/Berlin',
      active: false,
      status: 'scheduled',
    });
    await expectNoAxeViolations(page, 'maintenance, a scheduled window');

    await item.getByRole('button', { name: 'Delete Nightly backup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Nightly backup”?' });
    await dialog.waitFor();
    await expectNoAxeViolations(page, 'delete a maintenance window dialog');
    await dialog.getByRole('button', { name: 'Delete maintenance window' }).click();
    await page.getByText('Deleted “Nightly backup”.').waitFor();
    expect(await item.count()).toBe(0);
    expect((await person.session.get(`/maintenance-windows/${scheduled.id}`)).status).toBe(404);
    expect(await windowItem(page, 'Database upgrade').count()).toBe(1);
  }, 90_000);

  it('starts a window now over every monitor, by ticking none, until a time on the clock', async () => {
    await page.getByLabel('Start now').check();
    await page.getByLabel('Mute alerts').check();
    await page.getByLabel('Name').fill('Network switch swap');
    expect(await text(monitorsHint(page))).toMatch(/^None ticked: the window covers every monitor/);
    await page.getByLabel('Until a time').check();
    // Ends at is the browser's wall-clock time when the window starts now.
    const until = Date.now() + 2 * 3_600_000;
    await page.getByLabel('Ends at').fill(newYorkLocal(until));
    await page.getByRole('button', { name: 'Start maintenance' }).click();
    await page.getByText(/^Started “Network switch swap”: under way until /).waitFor();
    const item = windowItem(page, 'Network switch swap');
    expect(await text(item)).toMatch(/Effect\s*Alerts muted\s*Covers\s*All monitors\s*Under way/);

    const started = (await windowsOf(person)).find((listed) => listed.name === 'Network switch swap')!;
    expect(started).toMatchObject({ monitor_ids: [], active: true, status: 'active' });
    // The minute typed, to the whole minute after the start that the window lasts.
    const typed = Math.floor(until / 60_000) * 60_000;
    expect(Date.parse(started.ends_at) - typed).toBeGreaterThanOrEqual(0);
    expect(Date.parse(started.ends_at) - typed).toBeLessThan(60_000);
    expect(started.current.ends_at).toBe(started.ends_at);
    await expectNoAxeViolations(page, 'maintenance, a window over every monitor');

    await item.getByRole('button', { name: 'Delete Network switch swap' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete maintenance window' }).click();
    await page.getByText('Deleted “Network switch swap”.').waitFor();
    // For a duration again, for the tests after this one.
    await page.getByLabel('For a duration').check();
  }, 90_000);

  it('at 390 px nothing scrolls sideways', async () => {
    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await phone.newPage();
      await tab.goto(url('/maintenance'));
      await signInThroughForm(tab, person.email, person.password);
      await windowItem(tab, 'Database upgrade').waitFor();
      await tab.getByRole('checkbox', { name: 'Checkout' }).waitFor();
      await expectFitsPhone(tab, 'maintenance');
      await expectNoAxeViolations(tab, 'maintenance at 390 px');
      await tab.getByLabel('Schedule', { exact: true }).check();
      await expectFitsPhone(tab, 'maintenance, scheduling');
    } finally {
      await phone.close();
    }
  }, 90_000);

  it('a viewer reads the windows but cannot act, and is told why', async () => {
    const viewer = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await signedInPage(viewer, url('/sign-in'), onlooker.email, onlooker.password);
      await switchToViewerWorkspace(tab);
      await nav(tab, 'Maintenance').click();
      await windowItem(tab, 'Database upgrade').waitFor();
      expect(await text(tab.locator('.alert-info'))).toMatch(
        /^You are a viewer of .*: you can read its maintenance windows, but only a member or admin can start, schedule, end or delete one\.$/,
      );
      await windowItem(tab, 'Database upgrade').getByText('Checkout', { exact: true }).waitFor();
      expect(await tab.getByRole('button', { name: /Start maintenance|End now|Delete/ }).count()).toBe(0);
      await expectFitsPhone(tab, 'maintenance (viewer)');
      await expectNoAxeViolations(tab, 'maintenance (viewer) at 390 px');
    } finally {
      await viewer.close();
    }
  }, 90_000);

  it('no page broke the Content-Security-Policy: no inline script or style was refused', () => {
    expect(cspViolations).toEqual([]);
  });
});
