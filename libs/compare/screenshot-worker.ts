import { Worker } from 'node:worker_threads';
import type { Region } from './types';

/**
 * resemblejs runs in a worker thread. Its pixel loop is synchronous (~0.3–0.5 s for 1440×900, proportional to the
 * pixel count) and would stall every request sharing the event loop; and under Jest, whose vm sandbox makes global
 * lookups slow, the same loop takes ~15× longer (7 s for 1440×900). A worker also lets a hung comparison be killed.
 */

/**
 * 'movement' tints differing pixels over the preview image; largeImageThreshold 0 compares every pixel (the default
 * samples images over 1200 px, skipping whole rows and columns). 'antialiasing' tolerates ±32 per channel and
 * antialiased edges, so font rasterization noise does not count.
 */
const RESEMBLE_OPTIONS = {
  output: { errorType: 'movement', largeImageThreshold: 0 },
  ignore: 'antialiasing',
};

/** Unchanged rows kept above and below the changed ones, for the neighbours resemblejs looks at (see the worker). */
const CONTEXT_ROWS = 2;

/** The grid, in px, on which differing areas between two looks at one side are reported (see differingRegions). */
const REGION_CELL = 16;

/** A 1440×32767 comparison takes ~20 s; far beyond that resemblejs lost its callback (it can, on a canvas error). */
const COMPARISON_TIMEOUT_MS = 120_000;

/**
 * A worker holds ~50 MB idle and about 220 MB after comparing full-page screenshots (canvas buffers the allocator
 * keeps); release it soon after the last comparison.
 */
const IDLE_SHUTDOWN_MS = 10_000;

// Plain CommonJS so it runs from the TypeScript sources (Jest, swc) and from dist alike.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const resemble = require(workerData.resemblePath);
const { Canvas, createCanvas, loadImage } = require(workerData.canvasPath);
// resemblejs encodes its diff image with canvas's default zlib level (6): 40% of a comparison's time for a file
// hardly smaller than at level 1. Its call passes no arguments; every other call is left as it is.
const encode = Canvas.prototype.toBuffer;
Canvas.prototype.toBuffer = function (...args) {
  return args.length === 0 ? encode.call(this, 'image/png', { compressionLevel: 1 }) : encode.apply(this, args);
};
const toBuffer = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const CONTEXT_ROWS = ${CONTEXT_ROWS};

const compare = (one, two) =>
  new Promise((resolve, reject) =>
    resemble.compare(one, two, workerData.options, (error, data) => (error ? reject(error) : resolve(data))),
  );

/** The image's pixels, decoded as resemblejs decodes a Buffer (drawn on a canvas of its size). */
async function decode(png) {
  const image = await loadImage(png);
  const context = createCanvas(image.width, image.height).getContext('2d');
  context.drawImage(image, 0, 0, image.width, image.height);
  return context.getImageData(0, 0, image.width, image.height);
}

/** The first and last row in which two images of one size differ, or null when every pixel is the same. */
function changedRows(one, two) {
  const rowBytes = one.width * 4;
  const a = toBuffer(one.data);
  const b = toBuffer(two.data);
  let first = -1;
  let last = -1;
  for (let row = 0, at = 0; row < one.height; row++, at += rowBytes) {
    if (a.compare(b, at, at + rowBytes, at, at + rowBytes) !== 0) {
      if (first < 0) first = row;
      last = row;
    }
  }
  return first < 0 ? null : { first, last };
}

const isOpaque = (pixels) => {
  for (let at = 3; at < pixels.length; at += 4) if (pixels[at] !== 255) return false;
  return true;
};

async function whole(one, two) {
  const data = await compare(one, two);
  const differs = data.rawMisMatchPercentage > 0;
  if (differs && typeof data.getBuffer !== 'function') throw new Error('resemblejs produced no diff image');
  return {
    mismatchPercentage: data.rawMisMatchPercentage,
    diffPng: differs ? data.getBuffer(false) : null,
    comparedRows: Math.max(one.height, two.height),
  };
}

