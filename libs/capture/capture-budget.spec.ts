import { CaptureBudget } from './capture-budget';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('CaptureBudget', () => {
  it('never runs more captures than its size, and frees the slot when one fails', async () => {
    const budget = new CaptureBudget(2);
    let running = 0;
    let peak = 0;
    const work = (fail: boolean) => async () => {
      running += 1;
      peak = Math.max(peak, running);
      await tick();
      running -= 1;
      if (fail) throw new Error('page failed');
    };
    const results = await Promise.allSettled(
      Array.from({ length: 9 }, (_, index) => budget.run('monitor', work(index % 3 === 0))),
    );
    expect(peak).toBe(2);
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(3);
    expect(budget.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('gives a freed slot to release checks, then monitors, then scans, then report PDFs, in arrival order within each', async () => {
    const budget = new CaptureBudget(1);
    const started: string[] = [];
    let finishFirst!: () => void;
    const first = budget.run('scan', () => new Promise<void>((resolve) => (finishFirst = resolve)));
    const queued = (
      [
        ['report', 'report 1'],
        ['scan', 'scan 1'],
        ['monitor', 'monitor 1'],
        ['scan', 'scan 2'],
        ['release', 'release 1'],
        ['monitor', 'monitor 2'],
        ['release', 'release 2'],
      ] as const
    ).map(([priority, name]) =>
      budget.run(priority, async () => {
        started.push(name);
        await tick();
      }),
    );
    expect(budget.load()).toEqual({ running: 1, waiting: 7 });
    await tick(); // the first capture starts on the next turn
    finishFirst();
    await Promise.all([first, ...queued]);
    expect(started).toEqual(['release 1', 'release 2', 'monitor 1', 'monitor 2', 'scan 1', 'scan 2', 'report 1']);
  });

  it('refuses a size below one', () => {
    expect(() => new CaptureBudget(0)).toThrow(RangeError);
  });
});
