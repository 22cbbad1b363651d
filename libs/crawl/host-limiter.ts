interface HostState {
  inFlight: number;
  /** Earliest time the next request to this host may start (Crawl-delay spacing, back-off pauses). */
  nextStartAt: number;
  /** Minimum spacing between request starts, from robots.txt's Crawl-delay. */
  delayMs: number;
  waiting: (() => void)[];
  timer: NodeJS.Timeout | null;
}

/**
 * Politeness per host, shared by every crawl in this process: at most `maxInFlight` requests to a host at once, the
 * host's Crawl-delay between request starts, and pauses after a 429 or 503. Waiters are served in arrival order.
 */
export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();

  constructor(private readonly maxInFlight: number) {}

  /** Nothing starts on `host` for `ms` (back-off after 429 or 503). */
  pause(host: string, ms: number): void {
    const state = this.state(host);
    state.nextStartAt = Math.max(state.nextStartAt, Date.now() + ms);
  }

  /**
   * Runs `task` when the host allows another request, `delayMs` (robots.txt's Crawl-delay) after the previous start;
   * the slot is held until the task settles.
   */
  async run<T>(host: string, delayMs: number, task: () => Promise<T>): Promise<T> {
    const state = this.state(host);
    state.delayMs = Math.max(0, delayMs);
    await new Promise<void>((resolve) => {
      state.waiting.push(resolve);
      this.dispatch(host, state);
    });
    try {
      return await task();
    } finally {
      state.inFlight -= 1;
      this.dispatch(host, state);
    }
  }

  /**
   * For a request made within a slot already held (the next hop of a redirect): waits until the host's spacing
   * allows another start, and takes that start.
   */
  async nextStart(host: string): Promise<void> {
    const state = this.state(host);
    // Another request may take the start while this one waits: wait again until the start is this one's.
    for (let wait = state.nextStartAt - Date.now(); wait > 0; wait = state.nextStartAt - Date.now()) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    state.nextStartAt = Date.now() + state.delayMs;
  }

  private dispatch(host: string, state: HostState): void {
    if (state.timer) return;
    while (state.waiting.length > 0 && state.inFlight < this.maxInFlight) {
      const wait = state.nextStartAt - Date.now();
      if (wait > 0) {
        state.timer = setTimeout(() => {
          state.timer = null;
          this.dispatch(host, state);
        }, wait);
        return;
      }
      state.inFlight += 1;
      state.nextStartAt = Date.now() + state.delayMs;
      state.waiting.shift()?.();
    }
    // An idle host whose spacing has passed needs no memory.
    if (state.inFlight === 0 && state.waiting.length === 0 && state.nextStartAt <= Date.now()) this.hosts.delete(host);
  }

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { inFlight: 0, nextStartAt: 0, delayMs: 0, waiting: [], timer: null };
      this.hosts.set(host, state);
    }
    return state;
  }
}
