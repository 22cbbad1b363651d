import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkHttp,
  extractContent,
  isValidCssSelector,
  parseNumber,
  parsePrice,
  type HttpCheckRequest,
  type TrackedValueSpec,
} from './index';

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

const PRODUCT_PAGE = `<!doctype html>
<html>
  <head><title>Shop</title><style>.x { color: red }</style></head>
  <body>
    <h1>Blue   Widget</h1>
    <div class="price">Price: $1,299.00 <s>(was $1,499.00)</s></div>
    <p class="stock">Only <b>12</b> items left</p>
    <p class="label">In stock</p>
    <script>var secret = "script text";</script>
  </body>
</html>`;

const ERROR_PAGE = '<html><body><h1>Service Unavailable</h1><p>Try again later</p></body></html>';

type Handler = (request: IncomingMessage, response: ServerResponse, port: number) => void;

function html(
  response: ServerResponse,
  body: string | Buffer,
  status = 200,
  contentType = 'text/html; charset=utf-8',
): void {
  response.writeHead(status, { 'content-type': contentType });
  response.end(body);
}

function redirect(response: ServerResponse, location: string, status = 302): void {
  response.writeHead(status, { location });
  response.end();
}

const routes: Record<string, Handler> = {
  '/ok': (_request, response) => html(response, PRODUCT_PAGE),
  '/unavailable': (_request, response) => html(response, ERROR_PAGE, 503),
  '/latin1': (_request, response) =>
    html(response, Buffer.from('<p>Café naïve £5</p>', 'latin1'), 200, 'text/html; charset=ISO-8859-1'),
  '/meta-charset': (_request, response) =>
    html(
      response,
      Buffer.from('<html><head><meta charset="iso-8859-1"></head><body>Crème brûlée</body></html>', 'latin1'),
      200,
      'text/html',
    ),
  '/plain': (_request, response) =>
    html(response, 'first  line\n\n  second <b>line</b>\n', 200, 'text/plain; charset=utf-8'),
  '/binary': (_request, response) => html(response, Buffer.from([0, 1, 2, 3, 255]), 200, 'application/octet-stream'),
  '/user-agent': (request, response) => html(response, `<p>${request.headers['user-agent'] ?? ''}</p>`),
  '/big-chunked': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    for (let index = 0; index < 8; index += 1) response.write('x'.repeat(512));
    response.end();
  },
  '/big-declared': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html', 'content-length': 4096 });
    response.end('y'.repeat(4096));
  },
  '/big-unavailable': (_request, response) => {
    response.writeHead(503, { 'content-type': 'text/html', 'content-length': 4096 });
    response.end('z'.repeat(4096));
  },
  '/hang': () => {
    // Never answers: the check must give up on its own.
  },
  '/stall-body': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.write('<p>partial');
  },
  '/to-private': (_request, response) => redirect(response, 'http://10.0.0.1/admin'),
  '/to-localhost': (_request, response, port) => redirect(response, `http://localhost:${port}/ok`),
  '/to-ipv6-loopback': (_request, response, port) => redirect(response, `http://[::1]:${port}/ok`),
  '/to-file': (_request, response) => redirect(response, 'file:///etc/passwd'),
};

let server: Server;
let port: number;
const hits: string[] = [];

