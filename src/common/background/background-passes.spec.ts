import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { BackgroundPasses } from './background-passes';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('BackgroundPasses', () => {
  it('starts every pass at bootstrap and, before shutdown, stops them all and waits for the ones under way', async () => {
    const registry = new SchedulerRegistry();
    const passes = new BackgroundPasses(registry);
    const logger = new Logger('test');
    let finished = 0;
    const slow = async () => {
      await sleep(40);
      finished += 1;
    };
    passes.every(logger, { name: 'first', what: 'first', everyMs: 1 }, slow);
    passes.every(logger, { name: 'second', what: 'second', everyMs: 1 }, slow);
    expect(registry.getIntervals()).toEqual([]); // nothing runs before bootstrap

    passes.onApplicationBootstrap();
    expect(registry.getIntervals().sort()).toEqual(['first', 'second']);
    await sleep(20); // both passes under way
    await passes.beforeApplicationShutdown();
    expect(finished).toBe(2);
    expect(registry.getIntervals()).toEqual([]);
    await sleep(20);
    expect(finished).toBe(2); // no pass after the stop
  });
});