/**
 * resemblejs on the rows where the images differ, when they are few: every pixel of an unchanged row is the same on
 * both sides, so resemblejs counts none of them and paints each as production's (copyPixel); only a changed pixel
 * looks further, at its neighbours one pixel away (and one row on, where a row wraps), which the rows of context keep.
 * The count, the ratio and every pixel of the diff image are resemblejs's own over the whole images.
 */
async function rowsThatDiffer(one, two) {
  const rows = changedRows(one, two);
  if (rows === null) return { mismatchPercentage: 0, diffPng: null, comparedRows: 0 };
  const top = Math.max(0, rows.first - CONTEXT_ROWS);
  const bottom = Math.min(one.height, rows.last + 1 + CONTEXT_ROWS);
  if ((bottom - top) * 2 > one.height) return whole(one, two);
  const rowBytes = one.width * 4;
  const band = (image) => ({
    width: image.width,
    height: bottom - top,
    data: image.data.subarray(top * rowBytes, bottom * rowBytes),
  });
  const data = await compare(band(one), band(two));
  const mismatches = Math.round((data.rawMisMatchPercentage / 100) * one.width * (bottom - top));
  // The same expression as resemblejs's, so the same number.
  const mismatchPercentage = (mismatches / (one.height * one.width)) * 100;
  const comparedRows = bottom - top;
  if (mismatches === 0) return { mismatchPercentage, diffPng: null, comparedRows };
  const bandDiff = await decode(data.getBuffer(false));
  // A translucent pixel would not survive the round trip through PNG exactly: compare the whole images then.
  if (!isOpaque(bandDiff.data)) return whole(one, two);
  const context = createCanvas(one.width, one.height).getContext('2d');
  const pixels = context.createImageData(one.width, one.height);
  pixels.data.set(one.data);
  pixels.data.set(bandDiff.data, top * rowBytes);
  context.putImageData(pixels, 0, 0);
  return { mismatchPercentage, diffPng: context.canvas.toBuffer(), comparedRows };
}

/** Paints each region of both images with one opaque colour, so what lies there cannot differ. */
function paintOver(images, regions) {
  for (const image of images) {
    for (const region of regions) {
      const right = Math.min(image.width, region.x + region.width);
      const bottom = Math.min(image.height, region.y + region.height);
      for (let y = Math.max(0, region.y); y < bottom; y++) {
        for (let x = Math.max(0, region.x), at = (y * image.width + x) * 4; x < right; x++, at += 4) {
          image.data[at] = 128;
          image.data[at + 1] = 128;
          image.data[at + 2] = 128;
          image.data[at + 3] = 255;
        }
      }
    }
  }
}

/**
 * The areas in which two images differ at all, as rectangles on a grid of CELL px (beyond one image's edge counts as
 * differing): runs of changed cells per grid row, stacked while the next row has the same run.
 */
