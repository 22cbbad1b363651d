import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { TestCertificateAuthority } from '../../test/support/test-certificates';
import { TestSite } from '../../test/support/test-site';
import { flattenResults } from './axe';
import { normalizeText } from './capture-page';
import {
  CaptureEngine,
  CaptureInfrastructureError,
  DEFAULT_CHROMIUM_PATH,
  type CapturedPage,
  type CaptureOutcome,
  type CaptureRequest,
  type CaptureResult,
  type MissingEvidence,
} from './index';

// Real Chromium against local servers: 127.0.0.1 plays the sites; 127.0.0.2 plays an internal service that
// guarded captures must never reach.

const html = (body: string, head = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1"><title>Test page</title>${head}</head>` +
  `<body>${body}</body></html>`;

interface PrivateServiceLog {
  requests: string[];
  upgrades: string[];
}

let site: Server;
let privateService: Server;
let sitePort: number;
let privatePort: number;
const privateLog: PrivateServiceLog = { requests: [], upgrades: [] };
const heldResponses = new Set<ServerResponse>();
const siteUpgrades: string[] = [];
/** Paths whose next requests the site leaves unanswered (a capture stays in flight), telling the test of each. */
const holds = new Map<string, { remaining: number; onArrival: () => void }>();

/** Holds the next `times` requests of `path`, calling `onArrival` as each comes. */
function hold(path: string, onArrival: () => void, times = 1): void {
  holds.set(path, { remaining: times, onArrival });
}

function siteUrl(path: string): string {
  return `http://127.0.0.1:${sitePort}${path}`;
}

function privateUrl(path: string): string {
  return `http://127.0.0.2:${privatePort}${path}`;
}

function sendHtml(res: ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
}

function handleSite(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://site').pathname;
  const held = holds.get(path);
  if (held && held.remaining > 0) {
    held.remaining -= 1;
    heldResponses.add(res);
    held.onArrival();
    return;
  }
  switch (path) {
    case '/crash/a':
    case '/crash/b':
    case '/crash/always':
      return sendHtml(res, html(`<main><h1>Survived</h1><p>${path}</p></main>`));
    case '/crash/settle':
      return sendHtml(
        res,
        html(
          `<main><h1>Settling</h1></main><script>
            fetch('/crash/settle-data').then((r) => r.json()).then((data) => document.querySelector('main').append(data.text));
          </script>`,
        ),
      );
    case '/crash/settle-data':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: 'Data arrived' }));
      return;
    case '/normal':
      return sendHtml(
        res,
        html(
          `<main id="content"><h1>Release notes</h1><p>Version 2 is out.   </p>` +
            `<img id="hero" src="/pixel.png" width="40" height="40"></main>`,
          `<meta name="ROBOTS" content=" noindex, follow "><link rel="Canonical" href="/canonical-target">`,
        ),
      );
    case '/pixel.png':
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from(ONE_PIXEL_PNG, 'base64'));
      return;
    case '/plain':
      return sendHtml(res, html('<main><h1>Plain</h1><p>No robots, no canonical.</p></main>'));
    case '/not-found':
      return sendHtml(res, html('<h1>Not found</h1>'), 404);
    case '/animated':
      return sendHtml(
        res,
        html(
          `<main><h1>Spinner</h1><div class="box"></div><div class="fade">Fading</div></main>`,
          `<style>
            @keyframes move { from { transform: translateX(0) } to { transform: translateX(600px) rotate(180deg) } }
            @keyframes blink { 0% { opacity: 1 } 50% { opacity: 0 } }
            .box { width: 80px; height: 80px; background: #c33; animation: move 0.7s linear infinite; }
            .fade { animation: blink 0.3s step-end infinite; transition: color 2s; }
          </style>`,
        ),
      );
    case '/random':
      return sendHtml(
        res,
        html(`<main><h1>Dashboard</h1><p id="stamp">${Math.random()}</p><p id="other">${Date.now()}</p></main>`),
      );
    case '/redirect-to-normal':
      res.writeHead(302, { location: '/normal' });
      res.end();
      return;
    case '/redirect-to-private':
      res.writeHead(302, { location: privateUrl('/secret') });
      res.end();
      return;
    case '/redirect-to-localhost':
      res.writeHead(301, { location: `http://localhost:${sitePort}/normal` });
      res.end();
      return;
    case '/script-navigates-to-private':
      return sendHtml(
        res,
        html(`<p>Leaving</p><script>location.href = ${JSON.stringify(privateUrl('/js'))};</script>`),
      );
    case '/private-subresources':
      return sendHtml(
        res,
        html(
          `<main><h1>Embeds</h1><img src="${privateUrl('/img.png')}" alt="internal">` +
            `<iframe title="internal" src="${privateUrl('/frame')}"></iframe></main>` +
            `<script>
              fetch(${JSON.stringify(privateUrl('/fetch'))}, { mode: 'no-cors' }).catch(() => {});
              navigator.sendBeacon(${JSON.stringify(privateUrl('/beacon'))}, 'x');
              try { new WebSocket(${JSON.stringify(privateUrl('/ws').replace('http', 'ws'))}); } catch {}
              new WebSocket(${JSON.stringify(siteUrl('/ws-allowed').replace('http', 'ws'))});
            </script>`,
        ),
      );
    case '/strict-csp':
      // No script of the page's own may run here, and none injected as a <script> either.
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'self'; script-src 'none'; style-src 'none'",
      });
      res.end(html(`<main><h1>Locked down</h1><img id="strict" src="/pixel.png" width="4" height="4"></main>`));
      return;
    case '/own-axe':
      return sendHtml(
        res,
        html(
          `<main><h1>Ships its own axe</h1><img id="own" src="/pixel.png" width="4" height="4"></main>` +
            // It also has an AMD loader, and reports on its globals once a request answers 400 ms after load, by
            // when the capture has loaded its own axe-core into the page (during the network settle).
            `<script>
              const fake = { version: '0.0.0', run: () => Promise.resolve({ testEngine: { version: '0.0.0' }, violations: [] }) };
              window.axe = fake;
              const defined = [];
              window.define = (name) => defined.push(name);
              window.define.amd = {};
              fetch('/delayed-json').then(() => {
                const state = window.axe === fake ? 'own axe intact' : 'own axe replaced';
                document.querySelector('main').append(state + ', define calls: ' + defined.length);
              });
            </script>`,
        ),
      );
    case '/moves-on':
      // Replaces itself with /normal once a request started while loading answers, 400 ms later: after load,
      // while the capture waits for the network to settle (the request keeps it waiting, so no timer can be late).
      return sendHtml(
        res,
        html(`<p>Moving</p><script>fetch('/delayed-json').then(() => location.replace('/normal'));</script>`),
      );
    case '/with-frame':
      return sendHtml(
        res,
        html(`<main><h1>Outer</h1><iframe id="inner" title="Inner" src="/frame-child"></iframe></main>`),
      );
    case '/frame-child':
      return sendHtml(res, html(`<p>Inside</p><img id="in-frame" src="/pixel.png" width="4" height="4">`));
    case '/late-content':
      // A request that the page starts while loading and that answers 400 ms later, after the load event: the
      // capture waits for it. (Started by the parser, not a timer, so a busy machine cannot delay its start.)
      return sendHtml(
        res,
        html(
          `<main><h1>Feed</h1></main><script>
            fetch('/delayed-json').then((r) => r.json()).then((data) => document.querySelector('main').append(data.text));
          </script>`,
        ),
      );
    case '/delayed-json':
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ text: 'Late news arrived' }));
      }, 400);
      return;
    case '/slow':
    case '/hang':
      heldResponses.add(res); // answered only when the test server shuts down
      return;
    case '/pending-fetch':
      return sendHtml(res, html(`<p>Polling</p><script>fetch('/hang').catch(() => {});</script>`));
    default:
      return sendHtml(res, html('<h1>Unknown</h1>'), 404);
  }
}

