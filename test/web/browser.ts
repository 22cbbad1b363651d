import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import { captureBrowserArgs, FULL_CHROMIUM_PATH } from '../../libs/capture';
import { ROOT } from './web-build';

/*
 * What the web tests share: Debian's Chromium, contexts that record any Content-Security-Policy violation, the axe
 * check (WCAG 2 A/AA, 2.1 AA), the phone-width check and the README's screenshots.
 */

// The README's screenshots, taken only when refreshed with SAVE_SCREENS=1: no test reads them.
const SCREENS = process.env.SAVE_SCREENS === '1' ? join(ROOT, 'docs', 'screens') : null;
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'];

/**
 * The capture engine's switches (no GPU, no QUIC, and none of the browser window's omnibox pop-ups, which Chromium
 * otherwise loads in a renderer of their own for every context: an eighth of the browser's CPU over these tests),
 * and those of a browser nobody set up.
 */
export async function launchBrowser(): Promise<Browser> {
  if (SCREENS) mkdirSync(SCREENS, { recursive: true });
  return chromium.launch({
    executablePath: FULL_CHROMIUM_PATH,
    args: captureBrowserArgs([
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ]),
  });
}

/** Every Content-Security-Policy violation any page of these contexts reported. */
export const cspViolations: string[] = [];

/** A browser context whose CSP violations are recorded in `cspViolations`. */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const phone = (options.viewport?.width ?? 1440) <= 390;
  const context = await browser.newContext({ ...(phone ? { isMobile: true, hasTouch: true } : {}), ...options });
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text()))
      cspViolations.push(`${message.page()?.url()}: ${message.text()}`);
  });
  return context;
}

let axeSource: string | undefined;

/**
 * axe-core's minified build (the capture engine's), loaded into a page when it is first checked: evaluated through
 * the DevTools protocol, it is not subject to the page's CSP, so the interface's strict policy stays on. Loading it
 * into every document from the start cost the browser a parse of 1.5 MB per navigation, checked or not.
 */
async function loadAxe(page: Page): Promise<void> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (await page.evaluate(() => (window as { axe?: unknown }).axe === undefined)) await page.evaluate(axeSource);
}

export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  await loadAxe(page);
  const violations: { id: string; help: string; nodes: string[] }[] = await page.evaluate(async (tags) => {
    const result = await (window as any).axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return result.violations.map((violation: any) => ({
      id: violation.id,
      help: violation.help,
      nodes: violation.nodes.map((node: any) => `${node.target.join(' ')}: ${node.failureSummary}`),
    }));
  }, AXE_TAGS);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

/** An element's text as read aloud (visually hidden parts included), whitespace collapsed. */
export async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

export const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  if (SCREENS) await page.screenshot({ path: join(SCREENS, name), fullPage });
}

/** The page is no wider than a 390 px phone: nothing scrolls sideways. */
export async function expectFitsPhone(tab: Page, label: string): Promise<void> {
  const width = await tab.evaluate(() => document.documentElement.scrollWidth);
  expect({ page: label, width }).toEqual({ page: label, width: 390 });
}

export async function signInThroughForm(target: Page, email: string, password: string): Promise<void> {
  await target.getByLabel('Email').fill(email);
  await target.getByLabel('Password').fill(password);
  await target.getByRole('button', { name: 'Sign in' }).click();
  await target.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** A new page of `context`, signed in through the sign-in form at `signInUrl`. */
export async function signedInPage(
  context: BrowserContext,
  signInUrl: string,
  email: string,
  password: string,
): Promise<Page> {
  const page = await context.newPage();
  await page.goto(signInUrl);
  await signInThroughForm(page, email, password);
  return page;
}

/** Switches a signed-in page to the workspace where the person is a viewer, through the header's switcher. */
export async function switchToViewerWorkspace(tab: Page): Promise<void> {
  const shared = await tab.locator('#workspace-switch option', { hasText: '(viewer)' }).getAttribute('value');
  await tab.getByLabel('Workspace', { exact: true }).selectOption(shared);
  await tab.getByRole('button', { name: 'Switch workspace' }).click();
  await tab.getByText(/^You are now in the workspace .* \(your role: viewer\)/).waitFor();
}
