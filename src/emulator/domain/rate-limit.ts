/**
 * CHOICE-2: a fixed one-second window per secret key on the emulator's clock. A limit of 0 is off.
 * In memory on purpose: a restart forgets the window, as a real limiter's would expire.
 */
export class RateLimiter {
  private windows = new Map<string, { second: number; count: number }>();

  /** The limit is read from the emulator's config on every request: one source, changeable while running. */
  constructor(private readonly config: { readonly rateLimitPerSecond: number }) {}

  get limitPerSecond(): number {
    return this.config.rateLimitPerSecond;
  }

  /** Counts a request; returns the milliseconds to wait when it is over the limit, else 0. */
  hit(key: string, now: number): number {
    if (this.limitPerSecond <= 0) return 0;
    const second = Math.floor(now / 1000);
    const window = this.windows.get(key);
    if (!window || window.second !== second) {
      if (this.windows.size > 10_000) this.windows.clear();
      this.windows.set(key, { second, count: 1 });
      return 0;
    }
    window.count += 1;
    return window.count > this.limitPerSecond ? (second + 1) * 1000 - now : 0;
  }
}
