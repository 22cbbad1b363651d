import { randomUUID } from 'node:crypto';
import { SchedulerRegistry } from '@nestjs/schedule';
import { BackgroundPasses } from '../../src/common/background/background-passes';
import { RedisService } from '../../src/redis/redis.module';
import { UsageService } from '../../src/usage/usage.service';
import { testConfig } from '../support/test-app';

/** The per-workspace request counter on the real Redis: two API instances, each flushing its counts every second. */
describe('usage: requests counted today', () => {
  const redis = new RedisService(testConfig());
  // Only the request counter is exercised here: it needs neither the database nor the uptime reader. The instances
  // are not started, so only the test flushes.
  const instance = () =>
    new UsageService(redis, undefined as never, undefined as never, new BackgroundPasses(new SchedulerRegistry()));
  const first = instance();
  const second = instance();

  afterAll(async () => {
    await Promise.all([first.beforeApplicationShutdown(), second.beforeApplicationShutdown()]);
    await redis.onApplicationShutdown();
  });

  it('counts requests a flush is writing while the count is read', async () => {
    const workspace = randomUUID();
    for (let index = 0; index < 8; index += 1) first.recordRequest(workspace);
    // The read's GET is sent first; the flush then takes the counts out of memory before Redis has added them.
    const reading = first.requestsToday(workspace);
    const flushing = first.flush();
    expect(await reading).toBe(8);
    await flushing;
    expect(await first.requestsToday(workspace)).toBe(8);
  });

  it("adds every instance's flushed counts, and each instance's own unflushed ones", async () => {
    const workspace = randomUUID();
    first.recordRequest(workspace);
    second.recordRequest(workspace);
    second.recordRequest(workspace);
    await second.flush();
    expect(await first.requestsToday(workspace)).toBe(3);
    expect(await second.requestsToday(workspace)).toBe(2);
    await first.beforeApplicationShutdown();
    expect(await second.requestsToday(workspace)).toBe(3);
  });
});
