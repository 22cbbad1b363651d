import { HostLimiter } from './host-limiter';

/** A request that the test ends by hand, recording when it started and ended. */
interface Request {
  startedAt: number;
  endedAt: number | null;
  end: () => void;
}

function issue(limiter: HostLimiter, host: string, delayMs: number, log: Request[]): Promise<void> {
  return limiter.run(host, delayMs, async () => {
    const request: Request = { startedAt: Date.now(), endedAt: null, end: () => undefined };
    const done = new Promise<void>((resolve) => (request.end = resolve));
    log.push(request);
    await done;
    request.endedAt = Date.now();
  });
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await tick(5);
}

describe('HostLimiter', () => {
  it('lets two requests run at once on a host without Crawl-delay, and a third waits for a slot', async () => {
    const limiter = new HostLimiter(2);
    const log: Request[] = [];
    const all = [1, 2, 3].map(() => issue(limiter, 'a.example', 0, log));
    await tick(20);
    expect(log).toHaveLength(2);
    log[0].end();
    await tick(20);
    expect(log).toHaveLength(3);
    log[1].end();
    log[2].end();
    await Promise.all(all);
  });

  it('keeps hosts apart', async () => {
    const limiter = new HostLimiter(1);
    const log: Request[] = [];
    const all = [issue(limiter, 'a.example', 0, log), issue(limiter, 'b.example', 0, log)];
    await tick(20);
    expect(log).toHaveLength(2);
    log.forEach((request) => request.end());
    await Promise.all(all);
  });

  it('with a Crawl-delay: one request at a time, each starting the delay after the previous answer ended', async () => {
    const limiter = new HostLimiter(2);
    const log: Request[] = [];
    const all = [1, 2, 3].map(() => issue(limiter, 'a.example', 100, log));
    await tick(20);
    expect(log).toHaveLength(1);
    // A slow answer: the next request still waits the full delay from its end, not from its start.
    await tick(150);
    expect(log).toHaveLength(1);
    log[0].end();
    await until(() => log.length === 2);
    log[1].end();
    await until(() => log.length === 3);
    log[2].end();
    await Promise.all(all);
    for (let i = 1; i < log.length; i += 1) {
      // A timer may fire a millisecond early.
      expect(log[i].startedAt - (log[i - 1].endedAt ?? Infinity)).toBeGreaterThanOrEqual(99);
    }
  });

  it('counts a redirect hop from the answer that sent it, and pauses a host after a 429', async () => {
    const limiter = new HostLimiter(2);
    let hopStartedAt = 0;
    let answeredAt = 0;
    await limiter.run('a.example', 100, async () => {
      await tick(30);
      answeredAt = Date.now();
      await limiter.nextStart('a.example', 'a.example');
      hopStartedAt = Date.now();
    });
    expect(hopStartedAt - answeredAt).toBeGreaterThanOrEqual(99);

    limiter.pause('b.example', 200);
    const pausedAt = Date.now();
    let startedAt = 0;
    await limiter.run('b.example', 0, () => Promise.resolve((startedAt = Date.now())));
    expect(startedAt - pausedAt).toBeGreaterThanOrEqual(199);
  });
});
