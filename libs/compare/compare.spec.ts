import { createCanvas, loadImage, type PngConfig } from 'canvas';
import {
  closeScreenshotWorker,
  compareCanonical,
  compareEvidence,
  compareFindings,
  compareRobots,
  compareScreenshots,
  compareText,
  differenceByFingerprint,
  fingerprint,
  placeFindings,
  MAX_TEXT_DIFF_LINES,
  readPngSize,
  type Finding,
  type SideEvidence,
} from './index';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Square {
  x: number;
  y: number;
  size: number;
}

/** A white PNG, optionally with one black square. */
function drawPng(
  width: number,
  height: number,
  square?: Square,
  compressionLevel: PngConfig['compressionLevel'] = 6,
): Buffer {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  if (square) {
    context.fillStyle = '#000000';
    context.fillRect(square.x, square.y, square.size, square.size);
  }
  return canvas.toBuffer('image/png', { compressionLevel });
}

function finding(rule_id: string, target: string, impact: Finding['impact'] = 'serious'): Finding {
  return { rule_id, target, impact, help: `${rule_id} help`, help_url: `https://dequeuniversity.com/rules/${rule_id}` };
}

const screenshot = drawPng(200, 100);

function evidence(overrides: Partial<SideEvidence> = {}): SideEvidence {
  return {
    url: 'https://www.example.com/pricing',
    text: 'Pricing\nStarter plan\nContact us',
    robots: 'index, follow',
    canonical: 'https://www.example.com/pricing',
    screenshot,
    findings: [finding('color-contrast', '.cta'), finding('image-alt', 'img.hero')],
    axe_version: '4.14.1',
    ...overrides,
  };
}

function previewEvidence(overrides: Partial<SideEvidence> = {}): SideEvidence {
  return evidence({
    url: 'https://preview.example.net/pricing',
    canonical: 'https://preview.example.net/pricing',
    ...overrides,
  });
}

describe('compareEvidence', () => {
  it('finds no differences at all in identical evidence', async () => {
    const result = await compareEvidence(evidence(), previewEvidence({ screenshot: Buffer.from(screenshot) }));
    expect(result).toEqual({
      text: { changed: false, added: [], removed: [], truncated: false },
      robots: { production: 'index, follow', preview: 'index, follow', changed: false },
      canonical: {
        production: 'https://www.example.com/pricing',
        preview: 'https://preview.example.net/pricing',
        changed: false,
      },
      screenshot: {
        mismatch_ratio: 0,
        changed: false,
        production_size: { width: 200, height: 100 },
        preview_size: { width: 200, height: 100 },
        diff_png: null,
      },
      findings: { new: [], fixed: [], unchanged: 2, engine_version_mismatch: false },
      has_differences: false,
      unstable: null,
    });
  });

  it.each<[string, Partial<SideEvidence>]>([
    ['text', { text: 'Pricing\nStarter plan\nContact sales' }],
    ['robots', { robots: 'noindex' }],
    ['canonical', { canonical: 'https://preview.example.net/prices' }],
    ['screenshot', { screenshot: drawPng(200, 100, { x: 10, y: 10, size: 5 }) }],
    ['a new finding', { findings: [...evidence().findings, finding('label', '#email')] }],
    ['a fixed finding', { findings: [finding('color-contrast', '.cta')] }],
  ])('reports differences when only the %s differs', async (_name, overrides) => {
    const result = await compareEvidence(evidence(), previewEvidence(overrides));
    expect(result.has_differences).toBe(true);
  });

  it('does not count an axe version change alone as a difference, but flags it', async () => {
    const result = await compareEvidence(evidence(), previewEvidence({ axe_version: '4.15.0' }));
    expect(result.findings.engine_version_mismatch).toBe(true);
    expect(result.has_differences).toBe(false);
  });

  it('passes the mismatch threshold through to the screenshot comparison', async () => {
    const preview = previewEvidence({ screenshot: drawPng(200, 100, { x: 10, y: 10, size: 5 }) });
    const result = await compareEvidence(evidence(), preview, { mismatchThreshold: 0.01 });
    expect(result.screenshot.mismatch_ratio).toBeGreaterThan(0);
    expect(result.screenshot.changed).toBe(false);
    expect(result.has_differences).toBe(false);
  });
});

