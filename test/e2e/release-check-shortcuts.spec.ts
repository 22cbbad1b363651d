import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { waitForCollection } from '../support/release-checks';
import { FILE_REDIS_PREFIX, startTestApp, type TestApp } from '../support/test-app';
import { FULL_CHROMIUM_PATH, HEADLESS_SHELL_PATH } from '../../libs/capture';
import { compareScreenshots } from '../../libs/compare';
import { page, TestSite } from '../support/test-site';
import { CaptureEngineProvider } from '../../src/capture/capture-engine.provider';
import { CollectionShortcuts } from '../../src/release-checks/collection/collection-shortcuts';

/**
 * The collection's shortcuts never change the evidence: the same release check is collected with them on and off, and
 * every record, file (screenshots, text, diff images), finding and comparison must be the same.
 */
describe('release-check shortcuts give exactly the evidence of a full run', () => {
  let service: TestApp;
  let site: TestSite;
  let ci: IssuedKey;

  /** Pages with findings of several kinds; the same document on both sides unless a pair changes it. */
  const body = (heading: string, extra = '') =>
    `<h1>${heading}</h1>
     <p style="color: #aaa">Low contrast copy.</p>
     <img src="/missing.png" width="60" height="30">
     <a href="/next"></a>
     <form><input name="email"></form>
     ${extra}
     ${'<p>More copy, so the page is taller than the mobile viewport.</p>'.repeat(25)}`;

  beforeAll(async () => {
    site = await new TestSite().start();
    // Identical on both sides: one scan may serve both.
    site.set('/prod/pricing', page({ body: body('Pricing'), robots: 'index, follow' }));
    site.set('/preview/pricing', page({ body: body('Pricing'), robots: 'index, follow' }));
    site.set('/prod/about', page({ title: 'About', body: body('About us', '<button></button>') }));
    site.set('/preview/about', page({ title: 'About', body: body('About us', '<button></button>') }));
    // Different on preview: a changed word, a new finding, a taller page, a different canonical.
    site.set('/prod/plans', page({ title: 'Plans', body: body('Plans') }));
    site.set(
      '/preview/plans',
      page({ title: 'Plans', body: body('Our plans', '<img src="/new.png" width="80" height="80">') }),
    );
    // Different in one word of the heading: the screenshots keep their size and differ in a few rows.
    site.set('/prod/team', page({ title: 'Team', body: body('Our team') }));
    site.set('/preview/team', page({ title: 'Team', body: body('Our crew') }));
    site.set('/prod/contact', page({ title: 'Contact', body: body('Contact'), canonical: '/contact' }));
    site.set('/preview/contact', page({ title: 'Contact', body: body('Contact'), canonical: '/contact-us' }));

    service = await startTestApp();
    const person = await createAccount(new ApiClient(service.baseUrl));
    ci = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(service.baseUrl));
    await admin.put(`/admin/api-keys/${ci.id}/rate-limit`, { requests_per_minute: 100_000 });
  });

  afterAll(async () => {
    await service.close();
    await site.stop();
  });

  async function collect(
    label: string,
    client = ci.client,
    paths = ['/pricing', '/about', '/plans', '/team', '/contact'],
  ): Promise<any> {
    const created = await client.post('/release-checks', {
      name: `shortcuts ${label}`,
      production_url: `${site.origin}/prod`,
      preview_url: `${site.origin}/preview`,
      request_key: `shortcuts-${label}-${Date.now()}`,
      pages: paths.map((path) => ({
        production_path: path,
        preview_path: path,
      })),
      viewports: ['desktop', 'mobile'],
    });
    expect(created.status).toBe(201);
    return waitForCollection(client, created.body.id);
  }

  /** A file of the check's artifact, as bytes (the test client reads bodies as text). */
  async function file(url: string | null): Promise<Buffer | null> {
    if (url === null) return null;
    const response = await fetch(`${service.baseUrl}${url}`, { headers: { 'X-API-Key': ci.secret } });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  /** An image file by its SHA-256: jest compares a Buffer byte by byte, seconds for a full-page PNG. */
  async function imageDigest(url: string | null): Promise<string | null> {
    const bytes = await file(url);
    return bytes && createHash('sha256').update(bytes).digest('hex');
  }

  /** Everything an artifact holds, files included, with what names this check or when it ran left out. */
  async function evidenceOf(artifact: any): Promise<Record<string, unknown>> {
    const side = async (record: any) => ({
      ...record,
      captured_at: 'when',
      screenshot_url: await imageDigest(record.screenshot_url),
      text_url: (await file(record.text_url))?.toString('utf8'),
    });
    const { screenshot } = artifact.comparison;
    return {
      ...artifact,
      id: 'artifact',
      production: await side(artifact.production),
      preview: await side(artifact.preview),
      comparison: {
        ...artifact.comparison,
        screenshot: { ...screenshot, diff_url: await imageDigest(screenshot.diff_url) },
      },
    };
  }

  // Two whole collections each, captured in the browser: 20-30 s each on an idle machine, up to 170 s a test in a whole
  // run on two slow cores; seven minutes, three for each collection (waitForCollection's default), allow for it.
  it('shares scans between identical documents and records the same evidence as scanning every page', async () => {
    const engine = service.app.get(CaptureEngineProvider).engine;
    const shortcuts = service.app.get(CollectionShortcuts);

    const sharedBefore = engine.scansShared();
    const withShortcuts = await collect('on');
    const shared = engine.scansShared() - sharedBefore;

    Object.assign(shortcuts, { shareScans: false, onlyChangedRows: false });
    try {
      const sharedBeforeFull = engine.scansShared();
      const full = await collect('off');
      expect(engine.scansShared() - sharedBeforeFull).toBe(0);

      // Two identical pairs at two viewports.
      expect(shared).toBe(4);
      for (const check of [withShortcuts, full]) {
        expect(check).toMatchObject({
          collection_status: 'completed',
          summary: { pairs: 10, captured: 10, missing: 0, with_differences: 6 },
        });
      }
      expect(withShortcuts.summary).toEqual(full.summary);
      expect(withShortcuts.artifacts.length).toBe(full.artifacts.length);
      for (let index = 0; index < full.artifacts.length; index++) {
        const [ours, theirs] = await Promise.all([
          evidenceOf(withShortcuts.artifacts[index]),
          evidenceOf(full.artifacts[index]),
        ]);
        expect(ours).toEqual(theirs);
      }
      // The comparison found what the pages differ in.
      const plans = full.artifacts.find((artifact: any) => artifact.production_path === '/plans');
      expect(plans.comparison).toMatchObject({ has_differences: true, text: { changed: true } });
      expect(plans.comparison.findings.new.length).toBeGreaterThan(0);
      const team = full.artifacts.find((artifact: any) => artifact.production_path === '/team');
      expect(team.comparison.screenshot).toMatchObject({ changed: true, diff_url: expect.any(String) });
    } finally {
      Object.assign(shortcuts, { shareScans: true, onlyChangedRows: true });
    }
  }, 420_000);

  it('gives evidence of the same kind on the headless shell and on the full Chromium', async () => {
    // The service above captures on the headless shell (the default); a second one, with its own queues, on the full
    // browser. Each collects both sides of every pair on its one browser.
    expect(service.config.chromiumPath).toBe(HEADLESS_SHELL_PATH);
    const full = await startTestApp({ CHROMIUM_PATH: FULL_CHROMIUM_PATH, REDIS_PREFIX: `${FILE_REDIS_PREFIX}:full` });
    // Two of bench:release's anchor pages (a longer list, and one unchanged), and two of the pages above for a changed
    // word with a new finding, and a canonical link.
    for (const [path, html] of Object.entries(anchorPages([2, 4]))) site.set(path, html);
    const paths = ['/page-2', '/page-4', '/plans', '/contact'];
    try {
      const onShell = await collect('shell', ci.client, paths);
      const onFull = await collect('full', new ApiClient(full.baseUrl).withApiKey(ci.secret), paths);
      expect(onFull.summary).toEqual(onShell.summary);
      let largest = { ratio: 0, at: 'none' };
      for (let index = 0; index < onShell.artifacts.length; index++) {
        const [shell, chromium] = [onShell.artifacts[index], onFull.artifacts[index]];
        expect(`${chromium.production_path} ${chromium.viewport}`).toBe(`${shell.production_path} ${shell.viewport}`);
        for (const side of ['production', 'preview'] as const) {
          const kind = (record: any) => ({
            robots: record.robots,
            canonical: record.canonical,
            required_selector_found: record.required_selector_found,
            findings: record.findings,
          });
          expect(kind(chromium[side])).toEqual(kind(shell[side]));
          const [shellText, fullText] = await Promise.all([file(shell[side].text_url), file(chromium[side].text_url)]);
          expect(fullText?.toString('utf8')).toBe(shellText?.toString('utf8'));
          const [shellPng, fullPng] = await Promise.all([
            file(shell[side].screenshot_url),
            file(chromium[side].screenshot_url),
          ]);
          const { mismatch_ratio: ratio } = await compareScreenshots(shellPng!, fullPng!);
          if (ratio >= largest.ratio) largest = { ratio, at: `${side} ${shell.production_path} ${shell.viewport}` };
        }
        expect(chromium.comparison.has_differences).toBe(shell.comparison.has_differences);
      }
      console.log(`largest pixel mismatch between the two builds: ${largest.ratio} (${largest.at})`);
      expect(largest.ratio).toBeLessThan(0.001);
    } finally {
      await full.close();
    }
  }, 420_000);
});

/** The bench's page fixture (bench/release/pages.mjs, an ES module), rendered by Node for these page numbers. */
function anchorPages(numbers: number[]): Record<string, string> {
  const script = `
    const { pageHtml } = await import(${JSON.stringify(join(__dirname, '../../bench/release/pages.mjs'))});
    const pages = {};
    for (const n of ${JSON.stringify(numbers)}) {
      pages['/prod/page-' + n] = pageHtml(n, 'prod');
      pages['/preview/page-' + n] = pageHtml(n, 'preview');
    }
    process.stdout.write(JSON.stringify(pages));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return JSON.parse(output) as Record<string, string>;
}
