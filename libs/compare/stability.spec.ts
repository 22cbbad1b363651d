import { createCanvas } from 'canvas';
import {
  closeScreenshotWorker,
  compareLooks,
  instabilityOf,
  mergeRegions,
  type Finding,
  type SideEvidence,
} from './index';

/** A white PNG with black squares. */
function drawPng(width: number, height: number, squares: Array<{ x: number; y: number; size: number }> = []): Buffer {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  for (const square of squares) context.fillRect(square.x, square.y, square.size, square.size);
  return canvas.toBuffer('image/png');
}

const finding = (ruleId: string, target: string): Finding => ({
  rule_id: ruleId,
  impact: 'serious',
  help: ruleId,
  help_url: `https://dequeuniversity.com/rules/axe/4.14/${ruleId}`,
  target,
});

function look(overrides: Partial<SideEvidence> = {}): SideEvidence {
  return {
    url: 'https://example.com/',
    text: 'Welcome\nOur shop',
    robots: null,
    canonical: null,
    screenshot: drawPng(200, 100),
    findings: [],
    axe_version: '4.14.1',
    ...overrides,
  };
}

afterAll(() => closeScreenshotWorker());

describe('instabilityOf: what differs between looks at one side', () => {
  it('is empty for looks that are the same', async () => {
    expect(await instabilityOf([look(), look()])).toEqual({
      lines: [],
      regions: [],
      robots: false,
      canonical: false,
      findings: [],
    });
  });

  it('names the lines, screenshot areas, metadata and findings that moved', async () => {
    const unstable = await instabilityOf([
      look({ text: 'Welcome\nRendered at 10:00:01', screenshot: drawPng(200, 100, [{ x: 40, y: 20, size: 10 }]) }),
      look({
        text: 'Welcome\nRendered at 10:00:02',
        robots: 'noindex',
        canonical: 'https://example.com/b',
        findings: [finding('image-alt', 'img.slide')],
      }),
    ]);
    expect(unstable.lines.sort()).toEqual(['Rendered at 10:00:01', 'Rendered at 10:00:02']);
    // On the 16 px grid the square at 40..50 × 20..30 lies in cells 32..64 × 16..32; what is that close moves too
    // (48 px across, 16 px up and down).
    expect(unstable.regions).toEqual([{ x: 0, y: 0, width: 112, height: 48 }]);
    expect(unstable).toMatchObject({ robots: true, canonical: true, findings: [finding('image-alt', 'img.slide')] });
  });

  it('counts the extra area of a taller look as moved', async () => {
    const unstable = await instabilityOf([look(), look({ screenshot: drawPng(200, 140) })]);
    expect(unstable.regions).toEqual([{ x: 0, y: 80, width: 200, height: 60 }]);
  });
});

describe('compareLooks: stable differences survive a second look', () => {
  it('is the plain comparison with one look per side', async () => {
    const comparison = await compareLooks([look()], [look({ text: 'Welcome\nOur new shop' })]);
    expect(comparison).toMatchObject({ has_differences: true, unstable: null });
    expect(comparison.text).toMatchObject({ added: ['Our new shop'], removed: ['Our shop'] });
  });

  it('leaves out of every difference what moved on either side, and keeps what did not', async () => {
    const moving = (square: number) =>
      drawPng(200, 100, [
        { x: square, y: 60, size: 10 },
        { x: 150, y: 10, size: 20 },
      ]);
    const production = [
      look({ text: 'Welcome\nRendered at 1\nOur shop', screenshot: moving(10) }),
      look({ text: 'Welcome\nRendered at 2\nOur shop', screenshot: moving(20) }),
    ];
    const preview = [
      look({
        text: 'Welcome\nRendered at 3\nOur new shop',
        robots: 'noindex',
        screenshot: drawPng(200, 100, [{ x: 30, y: 60, size: 10 }]),
        findings: [finding('image-alt', 'img.hero')],
      }),
      look({
        text: 'Welcome\nRendered at 4\nOur new shop',
        robots: 'noindex',
        screenshot: drawPng(200, 100, [{ x: 40, y: 60, size: 10 }]),
        findings: [finding('image-alt', 'img.hero')],
      }),
    ];
    const comparison = await compareLooks(production, preview);
    expect(comparison.text).toMatchObject({ changed: true, added: ['Our new shop'], removed: ['Our shop'] });
    expect(comparison.robots).toMatchObject({ changed: true, preview: 'noindex' });
    expect(comparison.findings.new).toEqual([finding('image-alt', 'img.hero')]);
    // The moving square's band is painted over on both sides; the square at 150,10 that preview lacks stays.
    expect(comparison.screenshot.changed).toBe(true);
    expect(comparison.has_differences).toBe(true);
    expect(comparison.unstable?.lines.sort()).toEqual([
      'Rendered at 1',
      'Rendered at 2',
      'Rendered at 3',
      'Rendered at 4',
    ]);
    expect(comparison.unstable?.regions.length).toBeGreaterThan(0);
  });

  it('has no differences when everything that differed moved on its own', async () => {
    const side = (time: string, x: number) =>
      look({ text: `Welcome\nRendered at ${time}`, screenshot: drawPng(200, 100, [{ x, y: 40, size: 10 }]) });
    const comparison = await compareLooks([side('1', 10), side('2', 50)], [side('3', 90), side('4', 130)]);
    expect(comparison.has_differences).toBe(false);
    expect(comparison.screenshot).toMatchObject({ changed: false, mismatch_ratio: 0 });
    expect(comparison.text).toMatchObject({ changed: false, added: [], removed: [] });
    expect(comparison.unstable?.lines).toHaveLength(4);
  });
});

describe('mergeRegions', () => {
  it('joins touching regions and, past the limit, the pair whose box adds the least area', () => {
    expect(
      mergeRegions(
        [
          { x: 0, y: 0, width: 16, height: 16 },
          { x: 16, y: 0, width: 16, height: 16 },
          { x: 100, y: 100, width: 16, height: 16 },
          { x: 100, y: 140, width: 16, height: 16 },
          { x: 400, y: 400, width: 16, height: 16 },
        ],
        2,
      ),
    ).toEqual([
      { x: 0, y: 0, width: 116, height: 156 },
      { x: 400, y: 400, width: 16, height: 16 },
    ]);
  });
});
