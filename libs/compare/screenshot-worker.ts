import { Worker } from 'node:worker_threads';

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
const resemble = require(workerData.resemblePath);
const toBuffer = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
parentPort.on('message', (job) => {
  const reply = (message) => {
    // canvas 3 frees image memory only after an event-loop turn; take one before the next job can arrive.
    setImmediate(() => parentPort.postMessage({ id: job.id, ...message }));
  };
  try {
    resemble.compare(toBuffer(job.production), toBuffer(job.preview), workerData.options, (error, data) => {
      if (error) return reply({ error: String(error) });
      try {
        const differs = data.rawMisMatchPercentage > 0;
        if (differs && typeof data.getBuffer !== 'function') throw new Error('resemblejs produced no diff image');
        reply({ error: null, mismatchPercentage: data.rawMisMatchPercentage, diffPng: differs ? data.getBuffer(false) : null });
      } catch (caught) {
        reply({ error: String(caught) });
      }
    });
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
}

type WorkerReply =
  { id: number; error: string } | { id: number; error: null; mismatchPercentage: number; diffPng: Uint8Array | null };

interface Job {
  id: number;
  resolve: (outcome: ResembleOutcome) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let worker: Worker | null = null;
let current: Job | null = null;
let idleTimer: NodeJS.Timeout | null = null;
let nextJobId = 1;
/** Jobs run one at a time: one comparison's memory at a peak, and each timeout measures its own comparison. */
let queue: Promise<unknown> = Promise.resolve();

/** Compares two PNG screenshots with resemblejs off the main thread. */
export function runResemble(production: Buffer, preview: Buffer): Promise<ResembleOutcome> {
  const run = queue.then(() => send(production, preview));
  queue = run.catch(() => undefined);
  return run;
}

/** Stops the worker now (e.g. on application shutdown). A later comparison starts a new one. */
export async function closeScreenshotWorker(): Promise<void> {
  const stopping = worker;
  discardWorker(new Error('screenshot worker closed'));
  if (stopping) await stopping.terminate();
}

function send(production: Buffer, preview: Buffer): Promise<ResembleOutcome> {
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
    active.postMessage({ id, production, preview });
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
    workerData: { resemblePath: require.resolve('resemblejs'), options: RESEMBLE_OPTIONS },
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
  // Structured clone turns a Buffer into a plain Uint8Array.
  const diffPng = reply.diffPng
    ? Buffer.from(reply.diffPng.buffer, reply.diffPng.byteOffset, reply.diffPng.byteLength)
    : null;
  job.resolve({ mismatchPercentage: reply.mismatchPercentage, diffPng });
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
