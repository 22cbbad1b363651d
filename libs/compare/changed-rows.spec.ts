import { createCanvas, type CanvasRenderingContext2D, type PngConfig } from 'canvas';
import { closeScreenshotWorker, runResemble } from './screenshot-worker';
import { compareScreenshots } from './screenshots';

// Comparing only the rows that differ must give exactly what comparing every row gives: the same mismatch ratio and
// the same diff image, byte for byte. Each case draws a page-like image (antialiased text, rules, blocks) and a
// changed copy, and compares them both ways.

type Draw = (context: CanvasRenderingContext2D, width: number, height: number) => void;

/** A line of text redrawn: some tens of rows, whatever the font's exact metrics. */
const EXPECT_SMALL_BAND = -1;

function page(width: number, height: number, change?: Draw, compression: PngConfig['compressionLevel'] = 6): Buffer {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#123c69';
  context.fillRect(0, 0, width, 48);
  context.fillStyle = '#1d2733';
  context.font = '16px sans-serif';
  for (let line = 0; line * 22 + 80 < height - 10; line++) {
    context.fillText(`Line ${line}: release preview production monitor capture screenshot`, 24, 80 + line * 22);
  }
  context.strokeStyle = '#d5dde5';
  context.strokeRect(12.5, 60.5, width - 25, height - 72);
  change?.(context, width, height);
  return canvas.toBuffer('image/png', { compressionLevel: compression });
}

/** Each case, and how many rows comparing only the changed ones looks at (all of them when that saves nothing). */
const CASES: Record<
  string,
  { width: number; height: number; change: Draw; previewHeight?: number; comparedRows: number }
> = {
  'a changed word mid-page': {
    width: 1440,
    height: 1800,
    change: (context) => {
      context.fillStyle = '#fff';
      context.fillRect(24, 700, 300, 24);
      context.fillStyle = '#1d2733';
      context.fillText('Line 28: rollout', 24, 718);
    },
    comparedRows: EXPECT_SMALL_BAND,
  },
  'the first row': {
    width: 390,
    height: 2400,
    change: (context) => {
      context.fillStyle = '#fff';
      context.fillRect(100, 0, 40, 3);
    },
    comparedRows: 5,
  },
  'the last row': {
    width: 390,
    height: 2400,
    change: (context, width, height) => {
      context.fillStyle = '#f0f';
      context.fillRect(200, height - 1, 40, 1);
    },
    comparedRows: 3,
  },
  'the first and the last column (a row wraps into the next)': {
    width: 390,
    height: 2400,
    change: (context, width) => {
      context.fillStyle = '#e00';
      context.fillRect(0, 500, 1, 3);
      context.fillRect(width - 1, 520, 1, 3);
    },
    comparedRows: 27,
  },
  'antialiased edges only': {
    width: 800,
    height: 1200,
    change: (context) => {
      context.fillStyle = '#fff';
      context.fillRect(24, 300, 700, 30);
      context.fillStyle = '#1d2733';
      context.fillText('Line 10: release preview production monitor capture screenshot', 24.4, 318.3);
    },
    comparedRows: EXPECT_SMALL_BAND,
  },
  'two changes far apart': {
    width: 1440,
    height: 3000,
    change: (context) => {
      context.fillStyle = '#0a0';
      context.fillRect(300, 900, 200, 10);
      context.fillRect(900, 1500, 200, 10);
    },
    comparedRows: 614,
  },
  'most of the page': {
    width: 800,
    height: 1000,
    change: (context) => {
      context.fillStyle = 'rgba(200, 0, 0, 0.3)';
      context.fillRect(0, 100, 800, 800);
    },
    comparedRows: 1000,
  },
  'a taller preview': {
    width: 800,
    height: 1000,
    previewHeight: 1100,
    change: () => undefined,
    comparedRows: 1100,
  },
};

afterAll(async () => {
  await closeScreenshotWorker();
});

describe('comparing only the rows that differ', () => {
  for (const [name, spec] of Object.entries(CASES)) {
    it(`${name}: the same ratio and diff image as comparing every row`, async () => {
      const production = page(spec.width, spec.height);
      const preview = page(spec.width, spec.previewHeight ?? spec.height, spec.change);
      const rows = await compareScreenshots(production, preview);
      const every = await compareScreenshots(production, preview, { onlyChangedRows: false });
      expect(every.mismatch_ratio).toBeGreaterThan(0);
      expect(rows.mismatch_ratio).toBe(every.mismatch_ratio);
      expect(rows.changed).toBe(every.changed);
      expect(rows.diff_png).not.toBeNull();
      expect(rows.diff_png?.equals(every.diff_png as Buffer)).toBe(true);
      const { comparedRows } = await runResemble(production, preview);
      if (spec.comparedRows === EXPECT_SMALL_BAND) expect(comparedRows).toBeLessThan(60);
      else expect(comparedRows).toBe(spec.comparedRows);
    });
  }

  it('finds no difference between differently encoded copies of the same pixels, either way', async () => {
    const production = page(1440, 1200, undefined, 9);
    const preview = page(1440, 1200, undefined, 0);
    expect(production.equals(preview)).toBe(false);
    for (const onlyChangedRows of [true, false]) {
      expect(await compareScreenshots(production, preview, { onlyChangedRows })).toMatchObject({
        mismatch_ratio: 0,
        changed: false,
        diff_png: null,
      });
    }
  });
});