function urlOf(path: string): string {
  return `http://127.0.0.1:${port}${path}`;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.push(path);
    // /hops/N redirects N times, with relative Locations, before serving the product page.
    const hops = /^\/hops\/(\d+)$/.exec(path);
    if (hops) {
      const remaining = Number(hops[1]);
      if (remaining === 0) html(response, PRODUCT_PAGE);
      else redirect(response, String(remaining - 1), remaining % 2 === 0 ? 301 : 307);
      return;
    }
    const handler = routes[path];
    if (handler) handler(request, response, port);
    else html(response, 'not found', 404);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

function check(path: string, overrides: Partial<HttpCheckRequest> = {}): ReturnType<typeof checkHttp> {
  return checkHttp({
    url: urlOf(path),
    expectations: { statusMin: 200, statusMax: 399 },
    timeoutMs: 2000,
    allowPrivate: true,
    ...overrides,
  });
}

describe('checkHttp', () => {
  it('passes a 200 page whose text contains the keyword', async () => {
    const result = await check('/ok', { expectations: { statusMin: 200, statusMax: 399, keyword: 'Blue Widget' } });
    expect(result).toMatchObject({ ok: true, failure: null, message: null, statusCode: 200, finalUrl: urlOf('/ok') });
    expect(Number.isInteger(result.responseTimeMs)).toBe(true);
    expect(result.content?.text).toBe('Blue Widget\nPrice: $1,299.00 (was $1,499.00)\nOnly 12 items left\nIn stock');
    expect(result.content?.contentHash).toBe(sha256(result.content?.text ?? ''));
    expect(result.content?.selectorMatched).toBeNull();
  });

  it('fails with keyword_missing when the keyword is absent (case-sensitive)', async () => {
    const result = await check('/ok', { expectations: { statusMin: 200, statusMax: 399, keyword: 'blue widget' } });
    expect(result).toMatchObject({ ok: false, failure: 'keyword_missing', statusCode: 200 });
    expect(result.message).toBe('keyword "blue widget" not found');
    expect(result.content).not.toBeNull();
  });

  it('does not find keywords inside scripts or styles', async () => {
    const result = await check('/ok', { expectations: { statusMin: 200, statusMax: 399, keyword: 'script text' } });
    expect(result.failure).toBe('keyword_missing');
  });

  it('fails a 503 on status but still extracts its body, before any keyword check', async () => {
    const result = await check('/unavailable', {
      expectations: { statusMin: 200, statusMax: 399, keyword: 'nowhere' },
      extract: { selector: '.nowhere' },
    });
    expect(result).toMatchObject({
      ok: false,
      failure: 'status',
      statusCode: 503,
      message: 'HTTP 503 is outside 200–399',
    });
    expect(result.content).toMatchObject({ selectorMatched: false, text: '' });
  });

  it('extracts the body of a failing status when no selector is given', async () => {
    const result = await check('/unavailable');
    expect(result.failure).toBe('status');
    expect(result.content?.text).toBe('Service Unavailable\nTry again later');
  });

  it('scopes the text to the selector', async () => {
    const result = await check('/ok', {
      expectations: { statusMin: 200, statusMax: 399, keyword: '12 items' },
      extract: { selector: 'p' },
    });
    expect(result.ok).toBe(true);
    expect(result.content).toMatchObject({ selectorMatched: true, text: 'Only 12 items left\nIn stock' });
  });

  it('fails with selector_missing before keyword_missing when the selector matches nothing', async () => {
    const result = await check('/ok', {
      expectations: { statusMin: 200, statusMax: 399, keyword: 'Blue' },
      extract: { selector: '#missing' },
    });
    expect(result).toMatchObject({
      ok: false,
      failure: 'selector_missing',
      message: 'selector "#missing" matched nothing',
    });
    expect(result.content).toMatchObject({ selectorMatched: false, text: '' });
  });

  it('reads tracked values', async () => {
    const trackedValues: TrackedValueSpec[] = [
      { name: 'price', selector: '.price', kind: 'price' },
      { name: 'stock', selector: '.stock b', kind: 'number' },
      { name: 'label', selector: '.label', kind: 'text' },
      { name: 'gone', selector: '.gone', kind: 'price' },
      { name: 'bad', selector: 'p >', kind: 'number' },
    ];
    const result = await check('/ok', { extract: { trackedValues } });
    expect(result.content?.trackedValues).toEqual([
      { name: 'price', kind: 'price', raw: 'Price: $1,299.00 (was $1,499.00)', amount: 1299, currency: 'USD' },
      { name: 'stock', kind: 'number', raw: '12', amount: 12, currency: null },
      { name: 'label', kind: 'text', raw: 'In stock', amount: null, currency: null },
      { name: 'gone', kind: 'price', raw: null, amount: null, currency: null },
      { name: 'bad', kind: 'number', raw: null, amount: null, currency: null },
    ]);
  });

  it('follows relative redirects up to maxRedirects', async () => {
    const result = await check('/hops/5');
    expect(result).toMatchObject({ ok: true, statusCode: 200, finalUrl: urlOf('/hops/0') });
  });

  it('fails with too_many_redirects beyond maxRedirects', async () => {
    const result = await check('/hops/3', { maxRedirects: 2 });
    expect(result).toMatchObject({
      ok: false,
      failure: 'too_many_redirects',
      statusCode: 307,
      finalUrl: urlOf('/hops/1'),
      content: null,
    });
    expect((await check('/hops/6')).failure).toBe('too_many_redirects');
  });

  it('sends the user agent', async () => {
    expect((await check('/user-agent')).content?.text).toBe('Mozilla/5.0 (compatible; VigilMonitor/1)');
    expect((await check('/user-agent', { userAgent: 'Probe/2' })).content?.text).toBe('Probe/2');
  });

  describe('SSRF guard', () => {
    const onlyFirstServer = (ip: string): boolean => ip === '127.0.0.1';

    it('refuses a loopback URL without connecting', async () => {
      const before = hits.length;
      const result = await check('/ok', { allowPrivate: false });
      expect(result).toMatchObject({ ok: false, failure: 'target_not_public', statusCode: null, content: null });
      expect(result.message).toContain('127.0.0.1 is not a public address');
      expect(hits.length).toBe(before);
    });

    it('refuses a host that resolves to a private address', async () => {
      const result = await checkHttp({
        url: 'http://public.test/',
        expectations: { statusMin: 200, statusMax: 399 },
        timeoutMs: 2000,
        lookup: () => Promise.resolve(['10.0.0.1']),
      });
      expect(result).toMatchObject({ failure: 'target_not_public', finalUrl: 'http://public.test/' });
    });

    it('reports a host the guard cannot resolve as a network failure', async () => {
      const result = await checkHttp({
        url: 'http://public.test/',
        expectations: { statusMin: 200, statusMax: 399 },
        timeoutMs: 2000,
        lookup: () => Promise.reject(new Error('NXDOMAIN')),
      });
      expect(result.failure).toBe('network');
      expect(result.message).toContain('NXDOMAIN');
    });

    it.each([
      ['/to-private', 'http://10.0.0.1/admin'],
      ['/to-localhost', 'http://localhost:PORT/ok'],
      ['/to-ipv6-loopback', 'http://[::1]:PORT/ok'],
      ['/to-file', 'file:///etc/passwd'],
    ])('refuses a redirect hop from an allowed first URL (%s)', async (path, target) => {
      const started = Date.now();
      const result = await check(path, { allowPrivate: false, isAllowedAddress: onlyFirstServer });
      const refused = target.replace('PORT', String(port));
      expect(result).toMatchObject({ ok: false, failure: 'target_not_public', finalUrl: refused, content: null });
      expect(result.message).toMatch(new RegExp(`^redirect to ${refused.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
      // 10.0.0.1 is unroutable here: connecting would have run into the timeout.
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('connects to the address the guard checked, resolving the host once (no rebinding window)', async () => {
      // Only this lookup knows the name, so reaching the server proves the socket used the checked answer.
      let lookups = 0;
      const result = await checkHttp({
        url: `http://rebind.test:${port}/ok`,
        expectations: { statusMin: 200, statusMax: 399 },
        timeoutMs: 2000,
        isAllowedAddress: onlyFirstServer,
        lookup: () => {
          lookups += 1;
          return Promise.resolve(['127.0.0.1']);
        },
      });
      expect(result.ok).toBe(true);
      expect(lookups).toBe(1);
    });

    it('lets the test predicate treat the first server as public', async () => {
      const result = await check('/ok', { allowPrivate: false, isAllowedAddress: onlyFirstServer });
      expect(result.ok).toBe(true);
    });
  });

  it('times out on a server that never answers', async () => {
    const result = await check('/hang', { timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, failure: 'timeout', statusCode: null, content: null });
    expect(result.message).toBe('no complete response within 300 ms');
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(280);
    expect(result.responseTimeMs).toBeLessThan(1500);
  });

  it('times out on a body that stops arriving', async () => {
    const result = await check('/stall-body', { timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, failure: 'timeout', statusCode: 200, content: null });
  });

  it('fails with too_large when the body exceeds maxBytes', async () => {
    expect(await check('/big-chunked', { maxBytes: 1024 })).toMatchObject({
      ok: false,
      failure: 'too_large',
      statusCode: 200,
      message: 'response body exceeds 1024 bytes',
      content: null,
    });
    expect((await check('/big-declared', { maxBytes: 1024 })).failure).toBe('too_large');
    expect((await check('/big-chunked', { maxBytes: 4096 })).ok).toBe(true);
  });

  it('reports a bad status rather than a large body', async () => {
    const result = await check('/big-unavailable', { maxBytes: 1024 });
    expect(result).toMatchObject({ failure: 'status', statusCode: 503, content: null });
  });

  it('fails with network when the connection is refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await checkHttp({
      url: `http://127.0.0.1:${closedPort}/`,
      expectations: { statusMin: 200, statusMax: 399 },
      timeoutMs: 2000,
      allowPrivate: true,
    });
    expect(result).toMatchObject({ ok: false, failure: 'network', statusCode: null, content: null });
    expect(result.message).toContain('ECONNREFUSED');
  });

  it('decodes the body with the Content-Type charset', async () => {
    const result = await check('/latin1', {
      extract: { trackedValues: [{ name: 'price', selector: 'p', kind: 'price' }] },
    });
    expect(result.content?.text).toBe('Café naïve £5');
    expect(result.content?.trackedValues[0]).toMatchObject({ amount: 5, currency: 'GBP' });
  });

  it('falls back to a <meta> charset when the header has none', async () => {
    expect((await check('/meta-charset')).content?.text).toBe('Crème brûlée');
  });

  it('keeps the lines of plain-text bodies without parsing them as HTML', async () => {
    const result = await check('/plain', { extract: { selector: 'b' } });
    expect(result.content).toMatchObject({ text: 'first line\nsecond <b>line</b>', selectorMatched: false });
    expect(result.failure).toBe('selector_missing');
  });

  it('hashes the bytes of a non-text body', async () => {
    const result = await check('/binary');
    expect(result.ok).toBe(true);
    expect(result.content).toMatchObject({ text: '', contentHash: sha256(Buffer.from([0, 1, 2, 3, 255])) });
  });
});

