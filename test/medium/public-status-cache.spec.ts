import { randomUUID } from 'node:crypto';
import { RedisService } from '../../src/redis/redis.module';
import { PublicStatusCache } from '../../src/status-pages/public-status-cache';
import { testConfig } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The public status pages' cache on the real Redis, two API instances sharing it: one computation per burst. */
describe('public status pages: one computation for a burst of visitors', () => {
  const redis = new RedisService(testConfig());
  const instances = [new PublicStatusCache(redis), new PublicStatusCache(redis)];

  afterAll(() => redis.onApplicationShutdown());

  /** Twenty visitors reading the page at once, through both instances. */
  const burst = (slug: string, compute: () => Promise<string | null>) =>
    Array.from({ length: 20 }, (_, index) => instances[index % 2].read(slug, compute));

  it('has the burst wait for a slow computation however long it takes while its lock lasts', async () => {
    const slug = `slow-${randomUUID()}`;
    let computations = 0;
    // Slower than the three seconds after which a waiting visitor used to compute the page itself.
    const compute = async () => {
      computations += 1;
      await sleep(3_500);
      return JSON.stringify({ slug });
    };
    const pages = await Promise.all(burst(slug, compute));
    expect(computations).toBe(1);
    expect(new Set(pages.map((page) => JSON.stringify(page))).size).toBe(1);
    expect(pages[0]).toMatchObject({ found: true, json: JSON.stringify({ slug }) });
  }, 15_000);

  it('has one waiting visitor take over when the computation fails, and the others take its page', async () => {
    const slug = `failing-${randomUUID()}`;
    let computations = 0;
    const compute = async () => {
      computations += 1;
      await sleep(200);
      if (computations === 1) throw new Error('the database went away');
      return JSON.stringify({ slug });
    };
    const reads = await Promise.allSettled(burst(slug, compute));
    expect(computations).toBe(2);
    expect(reads.filter((read) => read.status === 'rejected')).toHaveLength(1);
    expect(reads.filter((read) => read.status === 'fulfilled').map((read) => read.value.found)).toEqual(
      Array(19).fill(true),
    );
  });

  it('does not free a lock it no longer holds: a computation that outlived its lock and failed', async () => {
    const slug = `outlived-${randomUUID()}`;
    for (const instance of instances) instance.computeLockMs = 1_000;
    try {
      let computations = 0;
      const compute = async () => {
        computations += 1;
        if (computations > 1) {
          await sleep(700);
          return JSON.stringify({ slug });
        }
        // The first computation takes longer than its lock lasts, and fails after the second has taken the lock.
        await sleep(1_200);
        throw new Error('the database went away');
      };
      const first = instances[0].read(slug, compute).then(
        () => 'a page',
        (error: Error) => error.message,
      );
      await sleep(50);
      const second = instances[1].read(slug, compute); // takes the lock when it expires, at 1,000 ms
      await sleep(1_400);
      // Between the first's failure (1,200 ms) and the second's page (about 1,700 ms): the lock is the second's.
      const third = instances[0].read(slug, compute);
      expect(await first).toBe('the database went away');
      const pages = await Promise.all([second, third]);
      expect(computations).toBe(2);
      expect(pages[1]).toEqual(pages[0]);
    } finally {
      for (const instance of instances) instance.computeLockMs = 10_000;
    }
  });
});
