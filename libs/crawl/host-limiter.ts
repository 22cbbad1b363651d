interface HostState {
  inFlight: number;
  /** Earliest time the next request to this host may start (Crawl-delay spacing, back-off pauses). */
  nextStartAt: number;
  /** robots.txt's Crawl-delay: the pause between the end of one answer and the start of the next request. */
  delayMs: number;
  waiting: (() => void)[];
  timer: NodeJS.Timeout | null;
}

/**
 * Politeness per host, shared by every crawl in this process: at most `maxInFlight` requests to a host at once, and
 * pauses after a 429 or 503. A host that sets a Crawl-delay gets one request at a time, each starting that long after
 * the previous answer ended (Yandex's reading of the directive). Counting from the end rather than from the previous
 * start means the site itself sees the spacing, whatever time the network or a busy process adds to one request.
 * Waiters are served in arrival order.
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
   * Runs `task` when the host allows another request, `delayMs` (robots.txt's Crawl-delay) after the previous answer
   * ended; the slot is held until the task settles.
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
      state.nextStartAt = Math.max(state.nextStartAt, Date.now() + state.delayMs);
      this.dispatch(host, state);
    }
  }

  /**
   * For a request made within a slot already held (the next hop of a redirect whose answer came from `fromHost`):
   * waits until the host's spacing allows another start, and takes that start.
   */
  async nextStart(host: string, fromHost: string): Promise<void> {
    const state = this.state(host);
    // The redirect's answer has just ended; when it came from this host, the Crawl-delay counts from here.
    if (fromHost === host) state.nextStartAt = Math.max(state.nextStartAt, Date.now() + state.delayMs);
    // Another request may take the start while this one waits: wait again until the start is this one's.
    for (let wait = state.nextStartAt - Date.now(); wait > 0; wait = state.nextStartAt - Date.now()) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    state.nextStartAt = Date.now() + state.delayMs;
  }

  private dispatch(host: string, state: HostState): void {
    if (state.timer) return;
    const maxInFlight = state.delayMs > 0 ? 1 : this.maxInFlight;
    while (state.waiting.length > 0 && state.inFlight < maxInFlight) {
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