describe('extractContent', () => {
  it('excludes script, style, noscript, template, head and hidden content', () => {
    const content = extractContent(`<html><head><title>T</title><style>p{}</style></head><body>
      <p>Visible</p><script>alert(1)</script><noscript>Enable JS</noscript>
      <template><p>tpl</p></template><div hidden>secret</div><!-- comment --></body></html>`);
    expect(content.text).toBe('Visible');
  });

  it('puts block elements on their own lines and keeps inline ones together', () => {
    const content = extractContent(
      '<div>One <b>two</b><i>three</i></div><ul><li>a</li><li>b<br>c</li></ul><table><tr><td>x</td><td>y</td></tr></table><pre>p  1\np 2</pre>',
    );
    expect(content.text).toBe('One twothree\na\nb\nc\nx y\np 1\np 2');
  });

  it('gives identical text and hash for identical HTML and for whitespace-only layout changes', () => {
    const compact = '<body><h1>Title</h1><p>Some text here.</p><ul><li>A</li><li>B</li></ul></body>';
    const spread = `<body>
        <h1>
          Title
        </h1>
        <p>Some    text
           here.</p>


        <ul>
          <li>A</li>
          <li>  B  </li>
        </ul>
      </body>`;
    expect(extractContent(compact)).toEqual(extractContent(compact));
    expect(extractContent(spread).text).toBe(extractContent(compact).text);
    expect(extractContent(spread).contentHash).toBe(extractContent(compact).contentHash);
    expect(extractContent(compact.replace('text', 'test')).contentHash).not.toBe(extractContent(compact).contentHash);
  });

  it('joins the text of every match, without repeating nested matches', () => {
    const content = extractContent(
      '<div class="a">one<div class="a">two</div></div><p>skip</p><div class="a">three</div>',
      {
        selector: '.a',
      },
    );
    expect(content).toMatchObject({ text: 'one\ntwo\nthree', selectorMatched: true });
  });

  it('matches nothing, rather than throwing, for an invalid selector', () => {
    expect(extractContent('<p>x</p>', { selector: 'p[' })).toMatchObject({ text: '', selectorMatched: false });
  });

  it('hashes the empty text of an empty document', () => {
    expect(extractContent('')).toMatchObject({
      text: '',
      selectorMatched: null,
      contentHash: sha256(''),
      trackedValues: [],
    });
  });

  it('reads a tracked value from a content attribute when the element has no text', () => {
    const content = extractContent('<meta itemprop="price" content="19.99"><span class="empty"></span>', {
      trackedValues: [
        { name: 'meta', selector: 'meta[itemprop=price]', kind: 'number' },
        { name: 'empty', selector: '.empty', kind: 'price' },
      ],
    });
    expect(content.trackedValues).toEqual([
      { name: 'meta', kind: 'number', raw: '19.99', amount: 19.99, currency: null },
      { name: 'empty', kind: 'price', raw: '', amount: null, currency: null },
    ]);
  });
});