function differingRegions(one, two) {
  const CELL = ${REGION_CELL};
  const width = Math.max(one.width, two.width);
  const height = Math.max(one.height, two.height);
  const columns = Math.ceil(width / CELL);
  const rows = Math.ceil(height / CELL);
  const changed = new Uint8Array(columns * rows);
  const a = toBuffer(one.data);
  const b = toBuffer(two.data);
  for (let y = 0; y < height; y++) {
    const gridRow = Math.floor(y / CELL) * columns;
    const inOne = y < one.height ? Math.min(one.width, width) : 0;
    const inTwo = y < two.height ? Math.min(two.width, width) : 0;
    const both = Math.min(inOne, inTwo);
    if (both === width && one.width === two.width) {
      const at = y * one.width * 4;
      if (a.compare(b, at, at + width * 4, at, at + width * 4) === 0) continue;
    }
    for (let x = 0; x < width; x += 1) {
      const cell = gridRow + Math.floor(x / CELL);
      if (changed[cell]) {
        x = (Math.floor(x / CELL) + 1) * CELL - 1;
        continue;
      }
      if (x >= both) {
        changed[cell] = 1;
        continue;
      }
      const i = (y * one.width + x) * 4;
      const j = (y * two.width + x) * 4;
      if (a[i] !== b[j] || a[i + 1] !== b[j + 1] || a[i + 2] !== b[j + 2] || a[i + 3] !== b[j + 3]) changed[cell] = 1;
    }
  }
  const regions = [];
  let open = new Map();
  for (let row = 0; row < rows; row++) {
    const next = new Map();
    for (let column = 0; column < columns; column++) {
      if (!changed[row * columns + column]) continue;
      const start = column;
      while (column + 1 < columns && changed[row * columns + column + 1]) column++;
      const key = start + ':' + column;
      const region = open.get(key) ?? { x: start * CELL, y: row * CELL, width: (column - start + 1) * CELL, height: 0 };
      if (!open.has(key)) regions.push(region);
      region.height += CELL;
      next.set(key, region);
    }
    open = next;
  }
  for (const region of regions) {
    region.width = Math.min(region.width, width - region.x);
    region.height = Math.min(region.height, height - region.y);
  }
  return regions;
}

