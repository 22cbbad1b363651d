import type { CapturePriority } from './types';

const RANK: Record<CapturePriority, number> = { release: 0, monitor: 1, scan: 2, report: 3 };

interface Waiter {
  rank: number;
  order: number;
  start: () => void;
}

/**
 * How many captures a process runs at once, whoever asks. A capture waits for a slot; when one frees, the most
 * urgent waiter gets it (release checks, then monitors, then scans, then report PDFs), in arrival order within a
 * priority. So a burst of scans queues behind release checks instead of beside them, and the browser's memory stays
 * bounded.
 */
export class CaptureBudget {
  private running = 0;
  private arrivals = 0;
  private readonly waiting: Waiter[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`a capture budget needs at least 1 slot, not ${size}`);
  }

  /** Runs `work` in a slot; the slot is released however `work` ends. */
  async run<T>(priority: CapturePriority, work: () => Promise<T>): Promise<T> {
    await this.acquire(priority);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Captures running and waiting now (metrics, tests). */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private acquire(priority: CapturePriority): Promise<void> {
    if (this.running < this.size) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((start) => {
      const waiter = { rank: RANK[priority], order: (this.arrivals += 1), start };
      const at = this.waiting.findIndex((other) => other.rank > waiter.rank);
      this.waiting.splice(at === -1 ? this.waiting.length : at, 0, waiter);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter, so `running` stays as it is.
    if (next) next.start();
    else this.running -= 1;
  }
}