describe('isValidCssSelector', () => {
  it.each([
    'p',
    '.price > span',
    '#a.b ~ c + d',
    'div:nth-child(2n+1)',
    'p:contains("x")',
    'a, b',
    '[data-x="1"]',
    ':is(p)',
  ])('accepts %s', (selector) => expect(isValidCssSelector(selector)).toBe(true));

  it.each(['', '   ', 'p[', 'p,', 'div >', 'p::before', 'p:unknown-pseudo', 'p{}', 'p)'])('refuses %j', (selector) =>
    expect(isValidCssSelector(selector)).toBe(false),
  );
});

describe('parsePrice', () => {
  it.each<[string, number, string | null]>([
    ['$1,299.00', 1299, 'USD'],
    ['1.299,00 €', 1299, 'EUR'],
    ['£12', 12, 'GBP'],
    ['€ 9,99', 9.99, 'EUR'],
    ['USD 45.50', 45.5, 'USD'],
    ['1 299,50 zł', 1299.5, 'PLN'],
    ["CHF 1'299.90", 1299.9, 'CHF'],
    ['Price: $19.99 (was $24.99)', 19.99, 'USD'],
    ['¥1,500', 1500, 'JPY'],
    ['45.50 EUR', 45.5, 'EUR'],
    ['2 for $10', 10, 'USD'],
    ['1,299', 1299, null],
    ['1.299', 1299, null],
    ['1,29', 1.29, null],
    ['0.125', 0.125, null],
    ['1.234.567,891', 1234567.891, null],
    ['SHOP ALL 20', 20, null],
    ['0.1', 0.1, null],
    ['12.34567', 12.3457, null],
  ])('%s → %d %s', (text, amount, currency) => {
    expect(parsePrice(text)).toEqual({ amount, currency });
  });

  it.each(['', 'Sold out', '$', 'Call for price'])('returns null for %j', (text) => {
    expect(parsePrice(text)).toBeNull();
  });
});

describe('parseNumber', () => {
  it.each<[string, number]>([
    ['1,234', 1234],
    ['1.234,5', 1234.5],
    ['-3.5', -3.5],
    ['\u22123.5', -3.5],
    ['42%', 42],
    ['12 items', 12],
    ['Only 3 left', 3],
    ['1 234 567', 1234567],
    ['COVID-19', 19],
    ['+7', 7],
    ['rated 4.5 of 5', 4.5],
  ])('%s → %d', (text, value) => {
    expect(parseNumber(text)).toBe(value);
  });

  it.each(['', 'none', '-', '.'])('returns null for %j', (text) => {
    expect(parseNumber(text)).toBeNull();
  });
});
