import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Account, createAccount } from '../support/accounts';
import { ApiClient } from '../support/api-client';
import { FakeGitLab } from '../support/fake-code-hosts';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  expectFitsPhone,
  expectNoAxeViolations,
  launchBrowser,
  newContext,
  screenshot,
  signedInPage,
  text,
} from './browser';
import { ensureWebBuild } from './web-build';

/*
 * Code hosts on the Workspace page, in a real Chromium against the real service and a local GitLab: an admin connects
 * a GitLab token (the form's and the API's errors at their fields; the token is never shown again), tests it, disables
 * and deletes it; a member of the workspace does not see the section. Scanned with axe-core, 390 px wide.
 */
describe('code hosts in the web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let gitlab: FakeGitLab;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let admin: Account;
  let member: Account;
  let shop = '';

  const section = (tab: Page) => tab.getByRole('region', { name: 'Code hosts' });

  beforeAll(async () => {
    ensureWebBuild();
    [gitlab, service] = await Promise.all([
      new FakeGitLab().start(),
      startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }),
    ]);
    browser = await launchBrowser();
    const api = new ApiClient(service.baseUrl);
    [admin, member] = await Promise.all([createAccount(api), createAccount(api)]);
    shop = admin.workspaceId;
    const added = await admin.session.post(`/workspaces/${shop}/members`, { email: member.email, role: 'member' });
    expect(added.status).toBe(201);
    context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    page = await signedInPage(context, `${service.baseUrl}/sign-in`, admin.email, admin.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await gitlab?.stop();
  });

  it('an admin connects GitLab, the errors at their fields, and a test shows that the token works', async () => {
    await page.goto(`${service.baseUrl}/workspace`);
    await section(page).getByText('No code host is connected yet.').waitFor();

    await section(page).getByLabel('Code host', { exact: true }).selectOption('gitlab');
    await section(page).getByRole('button', { name: 'Connect', exact: true }).click();
    expect(await text(page.locator('#code-host-name-error'))).toMatch(/Give the connection a name/);
    expect(await text(page.locator('#code-host-token-error'))).toMatch(/access token with the api scope/);

    await section(page).getByLabel('Connection name').fill('Platform');
    await section(page).getByLabel('Serves').fill('platform team');
    await section(page).getByLabel('Access token').fill(gitlab.token);
    await section(page).getByLabel('GitLab address').fill(gitlab.url);
    await section(page).getByRole('button', { name: 'Connect', exact: true }).click();
    await section(page).getByRole('alert').waitFor();
    expect(await text(section(page).getByRole('alert'))).toMatch(/Not connected: correct the fields marked below/);
    expect(await section(page).getByLabel('Serves').getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page, 'connect a code host, with field errors');

    await section(page).getByLabel('Serves').fill('platform');
    await section(page).getByRole('button', { name: 'Connect', exact: true }).click();
    await section(page).getByText('Connected “Platform”.').waitFor();
    const item = section(page).locator('li[data-code-host-id]');
    expect(await text(item.locator('dl'))).toContain(gitlab.url);
    // The token left with the request: neither the page nor the form holds it.
    expect(await section(page).getByLabel('Access token').inputValue()).toBe('');
    expect(await page.content()).not.toContain(gitlab.token);

    await item.getByRole('button', { name: 'Test Platform' }).click();
    await item.getByText(/^It works\./).waitFor();
    expect(gitlab.requests(/^GET \/api\/v4\/personal_access_tokens\/self$/)).toHaveLength(1);
    await expectNoAxeViolations(page, 'a connected code host');
    await screenshot(page, 'code-hosts.png');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFitsPhone(page, 'workspace with a code host');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('disables and deletes a connection', async () => {
    const item = section(page).locator('li[data-code-host-id]');
    await item.getByRole('button', { name: 'Disable Platform' }).click();
    await section(page)
      .getByText(/^Disabled “Platform”/)
      .waitFor();
    await item.getByRole('button', { name: 'Delete Platform' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete connection' }).click();
    await section(page)
      .getByText(/^Deleted “Platform”/)
      .waitFor();
    await section(page).getByText('No code host is connected yet.').waitFor();
    expect((await admin.session.get('/code-host-connections')).body.data).toEqual([]);
  });

  it('a member of the workspace does not see the section (the API refuses them too)', async () => {
    const tab = await signedInPage(context, `${service.baseUrl}/sign-in`, member.email, member.password);
    // The member acts in their own workspace first (where they are its admin): switch to the shop's.
    const shared = await tab.locator('#workspace-switch option', { hasText: '(member)' }).getAttribute('value');
    await tab.getByLabel('Workspace', { exact: true }).selectOption(shared);
    await tab.getByRole('button', { name: 'Switch workspace' }).click();
    await tab.getByText(/^You are now in the workspace .* \(your role: member\)/).waitFor();
    await tab.goto(`${service.baseUrl}/workspace`);
    await tab.getByRole('heading', { name: 'Members' }).waitFor();
    expect(await section(tab).count()).toBe(0);
    expect((await member.session.inWorkspace(shop).get('/code-host-connections')).status).toBe(403);
    await tab.close();
  });
});
