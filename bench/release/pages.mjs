// bench:release's page fixture: /prod/page-N and /preview/page-N on a local server, 3–10 KB each, different per page
// and the same on every run (seeded); some previews differ a little from production (previewChange).

import { createServer as createHttpServer } from 'node:http';
import { log } from '../lib/common.mjs';
import { closeServer, listenLocal } from '../lib/http.mjs';

const WORDS = (
  'release preview production monitor capture screenshot latency budget customer account invoice report ' +
  'dashboard service region cluster deploy rollback feature flag checkout search catalog shipping payment ' +
  'support ticket status incident uptime alert webhook schedule team project milestone roadmap pricing plan ' +
  'storage backup archive export import analytics audience campaign newsletter partner integration ' +
  'security privacy compliance policy session token gateway network cache edge origin latency throughput'
).split(' ');

/** A seeded pseudo-random generator (a linear congruential one): the same numbers in [0, 1) on every run. */
export function seeded(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A sentence of 8–16 of WORDS, capitalized, drawn with `rand`. */
export function sentence(rand) {
  const length = 8 + Math.floor(rand() * 9);
  const words = Array.from({ length }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(' ')}.`;
}

/** How the preview of page n differs from production: text, layout height, navigation label, or not at all. */
export function previewChange(n) {
  if (n % 4 === 1) return 'text';
  if (n % 5 === 2) return 'list-item';
  if (n % 7 === 3) return 'nav-label';
  return null;
}

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Page n of `side` (prod or preview): a header, navigation, sections, a list and a sidebar. Also the anchor pages of
 * the test that collects one check on both Chromium builds (test/e2e/release-check-shortcuts.spec.ts).
 */
export function pageHtml(n, side) {
  const rand = seeded(n * 7919 + 17);
  const change = side === 'preview' ? previewChange(n) : null;
  const title = `${WORDS[n % WORDS.length][0].toUpperCase()}${WORDS[n % WORDS.length].slice(1)} overview`;
  const nav = ['Home', 'Products', 'Pricing', 'Docs', 'Blog', change === 'nav-label' ? 'Talk to us' : 'Contact'];
  const paragraphs = Array.from({ length: 4 + (n % 9) }, () =>
    Array.from({ length: 3 + Math.floor(rand() * 4) }, () => sentence(rand)).join(' '),
  );
  if (change === 'text') paragraphs[1] = paragraphs[1].replace(/\b(\w+)\.$/, 'rollout.');
  const items = Array.from({ length: 4 + (n % 5) }, () => sentence(rand));
  if (change === 'list-item') items.push('New in this release: a faster dashboard and fewer clicks.');
  const sidebar = Array.from({ length: 3 + (n % 3) }, () => sentence(rand));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — Example Co (${n})</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: "Liberation Sans", Arial, sans-serif; color: #1d2733; background: #fff; line-height: 1.55; }
  header { background: #123c69; color: #fff; padding: 16px 32px; display: flex; justify-content: space-between; align-items: center; }
  header .brand { font-size: 22px; font-weight: bold; }
  nav ul { list-style: none; display: flex; gap: 20px; margin: 0; padding: 0; flex-wrap: wrap; }
  nav a { color: #fff; text-decoration: none; }
  .layout { display: grid; grid-template-columns: minmax(0, 1fr) 280px; gap: 32px; max-width: 1180px; margin: 0 auto; padding: 32px; }
  main h1 { font-size: 34px; margin: 0 0 16px; }
  main h2 { font-size: 22px; margin: 28px 0 8px; }
  aside { background: #f3f6f9; border-radius: 8px; padding: 20px; font-size: 15px; }
  .card { border: 1px solid #d5dde5; border-radius: 6px; padding: 12px 16px; margin: 0 0 12px; }
  .note { color: #9aa5b1; font-size: 13px; }
  footer { border-top: 1px solid #d5dde5; padding: 24px 32px; font-size: 14px; color: #4b5866; }
  @media (max-width: 700px) {
    header { flex-direction: column; align-items: flex-start; gap: 8px; padding: 12px 16px; }
    .layout { grid-template-columns: 1fr; padding: 16px; }
    main h1 { font-size: 26px; }
  }
</style>
</head>
<body>
<header>
  <div class="brand">Example Co</div>
  <nav aria-label="Main"><ul>${nav.map((label) => `<li><a href="#${label.toLowerCase().replace(/ /g, '-')}">${label}</a></li>`).join('')}</ul></nav>
</header>
<div class="layout">
  <main>
    <h1>${escapeHtml(title)} (page ${n})</h1>
    ${paragraphs.map((text, index) => `${index % 3 === 2 ? `<h2>Section ${index}</h2>\n    ` : ''}<p>${escapeHtml(text)}</p>`).join('\n    ')}
    <h2>Highlights</h2>
    <ul>
      ${items.map((text) => `<li>${escapeHtml(text)}</li>`).join('\n      ')}
    </ul>
  </main>
  <aside>
    <h2>Related</h2>
    ${sidebar.map((text) => `<div class="card">${escapeHtml(text)}</div>`).join('\n    ')}
    <p class="note">Last reviewed by the content team.</p>
  </aside>
</div>
<footer>© Example Co · <a href="#privacy">Privacy</a> · <a href="#terms">Terms</a></footer>
</body>
</html>
`;
}

/** Serves pages 1…`count` of both sides; resolves with { base (the origin), close() }. */
export async function startPageServer(count) {
  const pages = new Map();
  for (let n = 1; n <= count; n++) {
    pages.set(`/prod/page-${n}`, Buffer.from(pageHtml(n, 'prod')));
    pages.set(`/preview/page-${n}`, Buffer.from(pageHtml(n, 'preview')));
  }
  const server = createHttpServer((request, response) => {
    const body = pages.get(request.url);
    if (!body || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  server.keepAliveTimeout = 5000;
  const base = await listenLocal(server);
  const sizes = [...pages.values()].map((body) => body.length);
  const differing = [...Array(count).keys()].filter((i) => previewChange(i + 1)).length;
  log(
    `serving ${pages.size} pages on ${base} (${(Math.min(...sizes) / 1024).toFixed(1)}–` +
      `${(Math.max(...sizes) / 1024).toFixed(1)} KB; ${differing} of ${count} previews differ)`,
  );
  return { base, close: () => closeServer(server) };
}
