/**
 * One clock for all time. Domain code reads `clock.now()` (milliseconds since the epoch) and
 * never Date.now(). The emulator's clock is real time plus an offset that only grows.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface VirtualClockOptions {
  /** The underlying time source; tests pass a frozen one so only advance() moves time. */
  base?: () => number;
  /** A frozen clock (`serve --frozen-clock`): the base is this fixed time, so only advance() moves it. */
  frozenAtMs?: number;
  offsetMs?: number;
}

export class VirtualClock implements Clock {
  private readonly base: () => number;
  private offset: number;
  /** The fixed base of a frozen clock, else null (the base is real time). */
  readonly frozenAtMs: number | null;

  constructor(options: VirtualClockOptions = {}) {
    const frozenAt = options.frozenAtMs;
    this.frozenAtMs = frozenAt ?? null;
    this.base = frozenAt === undefined ? (options.base ?? Date.now) : () => frozenAt;
    this.offset = options.offsetMs ?? 0;
  }

  now(): number {
    return this.base() + this.offset;
  }

  get offsetMs(): number {
    return this.offset;
  }

  /** Moves the clock to `ms`; never backwards (a past time is a no-op and returns false). */
  moveTo(ms: number): boolean {
    const delta = ms - this.now();
    if (delta < 0) return false;
    this.offset += delta;
    return true;
  }

  /** Sets the offset as it was recorded: only `scanctl state import` restores a saved clock, possibly earlier. */
  restoreOffset(offsetMs: number): void {
    this.offset = offsetMs;
  }

  advance(ms: number): void {
    if (ms < 0) throw new RangeError('the clock only moves forward');
    this.offset += ms;
  }
}

/** A frozen time source for tests: time moves only when the test advances the virtual clock. */
export function frozenBase(startIso = '2026-11-22T10:00:00.000Z'): () => number {
  const start = Date.parse(startIso);
  return () => start;
}
