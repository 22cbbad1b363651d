import type { BrowserContext, Page } from 'playwright-core';

/**
 * Deterministic rendering (decision 0012): every capture's page runs on a virtual clock that starts paused at the
 * request's instant, with `Math.random` seeded the same way. After `load` the clock is run forward in fixed steps
 * (timers, intervals, animation frames and idle callbacks fire in order), waiting for the network whenever a step
 * started requests, until SETTLE_VIRTUAL_MS of page time have passed; then it is held. Two captures of the same page
 * therefore see the same time, the same random numbers and the same number of timer and frame callbacks, whatever
 * the machine's speed. The clock is Playwright's (`context.clock`, fake timers injected before any page script).
 */

/** Page time run after `load` before the page is read: covers late banners, carousels' first turns, fetched content. */
export const SETTLE_VIRTUAL_MS = 5_000;
/** Page time per step; requests a step starts are waited for before the next step. */
const SETTLE_STEP_MS = 1_000;

/** The instant a capture's clock starts at when its caller names none. */
export const DEFAULT_CLOCK_TIME = Date.UTC(2026, 0, 1, 12, 0, 0);

/** The seed of every page's `Math.random` (any fixed value; the same on both sides of a comparison). */
const RANDOM_SEED = 0x5eed_1e55;

/**
 * Replaces `Math.random` in every document of the context with mulberry32, seeded per document, so a page that
 * shuffles, picks a variant or jitters gets the same numbers on every capture. Not a security boundary: pages that
 * need secrets use `crypto`, which is left alone.
 */
const SEEDED_RANDOM = `(() => {
  let state = ${RANDOM_SEED} >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  Object.defineProperty(Math, 'random', { value: random, writable: true, configurable: true });
})();`;

/**
 * Prepares a fresh context for deterministic pages: the clock installed and paused at `clockTime` before any document
 * exists, and the seeded `Math.random`.
 */
export async function makeDeterministic(context: BrowserContext, clockTime: number): Promise<void> {
  await context.addInitScript({ content: SEEDED_RANDOM });
  // pauseAt alone installs the clock: an install() first would let the real time between the two calls leak into
  // every document's performance.now() when Playwright replays them there.
  await context.clock.pauseAt(clockTime);
}

/** Whether the page has had a request in flight or finished one since a mark; see NetworkActivity. */
export interface NetworkSettling {
  /** Resolves once no request has been in flight for `quietMs`, or after `maxMs` either way. */
  settle(quietMs: number, maxMs: number): Promise<void>;
}

/**
 * Runs the page's clock forward SETTLE_VIRTUAL_MS in steps, waiting (within `networkBudgetMs` of real time in all)
 * for the network to go quiet after each. A page's own script errors thrown from its timers are the page's business:
 * the step still ran every timer that was due. Anything else (the page closed, the browser went) is thrown.
 */
export async function settleClock(
  page: Page,
  network: NetworkSettling,
  timing: { quietMs: number; networkBudgetMs: number },
): Promise<void> {
  const deadline = performance.now() + timing.networkBudgetMs;
  for (let ran = 0; ran < SETTLE_VIRTUAL_MS; ran += SETTLE_STEP_MS) {
    await network.settle(timing.quietMs, Math.max(0, deadline - performance.now()));
    try {
      await page.clock.runFor(SETTLE_STEP_MS);
    } catch (error) {
      if (page.isClosed() || !page.context().browser()?.isConnected()) throw error;
      // A timer of the page's threw, or the page navigated itself mid-step: either way the step is done.
    }
  }
  await network.settle(timing.quietMs, Math.max(0, deadline - performance.now()));
}

// The functions below run inside the page (serialized), so they may only use browser globals.

/**
 * Native lazy images and frames load as a person scrolling through the page would see them: a full-page screenshot
 * shows the whole page, and a change far below the fold is as real as one at the top. Their requests are then waited
 * for like any other (settleClock).
 */
export function loadLazyContent(): number {
  const lazy = Array.from(document.querySelectorAll('img[loading="lazy" i], iframe[loading="lazy" i]'));
  for (const element of lazy) element.setAttribute('loading', 'eager');
  return lazy.length;
}

/**
 * Holds what moves outside the page's clock at a fixed frame: each SVG with SMIL animations replaced by a copy without
 * them, so its elements show as authored, and media paused at their first frame. CSS animations and transitions are
 * switched off by the screenshot's own style sheet. A timeline paused and set to 0, or its animation elements
 * removed, still painted a spinner's SVG differently in about one capture in ten on a loaded machine (Chromium 156:
 * the element keeps how it was last painted while moving); a fresh copy painted the same pixels in 160 captures of 160.
 * Only the screenshot and the accessibility scan come after this.
 */
export async function holdTimelines(): Promise<void> {
  for (const svg of Array.from(document.querySelectorAll('svg'))) {
    if (!(svg instanceof SVGSVGElement) || svg.ownerSVGElement !== null) continue;
    const still = svg.cloneNode(true) as SVGSVGElement;
    const animations = Array.from(still.querySelectorAll('*')).filter((node) => node instanceof SVGAnimationElement);
    if (animations.length === 0) continue;
    for (const animation of animations) animation.remove();
    svg.replaceWith(still);
  }
  const seeks: Array<Promise<unknown>> = [];
  for (const media of Array.from(document.querySelectorAll('video, audio'))) {
    if (!(media instanceof HTMLMediaElement)) continue;
    media.pause();
    if (media.currentTime !== 0) {
      seeks.push(new Promise((resolve) => media.addEventListener('seeked', resolve, { once: true })));
      media.currentTime = 0;
    }
  }
  // A seek the media cannot do (no data yet) never fires: bounded.
  if (seeks.length) await Promise.race([Promise.all(seeks), new Promise((resolve) => setTimeout(resolve, 1_000))]);
}
