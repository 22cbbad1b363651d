import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { RepeatingPass } from './repeating-pass';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RepeatingPass', () => {
  let registry: SchedulerRegistry;
  let warned: string[];
  const logger = new Logger('test');
  const repeating = (name: string, everyMs: number, pass: (stopping: AbortSignal) => Promise<unknown>) =>
    new RepeatingPass(registry, logger, { name, what: name, everyMs }, pass);

  beforeEach(() => {
    registry = new SchedulerRegistry();
    warned = [];
    jest.spyOn(logger, 'warn').mockImplementation((_context: unknown, message?: unknown) => {
      warned.push(String(message));
    });
  });

  it('repeats the pass on its interval, never two at once', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    const counting = repeating('count', 5, async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(20);
      running -= 1;
      passes += 1;
    });
    counting.start();
    expect(registry.getIntervals()).toEqual(['count']);
    await sleep(150);
    await counting.stop();
    expect(passes).toBeGreaterThanOrEqual(3);
    expect(most).toBe(1);
    expect(registry.getIntervals()).toEqual([]);
  });

  it('stop() waits for a pass under way, and no pass starts after it', async () => {
    let started = 0;
    let finished = 0;
    const slow = repeating('slow', 1, async () => {
      started += 1;
      await sleep(50);
      finished += 1;
    });
    slow.start();
    await sleep(20); // the first pass is under way
    expect(started).toBe(1);
    await slow.stop();
    expect(finished).toBe(1);
    await sleep(30);
    expect(started).toBe(1);
  });

  it('stop() aborts the signal of a pass under way, so a pass of many steps ends after the current one', async () => {
    let steps = 0;
    const long = repeating('long', 1, async (stopping) => {
      for (let step = 0; step < 100 && !stopping.aborted; step += 1) {
        await sleep(10);
        steps += 1;
      }
    });
    long.start();
    await sleep(35); // a few steps into the pass
    const stepsWhenStopped = steps;
    expect(stepsWhenStopped).toBeGreaterThan(0);
    await long.stop();
    expect(steps).toBeLessThanOrEqual(stepsWhenStopped + 1); // the step under way, and no more
    expect(steps).toBeLessThan(100);
  });

  it('logs a failed pass and runs the next one', async () => {
    let passes = 0;
    const failingOnce = repeating('fail once', 1, async () => {
      passes += 1;
      await sleep(1);
      if (passes === 1) throw new Error('database away');
    });
    failingOnce.start();
    await sleep(50);
    await failingOnce.stop();
    expect(passes).toBeGreaterThan(1);
    expect(warned).toEqual(['could not fail once; the next pass tries again']);
  });
});
