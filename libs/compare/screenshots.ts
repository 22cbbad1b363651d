import { runResemble } from './screenshot-worker';
import type { CompareOptions, ImageSize, ScreenshotComparison } from './types';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** cairo (behind canvas) cannot hold a larger surface; resemblejs would fail with an obscure message. */
export const MAX_SCREENSHOT_DIMENSION = 32767;

/** Width and height from a PNG's IHDR chunk (bytes 16–23), without decoding it. */
export function readPngSize(png: Buffer): ImageSize {
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG image');
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Pixel comparison of two PNG screenshots with resemblejs (in a worker thread, see screenshot-worker.ts). Images of
 * different sizes are compared on the larger width × larger height with the missing area counted as differing, so a
 * page that grew by 10% in height scores at least ~0.09.
 */
export async function compareScreenshots(
  production: Buffer,
  preview: Buffer,
  options: CompareOptions = {},
): Promise<ScreenshotComparison> {
  const threshold = options.mismatchThreshold ?? 0;
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError('mismatchThreshold must be between 0 and 1');
  const sizes = {
    production_size: checkedSize(production, 'production'),
    preview_size: checkedSize(preview, 'preview'),
  };

  // Byte-identical screenshots cannot differ: skip decoding two PNGs.
  if (production.equals(preview)) return { mismatch_ratio: 0, changed: false, ...sizes, diff_png: null };

  const outcome = await runResemble(production, preview, options.onlyChangedRows ?? true, options.ignoreRegions);
  const ratio = Math.min(1, Math.max(0, outcome.mismatchPercentage / 100));
  // A ratio of 0 here means differently encoded PNGs of the same pixels: nothing to show.
  return { mismatch_ratio: ratio, changed: ratio > threshold, ...sizes, diff_png: ratio > 0 ? outcome.diffPng : null };
}

function checkedSize(png: Buffer, side: string): ImageSize {
  let size: ImageSize;
  try {
    size = readPngSize(png);
  } catch {
    throw new Error(`${side} screenshot is not a PNG image`);
  }
  if (size.width > MAX_SCREENSHOT_DIMENSION || size.height > MAX_SCREENSHOT_DIMENSION) {
    throw new RangeError(
      `${side} screenshot is ${size.width}×${size.height} px; at most ${MAX_SCREENSHOT_DIMENSION} px per side can be compared`,
    );
  }
  return size;
}
