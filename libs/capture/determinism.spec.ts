import { MOVING_PAGES, type MovingSite, startMovingSite } from '../../test/support/moving-site';
import { CaptureEngine, type CapturedPage, type CaptureResult } from './index';

// Real Chromium against the moving site: every kind of motion a page has on its own (clocks, shuffles, timers,
// canvas, SMIL, late banners, transitions, late fonts, lazy images, fetched content, client-side A/B tests).

function captured(result: CaptureResult): CapturedPage {
  if (!result.ok) throw new Error(`${result.url}: ${result.reason} ${result.message}`);
  return result;
}

describe('deterministic rendering', () => {
  let site: MovingSite;
  let engine: CaptureEngine;

  beforeAll(async () => {
    site = await startMovingSite();
    engine = new CaptureEngine({ allowPrivateTargets: true });
  });

  afterAll(async () => {
    await engine.close();
    await site.close();
  });

  // Server-side volatility cannot be held by the browser; the stable/unstable pass classifies it (stability.spec.ts).
  const heldInTheBrowser = MOVING_PAGES.filter(({ path }) => path !== '/server-time');

  it.each(heldInTheBrowser)('two captures of $path ($motion) give the same PNG bytes and text', async ({ path }) => {
    const request = { url: `${site.url}${path}`, viewport: 'desktop' as const, accessibilityScan: false };
    const first = captured(await engine.capture(request));
    const second = captured(await engine.capture(request));
    expect(second.text).toBe(first.text);
    expect(second.screenshot.equals(first.screenshot)).toBe(true);
  });

  it('renders what arrives after load: the late banner, fetched content and the clock run forward, then held', async () => {
    const clockTime = Date.UTC(2026, 5, 1, 9, 30, 0);
    const read = async (path: string) =>
      captured(await engine.capture({ url: `${site.url}${path}`, viewport: 'desktop', clockTime, screenshot: false }))
        .text;
    expect(await read('/banner')).toMatch(/cookie/i);
    expect(await read('/promo')).toMatch(/15% off/);
    // Five seconds of page time after load, from the capture's own instant.
    expect(await read('/clock')).toMatch(/09:30:0[5-6]/);
  });

  it('seeds Math.random the same way on every capture, so a shuffle or an A/B choice repeats', async () => {
    const texts = new Set<string>();
    for (let look = 0; look < 3; look++) {
      const result = captured(
        await engine.capture({ url: `${site.url}/testimonials`, viewport: 'mobile', screenshot: false }),
      );
      texts.add(result.text);
    }
    expect(texts.size).toBe(1);
  });

  it('records what the content came from, and asks the server again for the cheap second look', async () => {
    const look = async (path: string) =>
      captured(
        await engine.capture({
          url: `${site.url}${path}`,
          viewport: 'desktop',
          screenshot: false,
          recordResponses: true,
        }),
      );
    const promo = await look('/promo');
    expect(promo.responses?.map((response) => new URL(response.url).pathname)).toEqual(['/promo', '/api/promo']);
    expect(await engine.sameAnswersAgain(promo.responses!, promo.user_agent)).toBe(true);
    // The server renders a timestamp into the page: asked again, it answers differently.
    const serverTime = await look('/server-time');
    expect(await engine.sameAnswersAgain(serverTime.responses!, serverTime.user_agent)).toBe(false);
  });
});
