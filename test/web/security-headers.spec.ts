import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';
import { ensureWebBuild, WEB } from './web-build';

/*
 * Every response of the web interface (index.html, a deep link's fallback, a built asset) carries the security
 * headers: a strict Content-Security-Policy, no framing, no MIME sniffing, no referrer. The API sets its own.
 */

describe('web interface security headers', () => {
  let service: TestApp;
  let asset: string;

  beforeAll(async () => {
    ensureWebBuild();
    const index = readFileSync(join(WEB, 'dist', 'index.html'), 'utf8');
    asset = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(index)![1];
    service = await startTestApp({ ROLE: 'api' });
  }, 120_000);

  afterAll(async () => {
    await service?.close();
  });

  const get = (path: string) => fetch(`${service.baseUrl}${path}`);

  function policy(header: string | null): Record<string, string> {
    return Object.fromEntries(
      (header ?? '')
        .split(';')
        .map((part) => part.trim())
        .filter(Boolean)
        .map((part) => {
          const [name, ...values] = part.split(/\s+/);
          return [name, values.join(' ')];
        }),
    );
  }

  it.each([
    ['the start page', '/', 'text/html'],
    ['a deep link', '/release-checks', 'text/html'],
    ['a deep link with an id', '/release-checks/0b9f3c1e-2a4d-4c7e-9f00-1d2e3f4a5b6c', 'text/html'],
    ['a built script', 'ASSET', 'javascript'],
    ['the icon', '/favicon.svg', 'image/svg+xml'],
  ])('%s is served with a strict CSP, no framing, nosniff and no referrer', async (_name, path, type) => {
    const response = await get(path === 'ASSET' ? asset : path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain(type);
    const csp = policy(response.headers.get('content-security-policy'));
    expect(csp).toMatchObject({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
    });
    // Nothing inline may run or style, whatever else the policy allows.
    expect(Object.values(csp).join(' ')).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    // Without PUBLIC_URL the service cannot tell it is reached over https, so no HSTS.
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('the index holds no inline script or style for the policy to refuse', async () => {
    const html = await (await get('/')).text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style[\s>]|\sstyle="/);
  });

  it('the API keeps its own headers: no interface policy on JSON', async () => {
    const response = await get('/api/v1/users/me');
    expect(response.status).toBe(401);
    expect(response.headers.get('content-security-policy')).toBeNull();
  });

  it('sends HSTS on the interface and the public status page when PUBLIC_URL is https, and only then', async () => {
    const secure = await startTestApp({ ROLE: 'api', PUBLIC_URL: 'https://vigil.example.com/' });
    try {
      for (const path of ['/', '/release-checks', '/status/-/status.css']) {
        const response = await fetch(`${secure.baseUrl}${path}`);
        expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      }
      expect((await fetch(`${secure.baseUrl}/api/v1/users/me`)).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await secure.close();
    }
    const plain = await startTestApp({ ROLE: 'api', PUBLIC_URL: 'http://vigil.internal' });
    try {
      expect((await fetch(`${plain.baseUrl}/`)).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