parentPort.on('message', async (job) => {
  const reply = (message) => {
    // canvas 3 frees image memory only after an event-loop turn; take one before the next job can arrive.
    setImmediate(() => parentPort.postMessage({ id: job.id, ...message }));
  };
  try {
    if (job.kind === 'digest') {
      const image = await decode(toBuffer(job.png));
      paintOver([image], job.ignore);
      reply({ error: null, digest: createHash('sha256').update(toBuffer(image.data)).digest('hex') });
      return;
    }
    const [one, two] = await Promise.all([decode(toBuffer(job.production)), decode(toBuffer(job.preview))]);
    if (job.kind === 'regions') {
      reply({ error: null, regions: differingRegions(one, two) });
      return;
    }
    if (job.ignore.length > 0) paintOver([one, two], job.ignore);
    const sameSize = one.width === two.width && one.height === two.height;
    const outcome = job.onlyChangedRows && sameSize ? await rowsThatDiffer(one, two) : await whole(one, two);
    reply({ error: null, ...outcome });
  } catch (caught) {
    reply({ error: String(caught) });
  }
});
`;

export interface ResembleOutcome {
  /** resemblejs rawMisMatchPercentage: differing pixels × 100 / (larger width × larger height). */
  mismatchPercentage: number;
  /** Diff image (PNG), null when no pixel differs. */
  diffPng: Buffer | null;
  /** How many rows resemblejs looked at (diagnostics, tests). */
  comparedRows: number;
}

type WorkerReply =
  | { id: number; error: string }
  | { id: number; error: null; mismatchPercentage: number; diffPng: Uint8Array | null; comparedRows: number }
  | { id: number; error: null; regions: Region[] }
  | { id: number; error: null; digest: string };

type WorkerRequest =
  | { kind: 'compare'; production: Buffer; preview: Buffer; onlyChangedRows: boolean; ignore: Region[] }
  | { kind: 'regions'; production: Buffer; preview: Buffer }
  | { kind: 'digest'; png: Buffer; ignore: Region[] };

interface Job {
  id: number;
  resolve: (reply: Exclude<WorkerReply, { error: string }>) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let worker: Worker | null = null;
let current: Job | null = null;
let idleTimer: NodeJS.Timeout | null = null;
let nextJobId = 1;
/** Jobs run one at a time: one comparison's memory at a peak, and each timeout measures its own comparison. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Compares two PNG screenshots with resemblejs off the main thread. `onlyChangedRows`: of two images of one size,
 * compare only the rows that differ (with their neighbours), for the same outcome as comparing every row. `ignore`:
 * areas painted over in both images first, so nothing there counts.
 */
export async function runResemble(
  production: Buffer,
  preview: Buffer,
  onlyChangedRows = true,
  ignore: Region[] = [],
): Promise<ResembleOutcome> {
  const reply = await enqueue({ kind: 'compare', production, preview, onlyChangedRows, ignore });
  if (!('mismatchPercentage' in reply)) throw new Error('screenshot worker answered another question');
  // Structured clone turns a Buffer into a plain Uint8Array.
  const diffPng = reply.diffPng
    ? Buffer.from(reply.diffPng.buffer, reply.diffPng.byteOffset, reply.diffPng.byteLength)
    : null;
  return { mismatchPercentage: reply.mismatchPercentage, diffPng, comparedRows: reply.comparedRows };
}

/** The areas (on a 16 px grid) in which two PNGs differ in any pixel; empty when they are the same picture. */
export async function differingRegions(one: Buffer, two: Buffer): Promise<Region[]> {
  const reply = await enqueue({ kind: 'regions', production: one, preview: two });
  if (!('regions' in reply)) throw new Error('screenshot worker answered another question');
  return reply.regions;
}

/** A SHA-256 of a PNG's pixels with `ignore` painted over: the same for two pictures that look the same there. */
export async function pixelDigest(png: Buffer, ignore: Region[]): Promise<string> {
  const reply = await enqueue({ kind: 'digest', png, ignore });
  if (!('digest' in reply)) throw new Error('screenshot worker answered another question');
  return reply.digest;
}

/** Stops the worker now (e.g. on application shutdown). A later comparison starts a new one. */
export async function closeScreenshotWorker(): Promise<void> {
  const stopping = worker;
  discardWorker(new Error('screenshot worker closed'));
  if (stopping) await stopping.terminate();
}

function enqueue(request: WorkerRequest): Promise<Exclude<WorkerReply, { error: string }>> {
  const run = queue.then(() => send(request));
  queue = run.catch(() => undefined);
  return run;
}

function send(request: WorkerRequest): Promise<Exclude<WorkerReply, { error: string }>> {
  return new Promise((resolve, reject) => {
    const active = ensureWorker();
    const id = nextJobId++;
    const timer = setTimeout(() => {
      const hung = worker;
      discardWorker(new Error(`screenshot comparison timed out after ${COMPARISON_TIMEOUT_MS / 1000} s`));
      void hung?.terminate();
    }, COMPARISON_TIMEOUT_MS);
    current = { id, resolve, reject, timer };
    active.ref(); // An awaited comparison keeps the process alive.
    active.postMessage({ id, ...request });
  });
}

function ensureWorker(): Worker {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  if (worker) return worker;
  // canvas's native library must also be loaded by the main thread: when only a worker has loaded it, the process
  // crashes (SIGSEGV) as that worker exits and the library is torn down with it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('canvas');
  const created = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      resemblePath: require.resolve('resemblejs'),
      canvasPath: require.resolve('canvas'),
      options: RESEMBLE_OPTIONS,
    },
  });
  created.on('message', (reply: WorkerReply) => settle(reply));
  created.on('error', (error: Error) => {
    if (worker === created) discardWorker(error);
  });
  created.on('exit', (code) => {
    if (worker === created) discardWorker(new Error(`screenshot worker exited with code ${code}`));
  });
  worker = created;
  return created;
}

function settle(reply: WorkerReply): void {
  const job = current;
  if (!job || job.id !== reply.id) return;
  clearTimeout(job.timer);
  current = null;
  if (worker) {
    worker.unref(); // An idle worker must not keep the process alive.
    idleTimer = setTimeout(() => void closeScreenshotWorker(), IDLE_SHUTDOWN_MS).unref();
  }
  if (reply.error !== null) {
    job.reject(new Error(`screenshot comparison failed: ${reply.error}`));
    return;
  }
  job.resolve(reply);
}

/** Forgets the worker (the caller terminates it if needed) and fails the comparison in flight. */
function discardWorker(error: Error): void {
  worker = null;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const job = current;
  current = null;
  if (job) {
    clearTimeout(job.timer);
    job.reject(error);
  }
}
