// A local website whose pages move on their own: clocks, shuffles, carousels, animations, late content,
// web fonts, lazy images, server-rendered timestamps and client-side A/B tests. Two sites started with
// version 'production' are two deployments of the same code; version 'changed' carries a few real changes
// (REAL_CHANGES). Used by jest tests (compiled by @swc/jest) and by bench/noise.mjs (Node's own type
// stripping), so: only node: built-ins, only erasable TypeScript syntax.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

export type MovingSiteVersion = 'production' | 'changed';

export interface MovingSite {
  /** Origin, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  /** Which version the site serves now. */
  readonly version: MovingSiteVersion;
  /** Switches what the site serves from now on (a "deployment"), without changing its URL. */
  deploy(version: MovingSiteVersion): void;
  /** How many requests each path has had (for tests that assert fetch counts). */
  requests(path: string): number;
  close(): Promise<void>;
}

/** Every HTML page path the site has, in a stable order. */
export const MOVING_PAGES: ReadonlyArray<{ path: string; motion: string }> = [
  { path: '/', motion: 'none: a navigation list and static text (the control page)' },
  { path: '/clock', motion: 'a JavaScript clock ticking every second and a "page open for N s" counter' },
  { path: '/testimonials', motion: 'five testimonials shuffled with Math.random on every load' },
  { path: '/carousel', motion: 'a carousel that moves to the next of three slides every 2.5 s' },
  { path: '/spinner', motion: 'an SVG spinner (SMIL animateTransform) and a CSS @keyframes rotation, both endless' },
  { path: '/canvas', motion: 'a canvas redrawn every animation frame; position from the frame time, colour random' },
  { path: '/banner', motion: 'a cookie banner inserted 1.2 s after load and a section fading in by CSS transition' },
  { path: '/font', motion: 'a heading in a web font that the server delivers after 800 ms (font-display: swap)' },
  { path: '/lazy', motion: 'a tall page with lazy-loaded images, one more than 3000 px below the top' },
  { path: '/promo', motion: 'a promotion fetched from /api/promo 300 ms after load (the API answers in 200 ms)' },
  { path: '/server-time', motion: 'server-rendered: a millisecond timestamp and a random request number per request' },
  { path: '/ab', motion: 'a client-side A/B test choosing one of two headlines with Math.random' },
  { path: '/price', motion: 'a JavaScript clock beside a price (#price) that does not change' },
];

/** What the 'changed' version changes, and in which evidence dimensions the change must show. */
export const REAL_CHANGES: ReadonlyArray<{
  path: string;
  what: string;
  dimensions: ReadonlyArray<'text' | 'screenshot' | 'findings' | 'robots' | 'canonical'>;
}> = [
  {
    path: '/clock',
    what: 'The shipping paragraph (#shipping) says orders before 16:00 ship the same day, Saturdays included (was 14:00, working days)',
    dimensions: ['text', 'screenshot'],
  },
  {
    path: '/testimonials',
    what: 'The team photo (<img src="/img/team.png">) loses its alt attribute; the image and its pixels stay the same',
    dimensions: ['findings'],
  },
  {
    path: '/carousel',
    what: 'The "Buy now" button background changes from #1a5fb4 (blue) to #c01c28 (red); same text',
    dimensions: ['screenshot'],
  },
  {
    path: '/font',
    what: 'The heading web font /fonts/display.ttf changes from DejaVu Serif to Liberation Mono',
    dimensions: ['screenshot'],
  },
  {
    path: '/lazy',
    what: 'The last lazy image (/img/lookbook-4.png, more than 3000 px down) changes from green to orange stripes',
    dimensions: ['screenshot'],
  },
  {
    path: '/promo',
    what: 'The promotion fetched from /api/promo after load says 25% off jackets and boots (was 15% off jackets)',
    dimensions: ['text', 'screenshot'],
  },
  {
    path: '/server-time',
    what: '<meta name="robots" content="noindex"> is added',
    dimensions: ['robots'],
  },
  {
    path: '/ab',
    what: 'The canonical link changes from /ab to /ab-new',
    dimensions: ['canonical'],
  },
];