describe('compareText', () => {
  it('lists added and removed lines in order of appearance', () => {
    const result = compareText('Home\nAbout\nPricing\nContact', 'Home\nBlog\nPricing\nCareers\nContact\nImprint');
    expect(result).toEqual({
      changed: true,
      added: ['Blog', 'Careers', 'Imprint'],
      removed: ['About'],
      truncated: false,
    });
  });

  it('ignores line endings, trailing whitespace and blank lines but not indentation', () => {
    expect(compareText('One\nTwo\n\nThree', 'One  \r\n\r\n   \r\nTwo\t\rThree\n').changed).toBe(false);
    expect(compareText('One', '  One')).toEqual({
      changed: true,
      added: ['  One'],
      removed: ['One'],
      truncated: false,
    });
  });

  it('reports a repeated line added once more', () => {
    expect(compareText('Buy\nNews', 'Buy\nNews\nBuy').added).toEqual(['Buy']);
  });

  it(`caps each list at ${MAX_TEXT_DIFF_LINES} lines and says so`, () => {
    const lines = Array.from({ length: 600 }, (_, index) => `Item ${index}`);
    const result = compareText('Header', ['Header', ...lines].join('\n'));
    expect(result.added).toEqual(lines.slice(0, MAX_TEXT_DIFF_LINES));
    expect(result.removed).toEqual([]);
    expect(result.truncated).toBe(true);
  });

  it('stays fast and truncated when the pages are unrelated', () => {
    const production = Array.from({ length: 3000 }, (_, index) => `Old ${index}`);
    const preview = Array.from({ length: 3000 }, (_, index) => `New ${index}`);
    const started = performance.now();
    const result = compareText(['Shared', ...production].join('\n'), ['Shared', ...preview].join('\n'));
    expect(performance.now() - started).toBeLessThan(1500);
    expect(result.added).toEqual(preview.slice(0, MAX_TEXT_DIFF_LINES));
    expect(result.removed).toEqual(production.slice(0, MAX_TEXT_DIFF_LINES));
    expect(result.truncated).toBe(true);
  });
});

describe('compareRobots', () => {
  it('compares directives as a set but reports raw values', () => {
    expect(compareRobots('noindex, nofollow', 'nofollow,noindex')).toEqual({
      production: 'noindex, nofollow',
      preview: 'nofollow,noindex',
      changed: false,
    });
    expect(compareRobots('NoIndex , NOFOLLOW', 'nofollow,noindex,noindex').changed).toBe(false);
  });

  it('reports a different directive set', () => {
    expect(compareRobots('noindex, nofollow', 'index')).toEqual({
      production: 'noindex, nofollow',
      preview: 'index',
      changed: true,
    });
    expect(compareRobots(null, 'noindex').changed).toBe(true);
    expect(compareRobots('noindex', null).changed).toBe(true);
  });

  it('treats an empty robots meta like an absent one', () => {
    expect(compareRobots(null, ' , ').changed).toBe(false);
    expect(compareRobots(null, null).changed).toBe(false);
  });
});

describe('compareCanonical', () => {
  const production = { url: 'https://www.example.com/a?x=1', canonical: 'https://www.example.com/a' };

  it("maps the preview page's origin to production's", () => {
    expect(
      compareCanonical(production, {
        url: 'https://preview.example.net/a?x=1',
        canonical: 'https://preview.example.net/a',
      }),
    ).toEqual({
      production: 'https://www.example.com/a',
      preview: 'https://preview.example.net/a',
      changed: false,
    });
  });

  it('accepts a preview canonical that names production', () => {
    const preview = { url: 'http://localhost:3000/a', canonical: 'https://www.example.com/a' };
    expect(compareCanonical(production, preview).changed).toBe(false);
  });

  it('resolves relative canonicals against their page', () => {
    const preview = { url: 'http://localhost:3000/a', canonical: '/a' };
    expect(compareCanonical(production, preview).changed).toBe(false);
  });

  it('reports a different path, query, host or a missing canonical', () => {
    const previewUrl = 'https://preview.example.net/a';
    expect(compareCanonical(production, { url: previewUrl, canonical: 'https://preview.example.net/b' }).changed).toBe(
      true,
    );
    expect(
      compareCanonical(production, { url: previewUrl, canonical: 'https://preview.example.net/a?x=1' }).changed,
    ).toBe(true);
    expect(compareCanonical(production, { url: previewUrl, canonical: 'https://other.example.org/a' }).changed).toBe(
      true,
    );
    expect(compareCanonical(production, { url: previewUrl, canonical: null }).changed).toBe(true);
    expect(compareCanonical({ ...production, canonical: null }, { url: previewUrl, canonical: null }).changed).toBe(
      false,
    );
  });

  it('does not excuse production naming the preview host', () => {
    const wrongProduction = { url: production.url, canonical: 'https://preview.example.net/a' };
    expect(compareCanonical(wrongProduction, { url: 'https://preview.example.net/a', canonical: '/a' }).changed).toBe(
      true,
    );
  });
});