const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function expectCaptured(result: CaptureResult): CapturedPage {
  if (!result.ok) throw new Error(`expected a captured page, got ${result.reason}: ${result.message}`);
  return result;
}

function expectMissing(result: CaptureResult): MissingEvidence {
  if (result.ok) throw new Error(`expected missing evidence, got a captured page of ${result.final_url}`);
  expect(result).not.toHaveProperty('screenshot');
  expect(result).not.toHaveProperty('findings');
  return result;
}

beforeAll(async () => {
  site = createServer(handleSite);
  privateService = createServer((req, res) => {
    privateLog.requests.push(req.url ?? '');
    sendHtml(res, html('<h1>Internal admin</h1>'));
  });
  site.on('upgrade', (req: IncomingMessage, socket: { destroy(): void }) => {
    siteUpgrades.push(req.url ?? '');
    socket.destroy();
  });
  privateService.on('upgrade', (req: IncomingMessage, socket: { destroy(): void }) => {
    privateLog.upgrades.push(req.url ?? '');
    socket.destroy();
  });
  sitePort = await listen(site, '127.0.0.1');
  privatePort = await listen(privateService, '127.0.0.2');
});

afterAll(async () => {
  for (const res of heldResponses) res.destroy();
  await Promise.all([closeServer(site), closeServer(privateService)]);
});

