import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from 'canvas';

const ROOT = join(__dirname, '..', '..');

function png(square: boolean): Buffer {
  const canvas = createCanvas(60, 40);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, 60, 40);
  if (square) {
    context.fillStyle = '#000';
    context.fillRect(0, 0, 10, 10);
  }
  return canvas.toBuffer('image/png');
}

describe('the screenshot worker', () => {
  it('closes without crashing a process that never loaded canvas itself', () => {
    const folder = mkdtempSync(join(tmpdir(), 'vigil-compare-'));
    writeFileSync(join(folder, 'a.png'), png(false));
    writeFileSync(join(folder, 'b.png'), png(true));
    // A separate process that loads no canvas of its own: a crash must not take the test runner down with it.
    const script = `
      const { readFileSync } = require('node:fs');
      const { compareScreenshots, closeScreenshotWorker } = require('./libs/compare');
      compareScreenshots(readFileSync(process.argv[1]), readFileSync(process.argv[2]))
        .then((result) => console.log('ratio', result.mismatch_ratio))
        .then(() => closeScreenshotWorker())
        .then(() => console.log('closed'));
    `;
    const result = spawnSync(
      process.execPath,
      ['--require', '@swc-node/register', '-e', script, join(folder, 'a.png'), join(folder, 'b.png')],
      { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.signal).toBeNull();
    expect(result.stdout).toMatch(/ratio 0\.0416/);
    expect(result.stdout).toContain('closed');
    expect(result.status).toBe(0);
  });
});