describe('compareFindings', () => {
  it('matches findings by rule and target', () => {
    const result = compareFindings(
      [finding('color-contrast', '.cta'), finding('image-alt', 'img.hero'), finding('label', '#email')],
      [finding('color-contrast', '.cta', 'minor'), finding('image-alt', 'img.logo'), finding('label', '#email')],
      '4.14.1',
      '4.14.1',
    );
    expect(result).toEqual({
      new: [finding('image-alt', 'img.logo')],
      fixed: [finding('image-alt', 'img.hero')],
      unchanged: 2,
      engine_version_mismatch: false,
    });
  });

  it('counts duplicates once', () => {
    const result = compareFindings(
      [finding('region', 'main'), finding('region', 'main')],
      [finding('region', 'main'), finding('list', 'ul'), finding('list', 'ul')],
      '4.14.1',
      '4.14.1',
    );
    expect(result).toEqual({ new: [finding('list', 'ul')], fixed: [], unchanged: 1, engine_version_mismatch: false });
  });

  it('still compares across axe versions but flags the mismatch', () => {
    const result = compareFindings([finding('region', 'main')], [], '4.14.1', '4.15.0');
    expect(result).toEqual({
      new: [],
      fixed: [finding('region', 'main')],
      unchanged: 0,
      engine_version_mismatch: true,
    });
  });

  it('fingerprints rule, viewport and target; only the last part is free text, so fingerprints cannot collide', () => {
    expect(fingerprint(finding('image-alt', 'main img'), 'desktop')).toBe('image-alt | desktop | main img');
    expect(fingerprint(finding('image-alt', 'img'), 'desktop')).not.toBe(
      fingerprint(finding('image-alt', 'img'), 'mobile'),
    );
  });

  it('places findings at their viewport and compares them by fingerprint, never by count', () => {
    const before = placeFindings([finding('image-alt', 'img'), finding('label', 'input')], 'mobile');
    const after = placeFindings(
      [finding('image-alt', 'img'), finding('image-alt', 'img'), finding('color-contrast', 'p')],
      'mobile',
    );
    const difference = differenceByFingerprint(before, after, (placed) => placed.fingerprint);
    expect(difference.added.map((placed) => placed.fingerprint)).toEqual(['color-contrast | mobile | p']);
    expect(difference.removed.map((placed) => placed.rule_id)).toEqual(['label']);
    expect(difference.unchanged).toBe(1);
  });
});