describe('CaptureEngine with private targets allowed', () => {
  let engine: CaptureEngine;

  beforeAll(() => {
    engine = new CaptureEngine({ allowPrivateTargets: true });
  });

  afterAll(async () => {
    await engine.close();
  });

  it.concurrent('captures text, robots, canonical, a desktop screenshot and axe findings', async () => {
    const page = expectCaptured(await engine.capture({ url: siteUrl('/normal'), viewport: 'desktop' }));
    expect(page).toMatchObject({
      ok: true,
      url: siteUrl('/normal'),
      final_url: siteUrl('/normal'),
      status: 200,
      robots: 'noindex, follow',
      canonical: siteUrl('/canonical-target'),
      required_selector_found: null,
      axe_version: '4.14.1',
    });
    expect(page.text).toBe('Release notes\n\nVersion 2 is out.');
    expect(pngSize(page.screenshot).width).toBe(1440);
    expect(pngSize(page.screenshot).height).toBeGreaterThanOrEqual(900);
    expect(page.findings).toContainEqual({
      rule_id: 'image-alt',
      impact: 'critical',
      help: 'Images must have alternative text',
      help_url: expect.stringContaining('dequeuniversity.com/rules/axe/4.14/image-alt') as string,
      target: '#hero',
    });
    expect(page.duration_ms).toBeGreaterThan(0);
  });

  it.concurrent('reports null robots and canonical when the page has none, and a found required selector', async () => {
    const page = expectCaptured(
      await engine.capture({ url: siteUrl('/plain'), viewport: 'desktop', requiredSelector: 'main h1' }),
    );
    expect(page).toMatchObject({ robots: null, canonical: null, required_selector_found: true });
    expect(page.findings.filter((finding) => finding.rule_id === 'image-alt')).toEqual([]);
  });

  it.concurrent('follows same-site redirects and reports the final URL', async () => {
    const page = expectCaptured(await engine.capture({ url: siteUrl('/redirect-to-normal'), viewport: 'desktop' }));
    expect(page.url).toBe(siteUrl('/redirect-to-normal'));
    expect(page.final_url).toBe(siteUrl('/normal'));
  });

  it.concurrent('captures the mobile viewport at 390 px wide', async () => {
    const page = expectCaptured(await engine.capture({ url: siteUrl('/normal'), viewport: 'mobile' }));
    expect(pngSize(page.screenshot).width).toBe(390);
    expect(pngSize(page.screenshot).height).toBeGreaterThanOrEqual(844);
  });

  it.concurrent('records a 404 as http_error without screenshot or scan', async () => {
    const missing = expectMissing(await engine.capture({ url: siteUrl('/not-found'), viewport: 'desktop' }));
    expect(missing).toMatchObject({ reason: 'http_error', status: 404, final_url: siteUrl('/not-found') });
  });

  it.concurrent('records a missing required selector without screenshot or scan', async () => {
    const request: CaptureRequest = { url: siteUrl('/plain'), viewport: 'desktop', requiredSelector: '#checkout' };
    const missing = expectMissing(await engine.capture(request));
    expect(missing).toMatchObject({ reason: 'required_selector_missing', status: 200 });
    expect(missing.message).toContain('"#checkout" matched no element');
  });

  it.concurrent('treats an invalid required selector as missing, with a clear message', async () => {
    const request: CaptureRequest = { url: siteUrl('/plain'), viewport: 'desktop', requiredSelector: 'main[' };
    const missing = expectMissing(await engine.capture(request));
    expect(missing.reason).toBe('required_selector_missing');
    expect(missing.message).toContain('is not a valid CSS selector');
  });

  it.concurrent('gives identical screenshots of an animated page', async () => {
    const request: CaptureRequest = { url: siteUrl('/animated'), viewport: 'desktop' };
    const first = expectCaptured(await engine.capture(request));
    await new Promise((resolve) => setTimeout(resolve, 350)); // a different animation phase if it were running
    const second = expectCaptured(await engine.capture(request));
    expect(pngSize(second.screenshot)).toEqual(pngSize(first.screenshot));
    expect(second.screenshot.equals(first.screenshot)).toBe(true);
  });

  it.concurrent('paints over masked elements and ignores invalid mask selectors', async () => {
    const masked: CaptureRequest = {
      url: siteUrl('/random'),
      viewport: 'desktop',
      maskSelectors: ['#stamp', '#other', 'p[['],
    };
    const [first, second, unmasked] = await Promise.all([
      engine.capture(masked),
      engine.capture(masked),
      engine.capture({ url: siteUrl('/random'), viewport: 'desktop' }),
    ]);
    const maskedShot = expectCaptured(first).screenshot;
    expect(expectCaptured(second).screenshot.equals(maskedShot)).toBe(true);
    expect(expectCaptured(unmasked).screenshot.equals(maskedShot)).toBe(false);
  });

  it.concurrent('runs four captures in parallel on the shared browser', async () => {
    const viewports = ['desktop', 'mobile', 'desktop', 'mobile'] as const;
    const results = await Promise.all(
      viewports.map((viewport) => engine.capture({ url: siteUrl('/normal'), viewport })),
    );
    expect(results.map((result) => expectCaptured(result).status)).toEqual([200, 200, 200, 200]);
    expect(results.map((result) => pngSize(expectCaptured(result).screenshot).width)).toEqual([1440, 390, 1440, 390]);
  });

  it.concurrent(
    'refuses URLs that are not http(s) or carry credentials even when private targets are allowed',
    async () => {
      const ftp = expectMissing(await engine.capture({ url: 'ftp://127.0.0.1/file', viewport: 'desktop' }));
      expect(ftp.reason).toBe('target_not_public');
      const credentials = `http://user:pass@127.0.0.1:${sitePort}/normal`;
      expect(expectMissing(await engine.capture({ url: credentials, viewport: 'desktop' })).reason).toBe(
        'target_not_public',
      );
    },
  );

  it.concurrent(
    'scans pages whose CSP forbids every script, and pages with their own axe and AMD loader untouched',
    async () => {
      const [strict, own] = await Promise.all([
        engine.capture({ url: siteUrl('/strict-csp'), viewport: 'desktop' }),
        engine.capture({ url: siteUrl('/own-axe'), viewport: 'desktop' }),
      ]);
      expect(expectCaptured(strict).findings).toContainEqual(
        expect.objectContaining({ rule_id: 'image-alt', target: '#strict' }),
      );
      expect(expectCaptured(strict).axe_version).toBe('4.14.1');
      expect(expectCaptured(own).findings).toContainEqual(
        expect.objectContaining({ rule_id: 'image-alt', target: '#own' }),
      );
      expect(expectCaptured(own).axe_version).toBe('4.14.1');
      expect(expectCaptured(own).text).toContain('own axe intact, define calls: 0');
    },
  );

  it.concurrent('scans inside frames and names the frame in the target', async () => {
    const page = expectCaptured(await engine.capture({ url: siteUrl('/with-frame'), viewport: 'desktop' }));
    expect(page.findings).toContainEqual(expect.objectContaining({ rule_id: 'image-alt', target: '#inner #in-frame' }));
  });

  it.concurrent('scans the document a page replaced itself with while settling', async () => {
    const page = expectCaptured(await engine.capture({ url: siteUrl('/moves-on'), viewport: 'desktop' }));
    expect(page.final_url).toBe(siteUrl('/normal'));
    expect(page.text).toContain('Version 2 is out.');
    expect(page.findings).toContainEqual(expect.objectContaining({ rule_id: 'image-alt', target: '#hero' }));
  });

  it.concurrent('waits for requests still running after load before reading the page', async () => {
    const page = expectCaptured(await engine.capture({ url: siteUrl('/late-content'), viewport: 'desktop' }));
    expect(page.text).toContain('Late news arrived');
  });

  it.concurrent('rejects an unknown viewport as a programming error', async () => {
    const request = { url: siteUrl('/plain'), viewport: 'tablet' } as unknown as CaptureRequest;
    await expect(engine.capture(request)).rejects.toThrow(TypeError);
  });
  it.concurrent('renders a self-contained HTML report to an A4 PDF, landscape when asked', async () => {
    const report = html(
      `<main><h1>Uptime report</h1><p>99.95% over 30 days.</p>` +
        `<svg width="200" height="80" role="img" aria-label="Chart"><rect width="120" height="60" fill="#36c"/></svg>` +
        `<img alt="dot" src="data:image/png;base64,${ONE_PIXEL_PNG}" width="8" height="8"></main>`,
      `<style>body { font-family: sans-serif; background: #eef; } h1 { color: #123; }</style>`,
    );
    const [portrait, landscape] = await Promise.all([
      engine.renderPdf({ html: report }),
      engine.renderPdf({ html: report, landscape: true, priority: 'scan' }),
    ]);
    expect(portrait.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(landscape.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // A4 is 595 x 842 points (Chromium rounds the page up to whole CSS pixels).
    expect(pdfPageSize(portrait)).toEqual({ width: 595, height: 842 });
    expect(pdfPageSize(landscape)).toEqual({ width: 842, height: 595 });
  });

  it.concurrent('renders a PDF without fetching anything it names, by markup, style or script', async () => {
    const requested: string[] = [];
    const server = createServer((req, res) => {
      requested.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x');
    });
    const port = await listen(server, '127.0.0.1');
    const local = (path: string) => `http://127.0.0.1:${port}${path}`;
    try {
      const pdf = await engine.renderPdf({
        html: html(
          `<h1>Report</h1><img src="${local('/img.png')}" alt="remote">` +
            `<div style="background: url('${local('/background.png')}')">Styled</div>` +
            `<iframe title="frame" src="${local('/frame')}"></iframe>` +
            `<object data="${local('/object')}"></object>` +
            `<script src="${local('/script.js')}"></script>` +
            `<script>fetch(${JSON.stringify(local('/fetch'))}); new Image().src = ${JSON.stringify(local('/js-img'))};</script>`,
          `<link rel="stylesheet" href="${local('/style.css')}">` +
            `<link rel="preload" as="image" href="${local('/preload.png')}">` +
            `<style>@import url('${local('/import.css')}'); @font-face { font-family: F; src: url('${local('/font.woff2')}'); } h1 { font-family: F; }</style>`,
        ),
      });
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      await new Promise((resolve) => setTimeout(resolve, 300)); // anything late would have arrived by now
      expect(requested).toEqual([]);
    } finally {
      await closeServer(server);
    }
  });

  // Not concurrent: killing the shared browser would fail the captures running beside it.
  it('relaunches the browser after it crashes', async () => {
    expectCaptured(await engine.capture({ url: siteUrl('/plain'), viewport: 'desktop' }));
    const pid = engine.browserProcessId();
    expect(pid).toEqual(expect.any(Number));
    process.kill(pid as number, 'SIGKILL');
    const page = expectCaptured(await engine.capture({ url: siteUrl('/plain'), viewport: 'desktop' }));
    expect(page.status).toBe(200);
    expect(engine.browserProcessId()).not.toBe(pid);
  });
});

describe('CaptureEngine when its browser is killed mid-capture', () => {
  // Guarded, as in production: 127.0.0.1 plays the public internet. networkIdleMs is long, so a capture that waited
  // for the network after its browser died would be seen waiting.
  let engine: CaptureEngine;
  const outcomes: CaptureOutcome[] = [];
  const killBrowser = () => {
    const pid = engine.browserProcessId();
    if (pid === null) throw new Error('no browser is running');
    process.kill(pid, 'SIGKILL');
  };

  beforeAll(() => {
    engine = new CaptureEngine({
      isAllowedAddress: (ip) => ip === '127.0.0.1',
      timeouts: { networkIdleMs: 20_000, totalMs: 60_000 },
      onOutcome: (outcome) => outcomes.push(outcome),
    });
  });

  beforeEach(() => {
    outcomes.length = 0;
  });

  afterAll(async () => {
    await engine.close();
  });

  it('retries every capture the browser was running on a new browser and returns the pages evidence', async () => {
    expectCaptured(await engine.capture({ url: siteUrl('/plain'), viewport: 'desktop' }));
    const pid = engine.browserProcessId();
    let arrived = 0;
    const bothInFlight = new Promise<void>((resolve) => {
      const onArrival = () => (arrived += 1) === 2 && resolve();
      hold('/crash/a', onArrival);
      hold('/crash/b', onArrival);
    });
    const captures = Promise.all([
      engine.capture({ url: siteUrl('/crash/a'), viewport: 'desktop', priority: 'release' }),
      engine.capture({ url: siteUrl('/crash/b'), viewport: 'mobile', priority: 'release' }),
    ]);
    await bothInFlight;
    killBrowser();
    const [a, b] = await captures;

    expect(expectCaptured(a)).toMatchObject({ status: 200, text: 'Survived\n\n/crash/a' });
    expect(expectCaptured(b)).toMatchObject({ status: 200, text: 'Survived\n\n/crash/b' });
    expect(engine.browserProcessId()).not.toBe(pid);
    expect(outcomes.filter((outcome) => outcome !== 'captured').sort()).toEqual([
      'browser_relaunch',
      'browser_relaunch',
    ]);
  });

  it('stops a capture the moment its browser dies instead of waiting out the step it was in', async () => {
    let killedAt = 0;
    hold('/crash/settle-data', () => {
      killBrowser();
      killedAt = performance.now();
    });
    const page = expectCaptured(await engine.capture({ url: siteUrl('/crash/settle'), viewport: 'desktop' }));
    expect(page.text).toContain('Data arrived');
    // Waiting for the held request to settle would take networkIdleMs (20 s); the retry itself takes a second or two.
    expect(performance.now() - killedAt).toBeLessThan(10_000);
    expect(page.duration_ms).toBeLessThan(10_000);
    expect(outcomes).toEqual(['browser_relaunch', 'captured']);
  });

  it('gives up after two relaunches with CaptureInfrastructureError, never with missing evidence', async () => {
    hold('/crash/always', killBrowser, 3);
    const capture = engine.capture({ url: siteUrl('/crash/always'), viewport: 'desktop' });
    await expect(capture).rejects.toThrow(CaptureInfrastructureError);
    await expect(capture).rejects.toThrow('the browser went away 3 times during the capture');
    expect(outcomes).toEqual(['browser_relaunch', 'browser_relaunch', 'infrastructure_error']);
    // The next capture gets a browser of its own.
    expectCaptured(await engine.capture({ url: siteUrl('/crash/always'), viewport: 'desktop' }));
  });
});

describe('CaptureEngine timeouts', () => {
  // Each timeout is tested on an engine where only it can fire: the total deadline is generous elsewhere, so a
  // slow browser start on a loaded machine cannot pre-empt the timeout under test.
  let engine: CaptureEngine;
  let deadlineEngine: CaptureEngine;

  beforeAll(() => {
    // axeMs: 1 cannot be met, so a page that loads fine ends at the scan.
    engine = new CaptureEngine({
      allowPrivateTargets: true,
      timeouts: { navigationMs: 1_500, networkIdleMs: 3_000, axeMs: 1, totalMs: 60_000 },
    });
    // networkIdleMs exceeds totalMs, so a page that never goes idle hits the total deadline.
    deadlineEngine = new CaptureEngine({
      allowPrivateTargets: true,
      timeouts: { navigationMs: 30_000, networkIdleMs: 10_000, totalMs: 6_000 },
    });
  });

  afterAll(async () => {
    await Promise.all([engine.close(), deadlineEngine.close()]);
  });

  it('records a page slower than navigationMs as timeout', async () => {
    const missing = expectMissing(await engine.capture({ url: siteUrl('/slow'), viewport: 'desktop' }));
    expect(missing).toMatchObject({ reason: 'timeout', status: null, final_url: null });
    expect(missing.message).toBe('navigation did not finish within 1500 ms');
  });

  it('records an axe scan slower than axeMs as timeout', async () => {
    const missing = expectMissing(await engine.capture({ url: siteUrl('/plain'), viewport: 'desktop' }));
    expect(missing).toMatchObject({ reason: 'timeout', status: 200 });
    expect(missing.message).toContain('axe-core timed out');
  });

  it('records a capture longer than totalMs as timeout', async () => {
    const missing = expectMissing(
      await deadlineEngine.capture({ url: siteUrl('/pending-fetch'), viewport: 'desktop' }),
    );
    expect(missing.reason).toBe('timeout');
    expect(missing.message).toBe('the capture did not finish within 6000 ms');
    expect(missing.duration_ms).toBeGreaterThanOrEqual(6_000);
    expect(missing.duration_ms).toBeLessThan(10_000);
  });
});

describe('CaptureEngine target checks', () => {
  let guarded: CaptureEngine;
  let strict: CaptureEngine;

  beforeAll(() => {
    // 127.0.0.1 stands in for the public internet; everything else, 127.0.0.2 included, stays refused.
    // rebind.test passes our DNS check (the injected lookup says 127.0.0.1) but Chromium is told it is 127.0.0.2,
    // which is what a DNS-rebinding host looks like.
    guarded = new CaptureEngine({
      isAllowedAddress: (ip) => ip === '127.0.0.1',
      lookup: (host) =>
        host === 'rebind.test' ? Promise.resolve(['127.0.0.1']) : Promise.reject(new Error('ENOTFOUND')),
      extraBrowserArgs: ['--host-resolver-rules=MAP rebind.test 127.0.0.2'],
    });
    strict = new CaptureEngine();
  });

  afterAll(async () => {
    await Promise.all([guarded.close(), strict.close()]);
  });

  it.concurrent('refuses loopback, localhost and metadata URLs before starting a browser', async () => {
    for (const url of [siteUrl('/normal'), `http://localhost:${sitePort}/normal`, 'http://169.254.169.254/latest']) {
      const missing = expectMissing(await strict.capture({ url, viewport: 'desktop' }));
      expect(missing).toMatchObject({ reason: 'target_not_public', status: null, final_url: null });
    }
    expect(strict.browserProcessId()).toBeNull();
  });

  it.concurrent(
    "keeps Playwright's disabled Chromium features, adds the omnibox pop-ups and the extra switches",
    async () => {
      expectCaptured(await guarded.capture({ url: siteUrl('/normal'), viewport: 'desktop' }));
      const ours = chromiumSwitches(guarded.browserProcessId());
      const playwrights = await playwrightDefaultSwitches();
      // Chromium honours only the last --disable-features, so that one must hold Playwright's list and ours.
      const disabled = (switches: string[]) =>
        switches
          .findLast((arg) => arg.startsWith('--disable-features='))
          ?.slice('--disable-features='.length)
          .split(',');
      expect(disabled(playwrights)?.length).toBeGreaterThan(5);
      expect(disabled(ours)).toEqual(
        expect.arrayContaining([...(disabled(playwrights) ?? []), 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']),
      );
      expect(ours).toContain('--host-resolver-rules=MAP rebind.test 127.0.0.2');
      expect(ours).toContain('--disable-quic');
    },
  );

  it.concurrent('captures an allowed target normally', async () => {
    const page = expectCaptured(await guarded.capture({ url: siteUrl('/normal'), viewport: 'desktop' }));
    expect(page.findings.map((finding) => finding.rule_id)).toContain('image-alt');
  });

  it.concurrent('catches a server-side redirect to a refused address before it is sent', async () => {
    const missing = expectMissing(await guarded.capture({ url: siteUrl('/redirect-to-private'), viewport: 'desktop' }));
    expect(missing.reason).toBe('target_not_public');
    expect(missing.message).toContain('127.0.0.2');
    expect(privateLog.requests).not.toContain('/secret');
  });

  it.concurrent('catches a redirect to a localhost name', async () => {
    const result = await guarded.capture({ url: siteUrl('/redirect-to-localhost'), viewport: 'desktop' });
    expect(expectMissing(result)).toMatchObject({ reason: 'target_not_public' });
    expect(expectMissing(result).message).toContain('localhost');
  });

  it.concurrent('catches a script navigation of the main frame to a refused address', async () => {
    const result = await guarded.capture({ url: siteUrl('/script-navigates-to-private'), viewport: 'desktop' });
    expect(expectMissing(result).reason).toBe('target_not_public');
    expect(privateLog.requests).not.toContain('/js');
  });

  it.concurrent(
    'blocks subresources, frames, beacons and WebSockets to refused addresses but keeps the page',
    async () => {
      const page = expectCaptured(
        await guarded.capture({ url: siteUrl('/private-subresources'), viewport: 'desktop' }),
      );
      expect(page.text).toContain('Embeds');
      for (const path of ['/img.png', '/frame', '/fetch', '/beacon']) expect(privateLog.requests).not.toContain(path);
      expect(privateLog.upgrades).toEqual([]);
      expect(siteUpgrades).toContain('/ws-allowed'); // allowed WebSockets still connect
    },
  );

  it.concurrent('refuses a page the browser fetched from a refused address although DNS said otherwise', async () => {
    const url = `http://rebind.test:${privatePort}/page`;
    const missing = expectMissing(await guarded.capture({ url, viewport: 'desktop' }));
    expect(missing.reason).toBe('target_not_public');
    expect(missing.message).toContain('non-public address 127.0.0.2');
  });
});

/** The size in points of a PDF's first page, from its MediaBox (Chromium writes it uncompressed). */
function pdfPageSize(pdf: Buffer): { width: number; height: number } {
  const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString('latin1'));
  if (!box) throw new Error('the PDF names no MediaBox');
  return { width: Math.floor(Number(box[1])), height: Math.floor(Number(box[2])) };
}

/** The command line of a running Chromium, one switch per entry. */
function chromiumSwitches(pid: number | null): string[] {
  if (pid === null) throw new Error('no browser is running');
  return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
}

/** The switches a plain `chromium.launch` of playwright-core gives Chromium. */
async function playwrightDefaultSwitches(): Promise<string[]> {
  const browser = await chromium.launch({ executablePath: DEFAULT_CHROMIUM_PATH });
  try {
    const session = await browser.newBrowserCDPSession();
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    return chromiumSwitches(processInfo.find((process) => process.type === 'browser')?.id ?? null);
  } finally {
    await browser.close();
  }
}

describe('pure helpers', () => {
  it('normalizeText turns CRLF into LF and trims trailing blanks per line', () => {
    expect(normalizeText('a  \r\nb\t\r\n\r\n  c \rd')).toBe('a\nb\n\n  c\nd');
  });

  it('flattenResults gives one finding per node with nested targets joined', () => {
    const findings = flattenResults([
      {
        id: 'color-contrast',
        impact: 'serious',
        help: 'Elements must meet minimum color contrast ratio thresholds',
        helpUrl: 'https://example.com/color-contrast',
        nodes: [
          { target: ['#a'], impact: null },
          { target: ['iframe#x', ['#host', '.inner']], impact: 'moderate' },
        ],
      },
    ]);
    expect(findings).toEqual([
      expect.objectContaining({ rule_id: 'color-contrast', impact: 'serious', target: '#a' }),
      expect.objectContaining({ rule_id: 'color-contrast', impact: 'moderate', target: 'iframe#x #host .inner' }),
    ]);
  });
});

describe('CaptureEngine over HTTPS', () => {
  let site: TestSite;
  let trusting: CaptureEngine;
  let plain: CaptureEngine;

  beforeAll(async () => {
    const authority = await TestCertificateAuthority.create();
    const certificate = await authority.issue({ daysLeft: 20 });
    site = await new TestSite().start({ certificate });
    site.set('/', '<!doctype html><title>Secure</title><h1>Secure</h1>');
    // Chromium trusts no CA made here; this switch makes it accept the one key the test site serves, nothing else.
    const spki = new X509Certificate(certificate.cert).publicKey.export({ type: 'spki', format: 'der' });
    const pin = createHash('sha256').update(spki).digest('base64');
    const loopback = { isAllowedAddress: (ip: string) => ip === '127.0.0.1' };
    trusting = new CaptureEngine({ ...loopback, extraBrowserArgs: [`--ignore-certificate-errors-spki-list=${pin}`] });
    plain = new CaptureEngine(loopback);
  });
  afterAll(async () => {
    await Promise.all([trusting?.close(), plain?.close(), site?.stop()]);
  });

  it('tells the certificate the document was served, as Chromium reads it', async () => {
    const page = expectCaptured(await trusting.capture({ url: `${site.origin}/`, viewport: 'desktop' }));
    expect(page.certificate).toMatchObject({ issuer: 'Vigil Test CA', subject: '127.0.0.1', fingerprintSha256: null });
    const days = (Date.parse(page.certificate!.expiresAt) - Date.now()) / 86_400_000;
    expect(Math.floor(days)).toBe(20);
  });

  it('misses the page of a certificate Chromium does not trust, saying so', async () => {
    const missing = expectMissing(await plain.capture({ url: `${site.origin}/`, viewport: 'desktop' }));
    expect(missing).toMatchObject({ reason: 'navigation_failed' });
    expect(missing.message).toMatch(/ERR_CERT_AUTHORITY_INVALID/);
  });

  it('tells no certificate for plain HTTP', async () => {
    const page = expectCaptured(await plain.capture({ url: siteUrl('/normal'), viewport: 'desktop' }));
    expect(page.certificate).toBeNull();
  });
});
