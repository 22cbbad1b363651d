import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { type Account, createAccount } from '../support/accounts';
import { ApiClient } from '../support/api-client';
import { type Answer, CrawlSite } from '../support/crawl-site';
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
  text,
} from './browser';
import { ensureWebBuild } from './web-build';

/*
 * The Crawl pages in a real Chromium against the real service and a small site on 127.0.0.1: a person starts a crawl
 * (the form's and the API's errors at their fields), watches it run and end, picks pages (by path, all shown, one by
 * keyboard), creates monitors from them and sees which were created and which were already monitored. Scanned with
 * axe-core, and shown 390 px wide without sideways scrolling; a viewer reads it all and is told why they cannot act.
 */

const ARCHIVE = Array.from({ length: 22 }, (_, index) => `/archive/${index + 1}`);

/** An HTML page with a title and links, answered after `delayMs`. */
function html(title: string, links: string[] = [], options: { head?: string; delayMs?: number } = {}): Answer {
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join('\n');
  return {
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${options.head ?? ''}</head><body><main>${anchors}</main></body></html>`,
    delayMs: options.delayMs,
  };
}

/**
 * Thirty pages two links deep: a blog, an archive of 22 pages, a noindex page; one path excluded by the crawl, one
 * missing, one link too deep. /about answers slowly so the crawl is seen running.
 */
function buildSite(site: CrawlSite): void {
  site
    .set('/robots.txt', { status: 404 })
    .set('/', html('Home', ['/about', '/pricing', '/blog/', '/archive/', '/docs/intro', '/missing', '/old-page']))
    .set('/about', html('About us', ['/'], { delayMs: 6_000 }))
    .set('/pricing', html('Pricing'))
    .set('/blog/', html('Blog', ['/blog/first-post', '/blog/second-post']))
    .set('/blog/first-post', html('First post', ['/blog/first-post/comments']))
    .set('/blog/first-post/comments', html('Comments'))
    .set('/blog/second-post', html('Second post'))
    .set('/archive/', html('Archive', ARCHIVE))
    .set('/docs/intro', html('Docs'))
    .set('/old-page', html('Old page', [], { head: '<meta name="robots" content="noindex">' }))
    // A start page that takes its time, for a crawl to cancel while it runs.
    .set('/slow/', html('Slow', ['/slow/next'], { delayMs: 10_000 }));
  for (const [index, path] of ARCHIVE.entries()) site.set(path, html(`Archive ${index + 1}`));
}

describe('the Crawl pages in the web interface (real Chromium against the real service)', () => {
  let service: TestApp;
  let site: CrawlSite;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let person: Account;
  let onlooker: Account;
  let crawlId = '';

  const url = (path: string) => `${service.baseUrl}${path}`;
  const nav = (tab: Page, name: string) => tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
  const row = (tab: Page, path: string) => tab.locator(`tr[data-page-url="${site.origin}${path}"]`);
  const selectionCount = (tab: Page) => tab.locator('.selection-count strong');
  const cells = (locator: Locator) =>
    locator
      .locator('th, td')
      .evaluateAll((found) => found.map((cell) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim()));

  beforeAll(async () => {
    ensureWebBuild();
    // The crawl page polls while a crawl runs; the suite tests pages, not the rate limit.
    [site, service] = await Promise.all([new CrawlSite().start(), startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' })]);
    buildSite(site);
    browser = await launchBrowser();
    const api = new ApiClient(service.baseUrl);
    [person, onlooker] = await Promise.all([createAccount(api), createAccount(api)]);
    const added = await person.session.post(`/workspaces/${person.workspaceId}/members`, {
      email: onlooker.email,
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    // The pricing page is monitored already: the crawl shows it so, and it cannot be picked.
    const pricing = await person.session.post('/monitors', {
      name: 'Pricing',
      url: `${site.origin}/pricing`,
      interval_seconds: 86_400,
    });
    expect(pricing.status).toBe(201);
    context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    page = await signedInPage(context, url('/sign-in'), person.email, person.password);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await site?.stop();
  });

  it('starts a crawl with the form: its own and the API’s errors show at their fields; then it runs and completes, with its counts in words', async () => {
    await nav(page, 'Crawl').click();
    await page.waitForURL(/\/crawls$/);
    await page.getByRole('heading', { name: 'Crawl', level: 1 }).waitFor();
    await page.getByText('No crawls yet.').waitFor();

    // Nothing filled in: the form's own message. Then values the API refuses: its messages, at their fields.
    await page.getByRole('button', { name: 'Start crawl' }).click();
    expect(await text(page.locator('#crawl-url-error'))).toMatch(/Enter the address to start from/);
    await page.getByLabel('Start URL').fill(`${site.origin}/`);
    await page.getByLabel(/^Max pages/).fill('0');
    await page.getByLabel(/^Exclude/).fill('docs/**');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await page.locator('#crawl-exclude-error').waitFor();
    expect(await text(page.locator('#crawl-exclude-error'))).toMatch(/must start with \//);
    expect(await page.locator('#crawl-max-pages-error').count()).toBe(1);
    expect(await page.getByLabel(/^Max pages/).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel(/^Max pages/).getAttribute('aria-describedby')).toContain('crawl-max-pages-error');
    expect(await page.locator('#crawl-url-error').count()).toBe(0);
    expect(await text(page.getByRole('alert'))).toMatch(/The crawl was not started: correct the fields.*HTTP 400/);
    await expectNoAxeViolations(page, 'start a crawl, with field errors');

    await page.getByLabel(/^Max pages/).fill('100');
    await page.getByLabel(/^Max depth/).fill('2');
    await page.getByLabel(/^Exclude/).fill('/docs/**\n');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await page.waitForURL(/\/crawls\/[0-9a-f-]{36}$/);
    crawlId = page.url().split('/').pop()!;
    expect((await person.session.get(`/crawl/${crawlId}`)).body).toMatchObject({
      url: `${site.origin}/`,
      max_pages: 100,
      max_depth: 2,
      include: [],
      exclude: ['/docs/**'],
    });

    // While it runs: its progress, updated by itself, and a way to stop it.
    await page.getByRole('button', { name: 'Cancel crawl' }).waitFor();
    expect(await text(page.locator('.progress'))).toMatch(/The crawl is (queued|running): \d+ pages? found so far/);
    await expectNoAxeViolations(page, 'a running crawl');

    await page.locator('.check-badges', { hasText: 'Crawl: Completed' }).waitFor({ timeout: 90_000 });
    expect(await page.getByRole('button', { name: 'Cancel crawl' }).count()).toBe(0);
    expect(await text(page.locator('.progress'))).toBe('');
    expect(await text(page.locator('.alert-success'))).toMatch(
      /Completed\. It stopped at its depth limit: pages more than 2 links from the start URL were found and not fetched\./,
    );
    expect(await text(page.locator('.stat', { hasText: 'Pages found' }).locator('dd'))).toBe('30');
    const skipped = page.getByRole('region', { name: 'URLs found but not listed, by reason' });
    const skippedFor = async (reason: string) => text(skipped.locator('div', { hasText: reason }).locator('dd'));
    expect(await skippedFor('include or exclude globs')).toBe('1');
    expect(await skippedFor('Errors (HTTP 4xx or 5xx')).toBe('1');
    expect(await skippedFor('Disallowed by robots.txt')).toBe('0');
    await page.getByRole('heading', { name: 'Pages (30)' }).waitFor();
    await expectNoAxeViolations(page, 'a completed crawl');

    // The list: this crawl, with its status, pages found, start and end.
    await nav(page, 'Crawl').click();
    const listed = page.locator(`tr[data-crawl-id="${crawlId}"]`);
    await listed.waitFor();
    expect(await text(listed.locator('th a'))).toBe(`${site.origin}/`);
    const cells = await Promise.all([0, 1, 2, 3].map((index) => text(listed.locator('td').nth(index))));
    expect(cells).toEqual(['Crawl: Completed', '30', expect.stringMatching(/\d/), expect.stringMatching(/\d/)]);
    await expectNoAxeViolations(page, 'crawls');
  }, 150_000);

  it('picks pages (select all shown, by path across pages, one by keyboard) and creates monitors: the result names what was created and what was already monitored', async () => {
    await page.goto(url(`/crawls/${crawlId}`));
    await page.getByRole('heading', { name: 'Pages (30)' }).waitFor();
    expect(await page.locator('.crawl-pages-table tbody tr').count()).toBe(30);

    // An already monitored page is marked so and offers no checkbox.
    expect(await text(row(page, '/pricing'))).toMatch(/Pricing.*Already monitored/);
    expect(await row(page, '/pricing').getByRole('checkbox').count()).toBe(0);
    expect(await text(row(page, '/old-page'))).toMatch(/Old page.*noindex/);
    expect(await cells(row(page, '/blog/first-post'))).toEqual([
      'Select First post (/blog/first-post)',
      `First post${site.origin}/blog/first-post`,
      '2',
      'Link',
      'indexable',
      'No',
    ]);

    // 20 a page: two pages of results. "Select all" takes the pages shown, except the monitored one.
    await page.getByLabel('Rows per page').selectOption('20');
    await page.waitForURL(/\/crawls\/[0-9a-f-]{36}\?per_page=20$/);
    await page.getByText(/Page 1 of 2/).waitFor();
    expect(await page.locator('.crawl-pages-table tbody tr').count()).toBe(20);
    await page.getByRole('checkbox', { name: 'Select all 19 pages shown' }).check();
    expect(await text(selectionCount(page))).toBe('19 pages selected');
    expect(await page.locator('.crawl-pages-table tbody input:checked').count()).toBe(19);
    await page.getByRole('button', { name: 'Clear selection' }).click();
    expect(await text(selectionCount(page))).toBe('0 pages selected');
    await page
      .getByRole('navigation', { name: 'Pages of the crawl’s pages' })
      .getByRole('button', { name: 'Next page' })
      .click();
    await page.waitForURL(/\?page=2&per_page=20$/);
    await page.getByText(/Page 2 of 2/).waitFor();
    expect(await page.locator('.crawl-pages-table tbody tr').count()).toBe(10);
    await page
      .getByRole('navigation', { name: 'Pages of the crawl’s pages' })
      .getByRole('button', { name: 'Previous page' })
      .click();
    await page.waitForURL(/\?per_page=20$/);
    await page.getByText(/Page 1 of 2/).waitFor();

    // By keyboard: a path prefix and Enter select every page of the crawl under it, on either page of results.
    await page.getByLabel('Select by path').focus();
    await page.keyboard.type('/blog/');
    await page.keyboard.press('Enter');
    await page.getByText('Selected 3 pages whose path starts with /blog/.').waitFor();
    expect(await text(selectionCount(page))).toBe('3 pages selected');
    // And one more, by Space on its checkbox.
    const about = page.getByRole('checkbox', { name: 'Select About us (/about)' });
    await about.focus();
    await page.keyboard.press('Space');
    expect(await about.isChecked()).toBe(true);
    expect(await text(selectionCount(page))).toBe('4 pages selected');
    expect(await page.getByRole('checkbox', { name: 'Select Blog (/blog/)' }).isChecked()).toBe(true);
    await expectNoAxeViolations(page, 'a crawl with pages selected');
    await screenshot(page, 'crawl.png');

    // Meanwhile someone else monitors the second post: it is skipped, and said so.
    const second = await person.session.post('/monitors', {
      name: 'Second post',
      url: `${site.origin}/blog/second-post`,
      interval_seconds: 86_400,
    });
    expect(second.status).toBe(201);

    // An interval the API refuses: its message at the field. Then a good one, and Tab to the button, by keyboard.
    const interval = page.getByLabel(/^Check every \(seconds\)/);
    await interval.focus();
    await page.keyboard.type('10');
    await page.keyboard.press('Enter');
    await page.locator('#monitor-interval-error').waitFor();
    expect(await interval.getAttribute('aria-invalid')).toBe('true');
    expect(await text(page.locator('.crawl-create [role="alert"]'))).toMatch(/No monitors were created.*HTTP 400/);
    await interval.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('600');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create monitors');
    await page.keyboard.press('Enter');

    const result = page.locator('.crawl-result .alert');
    await result.waitFor();
    expect(await text(result.locator('.alert-title'))).toBe('Created 3 monitors; skipped 1 page already monitored.');
    expect(await result.locator('.created-list li').allInnerTexts()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^About us .*\/about, every 10 minutes$/),
        expect.stringMatching(/^Blog .*\/blog\/, every 10 minutes$/),
        expect.stringMatching(/^First post .*\/blog\/first-post, every 10 minutes$/),
      ]),
    );
    expect(await result.locator('.skipped-urls li').allInnerTexts()).toEqual([`${site.origin}/blog/second-post`]);
    expect(await text(selectionCount(page))).toBe('0 pages selected');
    await row(page, '/about').getByText('Already monitored').waitFor();
    expect(await row(page, '/about').getByRole('checkbox').count()).toBe(0);
    await expectNoAxeViolations(page, 'a crawl after creating monitors');

    // The monitors exist, with the interval chosen, named after their pages.
    const monitors = (await person.session.get('/monitors', { query: { per_page: 100 } })).body.data as {
      name: string;
      url: string;
      interval_seconds: number;
    }[];
    const made = monitors.filter((monitor) => monitor.interval_seconds === 600);
    expect(
      made.map(({ name, url: address }) => ({ name, url: address })).sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual([
      { name: 'About us', url: `${site.origin}/about` },
      { name: 'Blog', url: `${site.origin}/blog/` },
      { name: 'First post', url: `${site.origin}/blog/first-post` },
    ]);
    await result.getByRole('link', { name: 'First post' }).click();
    await page.getByRole('heading', { name: 'First post', level: 1 }).waitFor();
    await nav(page, 'Monitors').click();
    await page.getByRole('link', { name: 'About us' }).waitFor();
  }, 120_000);

  it('cancels a running crawl; the list shows crawls newest first', async () => {
    await nav(page, 'Crawl').click();
    await page.getByRole('heading', { name: 'Crawl', level: 1 }).waitFor();
    await page.getByLabel('Start URL').fill(`${site.origin}/slow/`);
    await page.getByLabel(/^Include/).fill('/slow/**');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await page.waitForURL(
      (next) => /^\/crawls\/[0-9a-f-]{36}$/.test(next.pathname) && !next.pathname.endsWith(crawlId),
    );
    const slowId = page.url().split('/').pop()!;
    await page.getByRole('button', { name: 'Cancel crawl' }).click();
    await page.locator('.check-badges', { hasText: 'Crawl: Cancelled' }).waitFor();
    expect(await text(page.locator('.alert-warning'))).toMatch(/Cancelled\. It was cancelled; the pages found/);
    expect(await page.getByRole('button', { name: 'Cancel crawl' }).count()).toBe(0);
    expect((await person.session.get(`/crawl/${slowId}`)).body.status).toBe('cancelled');

    await nav(page, 'Crawl').click();
    await page.locator(`tr[data-crawl-id="${slowId}"]`).waitFor();
    expect(
      await page.locator('tbody tr').evaluateAll((rows) => rows.map((item) => item.getAttribute('data-crawl-id'))),
    ).toEqual([slowId, crawlId]);
    expect(await text(page.locator(`tr[data-crawl-id="${slowId}"]`))).toMatch(/Crawl: Cancelled/);
  }, 60_000);

  it('at 390 px nothing scrolls sideways; a viewer reads crawls and their pages but cannot act, and is told why', async () => {
    const phone = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await phone.newPage();
      await tab.goto(url(`/crawls/${crawlId}`));
      await signInThroughForm(tab, person.email, person.password);
      await tab.getByRole('heading', { name: 'Pages (30)' }).waitFor();
      await tab.getByLabel('Select by path').fill('/archive/');
      await tab.getByRole('button', { name: 'Select matching pages' }).click();
      await tab.getByText('Selected 23 pages whose path starts with /archive/.').waitFor();
      await expectFitsPhone(tab, 'a crawl with pages selected');
      await expectNoAxeViolations(tab, 'a crawl at 390 px');
      await tab.goto(url('/crawls'));
      await tab.locator(`tr[data-crawl-id="${crawlId}"]`).waitFor();
      await expectFitsPhone(tab, 'crawls');
      await expectNoAxeViolations(tab, 'crawls at 390 px');
    } finally {
      await phone.close();
    }

    const viewer = await newContext(browser, { viewport: { width: 390, height: 844 } });
    try {
      const tab = await signedInPage(viewer, url('/sign-in'), onlooker.email, onlooker.password);
      await tab.getByLabel('Workspace', { exact: true }).selectOption({ index: 1 });
      await tab.getByRole('button', { name: 'Switch workspace' }).click();
      await tab.getByText(/^You are now in the workspace .* \(your role: viewer\)/).waitFor();
      await nav(tab, 'Crawl').click();
      await tab.locator(`tr[data-crawl-id="${crawlId}"]`).waitFor();
      expect(await text(tab.locator('.alert-info'))).toMatch(
        /You are a viewer of .*: you can read crawls and the pages they found, but only a member or admin can start one/,
      );
      expect(await tab.getByRole('button', { name: 'Start crawl' }).count()).toBe(0);
      await tab.getByRole('link', { name: `${site.origin}/`, exact: true }).click();
      await tab.getByRole('heading', { name: 'Pages (30)' }).waitFor();
      expect(await text(tab.locator('.crawl-pages .alert-info'))).toMatch(
        /You are a viewer of .*: you can read the pages this crawl found, but only a member or admin can create monitors/,
      );
      expect(await text(row(tab, '/about'))).toMatch(/About us.*Already monitored/);
      expect(await tab.getByRole('checkbox').count()).toBe(0);
      expect(
        await tab.getByRole('button', { name: /Create monitors|Select matching pages|Cancel crawl/ }).count(),
      ).toBe(0);
      await expectFitsPhone(tab, 'a crawl (viewer)');
      await expectNoAxeViolations(tab, 'a crawl (viewer) at 390 px');
    } finally {
      await viewer.close();
    }
  }, 90_000);

  it('no page broke the Content-Security-Policy: no inline script or style was refused', () => {
    expect(cspViolations).toEqual([]);
  });
});