describe('compareScreenshots', () => {
  afterAll(() => closeScreenshotWorker());

  const white = drawPng(200, 100);
  const withSquare = drawPng(200, 100, { x: 50, y: 40, size: 20 });

  it('measures the share of differing pixels and returns a diff PNG', async () => {
    const result = await compareScreenshots(white, withSquare);
    // 20×20 black pixels on 200×100; resemblejs counts exactly these (verified: rawMisMatchPercentage is 2).
    expect(result.mismatch_ratio).toBeCloseTo(400 / 20000, 10);
    expect(result.changed).toBe(true);
    expect(result.production_size).toEqual({ width: 200, height: 100 });
    expect(result.preview_size).toEqual({ width: 200, height: 100 });
    expect(result.diff_png?.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const diff = await loadImage(result.diff_png!);
    expect([diff.width, diff.height]).toEqual([200, 100]);
  });

  it('compares images of different heights, counting the extra area as differing', async () => {
    const result = await compareScreenshots(white, drawPng(200, 150));
    expect(result.mismatch_ratio).toBeCloseTo(50 / 150, 10);
    expect(result.production_size).toEqual({ width: 200, height: 100 });
    expect(result.preview_size).toEqual({ width: 200, height: 150 });
    expect(result.diff_png).not.toBeNull();
  });

  it('applies the mismatch threshold to `changed` only', async () => {
    const below = await compareScreenshots(white, withSquare, { mismatchThreshold: 0.05 });
    expect(below.mismatch_ratio).toBeCloseTo(0.02, 10);
    expect(below.changed).toBe(false);
    expect(below.diff_png).not.toBeNull();
    expect((await compareScreenshots(white, withSquare, { mismatchThreshold: 0.01 })).changed).toBe(true);
    expect((await compareScreenshots(white, withSquare, { mismatchThreshold: 0.02 })).changed).toBe(false);
    await expect(compareScreenshots(white, withSquare, { mismatchThreshold: 1.5 })).rejects.toThrow(RangeError);
    await expect(compareScreenshots(white, withSquare, { mismatchThreshold: NaN })).rejects.toThrow(RangeError);
  });

  it('ignores channel differences within the antialiasing tolerance', async () => {
    const canvas = createCanvas(200, 100);
    const context = canvas.getContext('2d');
    context.fillStyle = '#f4f4f4'; // 11 below white in each channel
    context.fillRect(0, 0, 200, 100);
    const result = await compareScreenshots(white, canvas.toBuffer('image/png'));
    expect(result.mismatch_ratio).toBe(0);
    expect(result.diff_png).toBeNull();
  });

  it('finds no difference between differently encoded copies of the same pixels', async () => {
    const recoded = drawPng(200, 100, undefined, 0);
    expect(recoded.equals(white)).toBe(false);
    expect(await compareScreenshots(white, recoded)).toMatchObject({
      mismatch_ratio: 0,
      changed: false,
      diff_png: null,
    });
  });

  it('rejects what it cannot compare with a clear error', async () => {
    await expect(compareScreenshots(Buffer.from('not an image'), white)).rejects.toThrow(
      'production screenshot is not a PNG',
    );
    const tooTall = Buffer.from(white);
    tooTall.writeUInt32BE(40000, 20);
    await expect(compareScreenshots(white, tooTall)).rejects.toThrow(/preview screenshot is 200×40000 px/);
    const corrupt = Buffer.concat([white.subarray(0, 40), Buffer.alloc(20)]);
    await expect(compareScreenshots(white, corrupt)).rejects.toThrow('screenshot comparison failed');
  });

  it('queues concurrent comparisons and survives a worker restart', async () => {
    const shifted = drawPng(200, 100, { x: 0, y: 0, size: 10 });
    const ratios = await Promise.all([
      compareScreenshots(white, withSquare),
      compareScreenshots(white, shifted),
      compareScreenshots(withSquare, shifted),
    ]);
    expect(ratios.map((result) => result.mismatch_ratio)).toEqual([0.02, 0.005, 0.025]);
    await closeScreenshotWorker();
    expect((await compareScreenshots(white, withSquare)).mismatch_ratio).toBeCloseTo(0.02, 10);
  });

  it('reads PNG dimensions from the header', () => {
    expect(readPngSize(drawPng(37, 11))).toEqual({ width: 37, height: 11 });
  });

  it('times a 1440×900 comparison (printed, not asserted)', async () => {
    const production = drawPage(0);
    const preview = drawPage(12);
    const timings: number[] = [];
    let ratio = 0;
    for (let run = 0; run < 10; run++) {
      const started = performance.now();
      ratio = (await compareScreenshots(production, preview)).mismatch_ratio;
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    const median = (timings[4] + timings[5]) / 2;
    console.log(
      `1440×900 compareScreenshots: median ${median.toFixed(0)} ms over 10 runs ` +
        `(min ${timings[0].toFixed(0)}, max ${timings[9].toFixed(0)}), mismatch ratio ${ratio.toFixed(4)}`,
    );
    expect(ratio).toBeGreaterThan(0);
  }, 120_000);
});

/** A page-like 1440×900 PNG: header, text lines and a card, shifted down by `offset` px. */
function drawPage(offset: number): Buffer {
  const canvas = createCanvas(1440, 900);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 1440, 900);
  context.fillStyle = '#1d3557';
  context.fillRect(0, 0, 1440, 72);
  context.fillStyle = '#222222';
  context.font = '16px sans-serif';
  for (let line = 0; line < 30; line++) {
    context.fillText(`Line ${line}: the quick brown fox jumps over the lazy dog`, 80, 120 + offset + line * 24);
  }
  context.fillStyle = '#e9c46a';
  context.fillRect(900, 140 + offset, 420, 300);
  return canvas.toBuffer('image/png');
}
