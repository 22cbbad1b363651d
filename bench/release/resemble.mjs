// bench:release phase 4: resemblejs as the service runs it, compareScreenshots (dist/libs/compare, resemblejs in a
// worker thread) on two 1440×900 screenshots that differ a little, BENCH_RESEMBLE_RUNS times after one warm-up; and,
// for reference, resemblejs.compare called directly on this thread.

import { percentile } from '../lib/common.mjs';
import { seeded, sentence } from './pages.mjs';
import { COMPARE_LIB, require, settings } from './settings.mjs';

/** Ends the comparison worker thread if it was started (cleanup). */
export async function closeCompareWorker() {
  try {
    const { closeScreenshotWorker } = require(COMPARE_LIB);
    await closeScreenshotWorker();
  } catch {
    // never loaded
  }
}

/** Phase 4 on `pair` ([production, preview] PNGs from phase 2), or on two drawn with canvas when there is none. */
export async function runResemble(pair) {
  const { createCanvas, loadImage } = require('canvas');
  const resemble = require('resemblejs');
  const { compareScreenshots, closeScreenshotWorker, readPngSize } = require(COMPARE_LIB);
  let [production, preview] = pair ?? [];
  if (!production || !preview) {
    // Fallback: draw two 1440×900 images with canvas that differ in one line of text.
    const draw = (extra) => {
      const canvas = createCanvas(1440, 900);
      const context = canvas.getContext('2d');
      context.fillStyle = '#fff';
      context.fillRect(0, 0, 1440, 900);
      context.fillStyle = '#1d2733';
      context.font = '18px sans-serif';
      for (let line = 0; line < 40; line++)
        context.fillText(`${sentence(seeded(line + 1))}${line === 7 ? extra : ''}`, 40, 40 + line * 21);
      return canvas.toBuffer('image/png');
    };
    [production, preview] = [draw(''), draw(' (changed)')];
  }
  const size = readPngSize(production);
  await loadImage(production); // the images decode
  try {
    const warm = await compareScreenshots(production, preview);
    const times = [];
    for (let run = 0; run < settings.resembleRuns; run++) {
      const began = performance.now();
      await compareScreenshots(production, preview);
      times.push(performance.now() - began);
    }
    // For reference: resemblejs called directly on this thread, same options, no worker hop.
    const direct = [];
    const options = { output: { errorType: 'movement', largeImageThreshold: 0 }, ignore: 'antialiasing' };
    for (let run = 0; run < Math.min(5, settings.resembleRuns); run++) {
      const began = performance.now();
      await new Promise((resolveCompare, reject) =>
        resemble.compare(production, preview, options, (error, data) => {
          if (error) reject(error);
          else {
            data.getBuffer(false);
            resolveCompare();
          }
        }),
      );
      direct.push(performance.now() - began);
      await new Promise((resolveTurn) => setImmediate(resolveTurn)); // canvas frees memory after a turn
    }
    times.sort((a, b) => a - b);
    direct.sort((a, b) => a - b);
    return {
      size,
      mismatch: warm.mismatch_ratio,
      median: percentile(times, 50),
      min: times[0],
      max: times.at(-1),
      directMedian: percentile(direct, 50),
    };
  } finally {
    await closeScreenshotWorker();
  }
}
