import { MOVING_PAGES, REAL_CHANGES, startMovingSite, type MovingSite } from './moving-site';

// Pages whose HTML the server renders differently per request; every other page is byte-identical between
// two deployments of the same version.
const SERVER_VOLATILE = new Set(['/server-time']);

async function get(site: MovingSite, path: string): Promise<{ status: number; type: string; body: Buffer }> {
  const response = await fetch(site.url + path);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: Buffer.from(await response.arrayBuffer()),
  };
}

describe('moving site', () => {
  let productionA: MovingSite;
  let productionB: MovingSite;
  let changed: MovingSite;

  beforeAll(async () => {
    [productionA, productionB, changed] = await Promise.all([
      startMovingSite(),
      startMovingSite({ version: 'production' }),
      startMovingSite({ version: 'changed' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([productionA?.close(), productionB?.close(), changed?.close()]);
  });

  it('listens on distinct origins without a trailing slash and reports its version', () => {
    const origins = [productionA.url, productionB.url, changed.url];
    for (const origin of origins) expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set(origins).size).toBe(3);
    expect(productionA.version).toBe('production');
    expect(changed.version).toBe('changed');
  });

  it('serves every page as an HTML5 document from every site, uncached', async () => {
    expect(new Set(MOVING_PAGES.map((page) => page.path)).size).toBe(MOVING_PAGES.length);
    for (const site of [productionA, productionB, changed]) {
      for (const { path } of MOVING_PAGES) {
        const response = await fetch(site.url + path);
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(response.headers.get('cache-control')).toBe('no-store');
        const html = await response.text();
        expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
        expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
        expect(html).toContain('<main id="content">');
        // No external URLs: everything the page loads comes from the same server.
        expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
      }
    }
  });

  it('renders /server-time anew on every request', async () => {
    const first = (await get(productionA, '/server-time')).body.toString();
    const second = (await get(productionA, '/server-time')).body.toString();
    expect(first).toMatch(/Rendered at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);
    expect(first).toMatch(/Request \d{6}\b/);
    expect(second).not.toBe(first);
  });

  it('serves byte-identical HTML from two production deployments on pages without server-side volatility', async () => {
    for (const { path } of MOVING_PAGES) {
      if (SERVER_VOLATILE.has(path)) continue;
      const [a, b] = await Promise.all([get(productionA, path), get(productionB, path)]);
      expect({ path, same: a.body.equals(b.body) }).toEqual({ path, same: true });
    }
  });

  it('serves images, the promotion and a 404 page', async () => {
    const image = await get(productionA, '/img/team.png');
    expect(image.status).toBe(200);
    expect(image.type).toBe('image/png');
    expect(image.body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // The /testimonials change removes an alt, not pixels; the far lazy image does change.
    expect((await get(changed, '/img/team.png')).body.equals(image.body)).toBe(true);
    expect(
      (await get(changed, '/img/lookbook-4.png')).body.equals((await get(productionA, '/img/lookbook-4.png')).body),
    ).toBe(false);

    const promo = await fetch(`${productionA.url}/api/promo`);
    expect(promo.headers.get('content-type')).toBe('application/json');
    expect(await promo.json()).toEqual({ title: expect.any(String), text: expect.stringContaining('15%') });

    const missing = await get(productionA, '/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.type).toMatch(/^text\/html/);
  });

  it('serves a different web font per version, after a delay', async () => {
    const started = Date.now();
    const [production, preview] = await Promise.all([
      get(productionA, '/fonts/display.ttf'),
      get(changed, '/fonts/display.ttf'),
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
    expect(production.status).toBe(200);
    expect(production.type).toBe('font/ttf');
    expect(production.body.length).toBeGreaterThan(10_000);
    expect(preview.body.length).toBeGreaterThan(10_000);
    expect(production.body.equals(preview.body)).toBe(false);
  });

  it('changes what /ab serves when deployed, at the same URL', async () => {
    const site = await startMovingSite();
    try {
      const url = site.url;
      expect((await get(site, '/ab')).body.toString()).toContain('<link rel="canonical" href="/ab">');
      site.deploy('changed');
      expect(site.version).toBe('changed');
      expect(site.url).toBe(url);
      expect((await get(site, '/ab')).body.toString()).toContain('<link rel="canonical" href="/ab-new">');
      site.deploy('production');
      expect((await get(site, '/ab')).body.toString()).toContain('<link rel="canonical" href="/ab">');
    } finally {
      await site.close();
    }
  });

  it('counts requests per path, without the query string', async () => {
    const site = await startMovingSite();
    try {
      expect(site.requests('/price')).toBe(0);
      await get(site, '/price');
      await get(site, '/price?utm_source=test');
      await get(site, '/');
      expect(site.requests('/price')).toBe(2);
      expect(site.requests('/')).toBe(1);
      expect(site.requests('/clock')).toBe(0);
    } finally {
      await site.close();
    }
  });

  it('closes promptly with a keep-alive connection open and a delayed response pending', async () => {
    const site = await startMovingSite();
    await get(site, '/');
    const pending = fetch(`${site.url}/fonts/display.ttf`);
    pending.catch(() => undefined); // asserted below
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await site.close();
    expect(Date.now() - started).toBeLessThan(500);
    await expect(pending).rejects.toThrow('fetch failed');
    await site.close(); // a second close does nothing
  });

  it('lists real changes only for pages the site has, and only the documented dimensions', () => {
    const paths = new Set(MOVING_PAGES.map((page) => page.path));
    for (const change of REAL_CHANGES) {
      expect(paths).toContain(change.path);
      expect(change.dimensions.length).toBeGreaterThan(0);
      for (const dimension of change.dimensions) {
        expect(['text', 'screenshot', 'findings', 'robots', 'canonical']).toContain(dimension);
      }
    }
  });

  it('differs from production in the HTML exactly where the change is in the HTML', async () => {
    const html = async (site: MovingSite, path: string): Promise<string> => (await get(site, path)).body.toString();
    expect(await html(changed, '/clock')).toContain('Orders placed before 16:00');
    expect(await html(productionA, '/clock')).toContain('Orders placed before 14:00');
    expect(await html(productionA, '/testimonials')).toMatch(/<img class="team"[^>]* alt="/);
    expect(await html(changed, '/testimonials')).not.toMatch(/<img class="team"[^>]* alt=/);
    expect(await html(productionA, '/carousel')).toContain('#1a5fb4; border: 0');
    expect(await html(changed, '/carousel')).toContain('#c01c28; border: 0');
    expect(await html(changed, '/server-time')).toContain('<meta name="robots" content="noindex">');
    expect(await html(productionA, '/server-time')).not.toContain('name="robots"');
    for (const path of ['/', '/spinner', '/canvas', '/banner', '/font', '/lazy', '/promo', '/price']) {
      expect({ path, same: await html(changed, path) }).toEqual({ path, same: await html(productionA, path) });
    }
  });
});