const FONTS: Record<MovingSiteVersion, string> = {
  production: '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf',
  changed: '/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf',
};
const FONT_DELAY_MS = 800;
const PROMO_DELAY_MS = 200;

export async function startMovingSite(options: { version?: MovingSiteVersion } = {}): Promise<MovingSite> {
  let version: MovingSiteVersion = options.version ?? 'production';
  const fonts: Record<MovingSiteVersion, Buffer> = {
    production: readFileSync(FONTS.production),
    changed: readFileSync(FONTS.changed),
  };
  const counts = new Map<string, number>();
  const pending = new Set<NodeJS.Timeout>();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = pathOf(request.url ?? '/');
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const reply =
      request.method === 'GET' || request.method === 'HEAD'
        ? route(path, version, fonts)
        : { status: 405, type: 'text/plain; charset=utf-8', body: 'Method not allowed\n' };
    const send = (): void => {
      const body = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
      response.writeHead(reply.status, {
        'Content-Type': reply.type,
        'Content-Length': body.length,
        'Cache-Control': 'no-store',
        ...(reply.status === 405 ? { Allow: 'GET, HEAD' } : {}),
      });
      response.end(body);
    };
    if (!reply.delayMs) {
      send();
      return;
    }
    const timer = setTimeout(() => {
      pending.delete(timer);
      send();
    }, reply.delayMs);
    pending.add(timer);
    response.on('close', () => {
      clearTimeout(timer);
      pending.delete(timer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    get version(): MovingSiteVersion {
      return version;
    },
    deploy(next: MovingSiteVersion): void {
      if (next !== 'production' && next !== 'changed') throw new Error(`Unknown version: ${String(next)}`);
      version = next;
    },
    requests(path: string): number {
      return counts.get(pathOf(path)) ?? 0;
    },
    close(): Promise<void> {
      closed ??= new Promise<void>((resolve) => {
        for (const timer of pending) clearTimeout(timer);
        pending.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

function pathOf(url: string): string {
  return url.split(/[?#]/)[0] || '/';
}

interface Reply {
  status: number;
  type: string;
  body: string | Buffer;
  delayMs?: number;
}

const HTML = 'text/html; charset=utf-8';

function route(path: string, version: MovingSiteVersion, fonts: Record<MovingSiteVersion, Buffer>): Reply {
  const page = PAGES[path];
  if (page) return { status: 200, type: HTML, body: page(version) };
  if (path === '/fonts/display.ttf')
    return { status: 200, type: 'font/ttf', body: fonts[version], delayMs: FONT_DELAY_MS };
  if (path === '/api/promo') {
    return { status: 200, type: 'application/json', body: JSON.stringify(PROMOS[version]), delayMs: PROMO_DELAY_MS };
  }
  const image = /^\/img\/([a-z0-9-]+)\.png$/.exec(path);
  if (image && IMAGES[image[1]]) return { status: 200, type: 'image/png', body: png(image[1], version) };
  return { status: 404, type: HTML, body: notFound() };
}

// ---------------------------------------------------------------------------------------------------------------
// Images: small PNGs drawn here (8-bit RGB, diagonal stripes of two colours).

type Rgb = readonly [number, number, number];
interface ImageSpec {
  width: number;
  height: number;
  colours: Record<MovingSiteVersion, readonly [Rgb, Rgb]>;
}

const GREEN: readonly [Rgb, Rgb] = [
  [0x2a, 0x7f, 0x62],
  [0x1f, 0x5e, 0x49],
];
const ORANGE: readonly [Rgb, Rgb] = [
  [0xe6, 0x61, 0x00],
  [0xb3, 0x4d, 0x00],
];
const same = (colours: readonly [Rgb, Rgb]): Record<MovingSiteVersion, readonly [Rgb, Rgb]> => ({
  production: colours,
  changed: colours,
});

const IMAGES: Record<string, ImageSpec> = {
  team: {
    width: 400,
    height: 200,
    colours: same([
      [0x62, 0xa0, 0xea],
      [0x35, 0x84, 0xe4],
    ]),
  },
  'lookbook-1': {
    width: 400,
    height: 200,
    colours: same([
      [0xc6, 0x46, 0x00],
      [0x98, 0x41, 0x1f],
    ]),
  },
  'lookbook-2': {
    width: 400,
    height: 200,
    colours: same([
      [0x91, 0x41, 0xac],
      [0x61, 0x35, 0x83],
    ]),
  },
  'lookbook-3': {
    width: 400,
    height: 200,
    colours: same([
      [0xf6, 0xd3, 0x2d],
      [0xe5, 0xa5, 0x0a],
    ]),
  },
  'lookbook-4': { width: 400, height: 200, colours: { production: GREEN, changed: ORANGE } },
  tote: {
    width: 400,
    height: 200,
    colours: same([
      [0xde, 0xdd, 0xda],
      [0x9a, 0x99, 0x96],
    ]),
  },
};

const pngCache = new Map<string, Buffer>();

function png(name: string, version: MovingSiteVersion): Buffer {
  const spec = IMAGES[name];
  const [a, b] = spec.colours[version];
  const key = `${name}:${a.join(',')}:${b.join(',')}`;
  const cached = pngCache.get(key);
  if (cached) return cached;
  const rowBytes = 1 + spec.width * 3;
  const raw = Buffer.alloc(rowBytes * spec.height);
  for (let y = 0; y < spec.height; y++) {
    raw[y * rowBytes] = 0; // filter: none
    for (let x = 0; x < spec.width; x++) {
      const colour = ((x + y) >> 5) % 2 === 0 ? a : b;
      const offset = y * rowBytes + 1 + x * 3;
      raw[offset] = colour[0];
      raw[offset + 1] = colour[1];
      raw[offset + 2] = colour[2];
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(spec.width, 0);
  header.writeUInt32BE(spec.height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  header[10] = 0; // compression
  header[11] = 0; // filter method
  header[12] = 0; // no interlace
  const file = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  pngCache.set(key, file);
  return file;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0, 0);
  return Buffer.concat([length, typeAndData, crc]);
}

// ---------------------------------------------------------------------------------------------------------------
// Pages.

const PROMOS: Record<MovingSiteVersion, { title: string; text: string }> = {
  production: { title: 'Spring sale', text: 'Take 15% off all rain jackets until Sunday. No code needed.' },
  changed: { title: 'Spring sale', text: 'Take 25% off all rain jackets and boots until Sunday. No code needed.' },
};

const BASE_STYLE = `
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font-family: "Liberation Sans", sans-serif; font-size: 18px; line-height: 1.5; color: #1d1d1f; background: #ffffff; }
.site-header { background: #241f31; color: #ffffff; padding: 1rem 2rem; }
.site-header a { color: #ffffff; font-weight: bold; text-decoration: none; font-size: 1.25rem; }
.site-header a:hover, .site-header a:focus { text-decoration: underline; }
main { max-width: 60rem; margin: 0 auto; padding: 2rem; }
h1 { font-size: 2.25rem; line-height: 1.2; margin: 0 0 1rem; }
h2 { font-size: 1.5rem; margin: 2rem 0 0.5rem; }
a { color: #1a5fb4; }
.site-footer { border-top: 1px solid #c0bfbc; padding: 1rem 2rem; color: #555555; font-size: 0.875rem; }
`;

interface PageParts {
  title: string;
  head?: string;
  style?: string;
  main: string;
  script?: string;
}

function htmlPage(parts: PageParts): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title} · Harbour Supply Co.</title>
<link rel="icon" href="data:,">${parts.head ? `\n${parts.head}` : ''}
<style>${BASE_STYLE}${parts.style ?? ''}</style>
</head>
<body>
<header class="site-header">
<a href="/">Harbour Supply Co.</a>
</header>
<main id="content">
${parts.main.trim()}
</main>
<footer class="site-footer">
<p>Harbour Supply Co. · Rua do Cais 12, Lisbon · Outdoor clothing and bags since 1987.</p>
</footer>${parts.script ? `\n<script>\n${parts.script.trim()}\n</script>` : ''}
</body>
</html>
`;
}

function notFound(): string {
  return htmlPage({
    title: 'Page not found',
    main: `
<h1>Page not found</h1>
<p>We could not find the page you asked for. It may have moved, or the address may be mistyped.</p>
<p><a href="/">Go to the home page</a></p>`,
  });
}

const TITLES: Record<string, string> = {
  '/': 'Home',
  '/clock': 'Opening hours',
  '/testimonials': 'Testimonials',
  '/carousel': 'Summer collection',
  '/spinner': 'Stock check',
  '/canvas': 'Warehouse activity',
  '/banner': 'Newsletter',
  '/font': 'Our story',
  '/lazy': 'Lookbook',
  '/promo': 'Offers',
  '/server-time': 'Order status',
  '/ab': 'Rain jackets',
  '/price': 'Canvas tote',
};

// A clock as shops put one on a page: tick now, then every second.
const CLOCK_SCRIPT = (timeId: string, dateId?: string): string => `
(function () {
  var time = document.getElementById('${timeId}');
  ${dateId ? `var date = document.getElementById('${dateId}');` : ''}
  function tick() {
    var now = new Date();
    time.textContent = now.toLocaleTimeString('en-GB');
    time.setAttribute('datetime', now.toISOString());
    ${dateId ? `date.textContent = now.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });` : ''}
  }
  tick();
  setInterval(tick, 1000);
})();`;

const PAGES: Record<string, (version: MovingSiteVersion) => string> = {
  '/': () =>
    htmlPage({
      title: TITLES['/'],
      main: `
<h1>Harbour Supply Co.</h1>
<p>Weatherproof clothing, canvas bags and boots for people who work and walk by the sea. Everything we sell is tested on the Lisbon waterfront before it goes into the shop.</p>
<nav aria-label="Shop pages">
<h2>Browse the shop</h2>
<ul>
${MOVING_PAGES.map((page) => `<li><a href="${page.path}"${page.path === '/' ? ' aria-current="page"' : ''}>${TITLES[page.path]}</a></li>`).join('\n')}
</ul>
</nav>
<h2>Free returns</h2>
<p>Return anything within 60 days, worn or not. We repair what we can and donate what we cannot resell.</p>
<h2>Visit us</h2>
<p>Our shop on Rua do Cais is open from Monday to Saturday. Staff are happy to help you choose the right size.</p>`,
    }),

  '/clock': (version) =>
    htmlPage({
      title: TITLES['/clock'],
      style: `
.clock { font-size: 2rem; font-variant-numeric: tabular-nums; margin: 0; }
.clock-date { color: #444444; margin: 0 0 1rem; }`,
      main: `
<h1>Opening hours</h1>
<p>Local time at our Lisbon shop and warehouse:</p>
<p class="clock"><time id="clock-time">--:--:--</time></p>
<p class="clock-date" id="clock-date">&nbsp;</p>
<p id="page-open">Page open for 0 s</p>
<h2>Shop</h2>
<p>Monday to Friday 09:00–19:00, Saturday 10:00–18:00. Closed on Sundays and public holidays.</p>
<h2>Shipping</h2>
<p id="shipping">${
        version === 'changed'
          ? 'Orders placed before 16:00 ship the same day, Saturdays included.'
          : 'Orders placed before 14:00 ship the same working day.'
      }</p>
<p>Parcels within Portugal arrive in one to two working days; within the EU in three to five.</p>`,
      script: `${CLOCK_SCRIPT('clock-time', 'clock-date')}
(function () {
  var open = document.getElementById('page-open');
  setInterval(function () {
    open.textContent = 'Page open for ' + Math.floor(performance.now() / 1000) + ' s';
  }, 1000);
})();`,
    }),

  '/testimonials': (version) =>
    htmlPage({
      title: TITLES['/testimonials'],
      style: `
.team { display: block; margin: 0 0 1rem; }
.testimonials { list-style: none; padding: 0; margin: 0; display: grid; gap: 1rem; }
.testimonials li { border-left: 4px solid #1a5fb4; background: #f6f5f4; padding: 0.75rem 1rem; }
.testimonials blockquote { margin: 0; }
.testimonials p { margin: 0; }
.testimonials .who { color: #444444; font-size: 0.9rem; margin-top: 0.25rem; }`,
      main: `
<h1>What our customers say</h1>
<img class="team" src="/img/team.png" width="400" height="200"${version === 'changed' ? '' : ' alt="Our customer service team at the Lisbon shop"'}>
<p>Thousands of sailors, fishermen, cyclists and dog walkers wear our jackets every day. Here is what a few of them told us.</p>
<ul class="testimonials" id="testimonials">
<li><blockquote><p>“The only jacket that has survived three winters on the trawler.”</p></blockquote><p class="who">Marta, Peniche</p></li>
<li><blockquote><p>“I cycle to work in the rain every day and arrive dry.”</p></blockquote><p class="who">Joost, Rotterdam</p></li>
<li><blockquote><p>“They repaired my bag for free after eight years.”</p></blockquote><p class="who">Aoife, Galway</p></li>
<li><blockquote><p>“Warm, light and the pockets fit a paperback.”</p></blockquote><p class="who">Henrik, Bergen</p></li>
<li><blockquote><p>“Friendly staff who know what they are talking about.”</p></blockquote><p class="who">Inês, Porto</p></li>
</ul>`,
      script: `
(function () {
  var list = document.getElementById('testimonials');
  var items = Array.prototype.slice.call(list.children);
  for (var i = items.length - 1; i > 0; i--) {
    var j = Math.floor(Math.random() * (i + 1));
    var swap = items[i];
    items[i] = items[j];
    items[j] = swap;
  }
  items.forEach(function (item) { list.appendChild(item); });
})();`,
    }),

  '/carousel': (version) =>
    htmlPage({
      title: TITLES['/carousel'],
      style: `
.carousel { position: relative; height: 260px; border-radius: 8px; overflow: hidden; margin: 0 0 1.5rem; }
.slide { position: absolute; inset: 0; padding: 2.5rem; color: #ffffff; }
.slide[hidden] { display: none; }
.slide h2 { margin: 0 0 0.5rem; font-size: 2rem; }
.slide p { font-size: 1.25rem; margin: 0; }
.slide-1 { background: #1e3a5f; }
.slide-2 { background: #6b2d5c; }
.slide-3 { background: #2d5a27; }
.buy { font: inherit; font-weight: bold; color: #ffffff; background: ${version === 'changed' ? '#c01c28' : '#1a5fb4'}; border: 0; border-radius: 6px; padding: 0.75rem 2rem; cursor: pointer; }`,
      main: `
<h1>Summer collection</h1>
<section class="carousel" aria-roledescription="carousel" aria-label="Featured products">
<div class="slide slide-1" role="group" aria-roledescription="slide" aria-label="1 of 3">
<h2>Linen overshirts</h2>
<p>Cool on the quay, warm enough for the evening ferry.</p>
</div>
<div class="slide slide-2" role="group" aria-roledescription="slide" aria-label="2 of 3" hidden>
<h2>Canvas totes</h2>
<p>Waxed cotton that carries a week of groceries.</p>
</div>
<div class="slide slide-3" role="group" aria-roledescription="slide" aria-label="3 of 3" hidden>
<h2>Deck shoes</h2>
<p>Grippy soles for wet boards and cobbled streets.</p>
</div>
</section>
<h2>Harbour linen overshirt</h2>
<p>Washed linen in three colours, with two chest pockets and horn buttons. Sizes XS to XXL.</p>
<p><button type="button" class="buy">Buy now</button></p>`,
      script: `
(function () {
  var slides = document.querySelectorAll('.carousel .slide');
  var current = 0;
  setInterval(function () {
    slides[current].hidden = true;
    current = (current + 1) % slides.length;
    slides[current].hidden = false;
  }, 2500);
})();`,
    }),

  '/spinner': () =>
    htmlPage({
      title: TITLES['/spinner'],
      style: `
.loading { display: flex; align-items: center; gap: 1rem; margin: 1rem 0 2rem; }
.ring { width: 48px; height: 48px; border: 6px solid #deddda; border-top-color: #c64600; border-radius: 50%; animation: spin 1.2s linear infinite; }
@keyframes spin { from { transform: rotate(0deg); } to { transform: rotate(360deg); } }`,
      main: `
<h1>Stock check</h1>
<p>We are asking our shops and the warehouse how many of the Harbour rain jacket are left in your size.</p>
<div class="loading" role="status">
<svg width="64" height="64" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
<circle cx="32" cy="32" r="26" fill="none" stroke="#deddda" stroke-width="6"/>
<path d="M32 6 A26 26 0 0 1 58 32" fill="none" stroke="#1a5fb4" stroke-width="6" stroke-linecap="round">
<animateTransform attributeName="transform" type="rotate" from="0 32 32" to="360 32 32" dur="1s" repeatCount="indefinite"/>
</path>
</svg>
<span>Checking stock in nearby shops…</span>
</div>
<div class="loading">
<div class="ring" aria-hidden="true"></div>
<span>Checking the warehouse…</span>
</div>
<h2>Reserve in a shop</h2>
<p>Once we know where your size is, you can reserve it for 48 hours and try it on before you pay.</p>`,
    }),

  '/canvas': () =>
    htmlPage({
      title: TITLES['/canvas'],
      style: `
canvas { display: block; border: 1px solid #c0bfbc; background: #f6f5f4; max-width: 100%; }`,
      main: `
<h1>Warehouse activity</h1>
<p>Parcels leaving our warehouse right now. Every dot is a parcel on the conveyor.</p>
<canvas id="activity" width="720" height="240" role="img" aria-label="Animation of parcels moving along the conveyor">Parcels moving along the conveyor.</canvas>
<h2>How we pack</h2>
<p>We pack in recycled cardboard and paper tape, and we never add plastic fillers.</p>`,
      script: `
(function () {
  var canvas = document.getElementById('activity');
  var context = canvas.getContext('2d');
  var hue = Math.floor(Math.random() * 360);
  var colour = 'hsl(' + hue + ', 70%, 40%)';
  function draw(timestamp) {
    var width = canvas.width;
    var height = canvas.height;
    context.clearRect(0, 0, width, height);
    context.fillStyle = '#deddda';
    context.fillRect(0, height / 2 + 28, width, 8);
    var x = ((timestamp / 4) % (width + 60)) - 30;
    var y = height / 2 + Math.sin(performance.now() / 300) * 20;
    context.fillStyle = colour;
    context.beginPath();
    context.arc(x, y, 24, 0, Math.PI * 2);
    context.fill();
    requestAnimationFrame(draw);
  }
  requestAnimationFrame(draw);
})();`,
    }),

  '/banner': () =>
    htmlPage({
      title: TITLES['/banner'],
      style: `
.reveal { opacity: 0; transform: translateY(24px); transition: opacity 600ms, transform 600ms; }
.reveal.is-visible { opacity: 1; transform: none; }
.cookie-banner { position: fixed; left: 0; right: 0; bottom: 0; background: #241f31; color: #ffffff; padding: 1rem 2rem; display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; }
.cookie-banner p { margin: 0; flex: 1 1 20rem; }
.cookie-banner button { font: inherit; border-radius: 6px; padding: 0.5rem 1.25rem; cursor: pointer; }
.cookie-banner .accept { background: #ffffff; color: #241f31; border: 2px solid #ffffff; }
.cookie-banner .reject { background: transparent; color: #ffffff; border: 2px solid #ffffff; }`,
      main: `
<h1>Newsletter</h1>
<p>Once a month we write about new products, repairs and the people who make our clothes. No adverts, and you can leave with one click.</p>
<section id="picks" class="reveal" aria-labelledby="picks-heading">
<h2 id="picks-heading">This month’s picks</h2>
<p>A waxed fisherman’s smock, a roll-top bag that floats, and wool socks knitted in the Serra da Estrela.</p>
</section>
<h2>Past issues</h2>
<p>Read our past newsletters about sail-cloth repairs, the history of the oilskin, and how we test zips in salt water.</p>`,
      script: `
window.addEventListener('load', function () {
  setTimeout(function () {
    document.getElementById('picks').classList.add('is-visible');
  }, 100);
  setTimeout(function () {
    if (document.cookie.indexOf('cookie_consent=') !== -1) return;
    var banner = document.createElement('section');
    banner.className = 'cookie-banner';
    banner.setAttribute('aria-label', 'Cookie consent');
    banner.innerHTML =
      '<p>We use cookies to remember your basket and to understand how our shop is used.</p>' +
      '<button type="button" class="accept" data-consent="all">Accept all</button>' +
      '<button type="button" class="reject" data-consent="necessary">Only necessary</button>';
    banner.addEventListener('click', function (event) {
      var choice = event.target.getAttribute('data-consent');
      if (!choice) return;
      document.cookie = 'cookie_consent=' + choice + '; path=/; max-age=31536000; SameSite=Lax';
      banner.remove();
    });
    document.body.appendChild(banner);
  }, 1200);
});`,
    }),

  '/font': () =>
    htmlPage({
      title: TITLES['/font'],
      style: `
@font-face { font-family: "Harbour Display"; src: url("/fonts/display.ttf") format("truetype"); font-display: swap; }
.display { font-family: "Harbour Display", "Liberation Sans", sans-serif; font-size: 3.5rem; font-weight: normal; }`,
      main: `
<h1 class="display">Our story</h1>
<p>Harbour Supply Co. started in 1987 as a stall on the Lisbon docks, selling oilskins to the crews of the cod fleet.</p>
<p>Today we make jackets, bags and boots in small workshops in Portugal and Galicia, and repair anything we have ever sold.</p>
<h2>Made to last</h2>
<p>Every seam is taped, every zip can be replaced, and every product has a repair guide online.</p>`,
    }),

  '/lazy': () =>
    htmlPage({
      title: TITLES['/lazy'],
      style: `
.look { min-height: 950px; padding: 1rem 0; }
.look:last-of-type { min-height: 0; }
.look img { display: block; max-width: 100%; height: auto; }`,
      main: `
<h1>Lookbook</h1>
<p>Four looks for a year by the sea, photographed on the Lisbon waterfront.</p>
${[
  ['Spring', 'Linen overshirt and canvas trousers for mild mornings on the quay.', 'Model in a rust linen overshirt'],
  ['Summer', 'Deck shoes and a roll-top bag for days on the water.', 'Model carrying a purple roll-top bag'],
  ['Autumn', 'A yellow oilskin for the first storms of the season.', 'Model in a yellow oilskin jacket'],
  ['Winter', 'A green wool smock over a fisherman’s jumper.', 'Model in a green wool smock'],
]
  .map(
    ([season, text, alt], index) => `<section class="look" aria-labelledby="look-${index + 1}">
<h2 id="look-${index + 1}">${season}</h2>
<p>${text}</p>
<img src="/img/lookbook-${index + 1}.png" width="400" height="200" loading="lazy" alt="${alt}">
</section>`,
  )
  .join('\n')}
<p>All looks are available in our shop on Rua do Cais and online.</p>`,
    }),

  '/promo': () =>
    htmlPage({
      title: TITLES['/promo'],
      style: `
.promo { border: 2px dashed #c64600; border-radius: 8px; padding: 1rem 1.5rem; margin: 1rem 0 2rem; }
.promo h2 { margin-top: 0; }`,
      main: `
<h1>Offers</h1>
<p>Our current offers in the shop and online. Offers cannot be combined.</p>
<section id="promo" class="promo" aria-live="polite" aria-busy="true" aria-label="Today’s offer">
<p>Loading today’s offer…</p>
</section>
<h2>Members</h2>
<p>Members get free repairs for life and early access to our seasonal sale.</p>`,
      script: `
(function () {
  var box = document.getElementById('promo');
  function render(promo) {
    var title = document.createElement('h2');
    title.textContent = promo.title;
    var text = document.createElement('p');
    text.textContent = promo.text;
    box.replaceChildren(title, text);
    box.setAttribute('aria-busy', 'false');
  }
  setTimeout(function () {
    fetch('/api/promo')
      .then(function (response) { return response.json(); })
      .then(render);
  }, 300);
})();`,
    }),

  '/server-time': (version) =>
    htmlPage({
      title: TITLES['/server-time'],
      head: version === 'changed' ? '<meta name="robots" content="noindex">' : undefined,
      style: `
.meta { color: #555555; font-size: 0.875rem; }`,
      main: `
<h1>Order status</h1>
<p>Enter your order number and email address to see where your parcel is.</p>
<form action="/server-time" method="get">
<p><label for="order">Order number</label><br><input id="order" name="order" type="text" autocomplete="off"></p>
<p><label for="email">Email address</label><br><input id="email" name="email" type="email" autocomplete="email"></p>
<p><button type="submit">Find my order</button></p>
</form>
<p>Most parcels are handed to the carrier on the day they are packed.</p>
<p class="meta">Rendered at ${new Date().toISOString()} · Request ${randomInt(100000, 1000000)}</p>`,
    }),

  '/ab': (version) =>
    htmlPage({
      title: TITLES['/ab'],
      head: `<link rel="canonical" href="${version === 'changed' ? '/ab-new' : '/ab'}">`,
      main: `
<h1 id="headline">Rain jackets built for the Atlantic</h1>
<script>
(function () {
  var headlines = ['Rain jackets built for the Atlantic', 'Stay dry on every coast with our new rain jackets'];
  var variant = Math.random() < 0.5 ? 0 : 1;
  document.getElementById('headline').textContent = headlines[variant];
  document.documentElement.setAttribute('data-experiment-headline', variant === 0 ? 'a' : 'b');
})();
</script>
<p>Three layers of waxed cotton, taped seams and a hood that stays put in a gale.</p>
<h2>Sizes and colours</h2>
<p>From XS to XXL, in navy, ochre and bottle green. Every jacket comes with a free lifetime repair service.</p>`,
    }),

  '/price': () =>
    htmlPage({
      title: TITLES['/price'],
      style: `
.product { display: flex; flex-wrap: wrap; gap: 2rem; align-items: flex-start; }
.price { font-size: 2rem; font-weight: bold; margin: 0.5rem 0; }
.local-time { color: #444444; font-variant-numeric: tabular-nums; }`,
      main: `
<h1>Canvas tote</h1>
<div class="product">
<img src="/img/tote.png" width="400" height="200" alt="A grey waxed-canvas tote bag">
<div>
<p class="price"><span id="price" data-testid="price">€19.99</span></p>
<p>Waxed cotton canvas, leather handles, an inner pocket for keys. 40 × 35 × 12 cm.</p>
<p class="local-time">Lisbon time: <time id="price-clock">--:--:--</time></p>
<p>Order in the next hours and it leaves the warehouse today.</p>
</div>
</div>`,
      script: CLOCK_SCRIPT('price-clock'),
    }),
};
