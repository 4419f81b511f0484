import type { VirtualClock } from '../clock/clock.js';
import type { TimerSource } from '../clock/timer-source.js';
import { ApiError } from '../contract/errors.js';

/** What a clock move did: the due moments it played, and where it left the clock. */
export interface ClockMove {
  played: number;
  now: number;
  offsetMs: number;
}

/**
 * Moves the emulator's clock. Advancing plays every due event in order, each at its own virtual
 * time: the clock stops at each due moment, the sources run, and only then moves on.
 */
export class Scheduler {
  private readonly sources: TimerSource[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private stopping = false;

  constructor(
    private readonly clock: VirtualClock,
    private readonly persistOffset: (offsetMs: number) => void,
  ) {}

  register(source: TimerSource): void {
    this.sources.push(source);
  }

  /** Advances to `target` (ms since the epoch), playing due events on the way. Calls are serialized. */
  advanceTo(target: number): Promise<ClockMove> {
    return this.serialize(() =>
      this.play(
        () => target,
        () => void this.clock.moveTo(target),
      ),
    );
  }

  /**
   * Advances by exactly `ms` of offset (`clock advance 25h` adds 25 h to the offset, however long
   * the due events take to play in real time), playing due events on the way. Calls are serialized.
   */
  advanceBy(ms: number): Promise<ClockMove> {
    return this.serialize(() => {
      const targetOffset = this.clock.offsetMs + ms;
      return this.play(
        () => this.clock.now() - this.clock.offsetMs + targetOffset,
        () => {
          if (targetOffset > this.clock.offsetMs) this.clock.advance(targetOffset - this.clock.offsetMs);
        },
      );
    });
  }

  /**
   * CHOICE-35: serve is stopping. A clock move under way stops after the step it is playing (the
   * clock stays where that step left it, saved) and answers 503 service_stopping, as do later ones.
   * Resolves once no move is running.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.queue;
  }

  /** Runs `work` between clock moves (a checkpoint or restore), never during one: a move sees one state and one clock. */
  exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    return this.serialize(async () => await work());
  }

  private serialize<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The offset is saved every PERSIST_EVERY steps and once at the end, not at every step (each save
   * is a commit): what is saved is never ahead of the clock, so a restart never moves it back past
   * a saved point, and a crash mid-advance loses at most the last few steps' worth of offset.
   */
  static readonly PERSIST_EVERY = 256;

  private async play(target: () => number, finish: () => void): Promise<ClockMove> {
    // What arrives during the advance is first due at its end: the advance plays the window's work, once.
    for (const source of this.sources) source.advancing?.(target());
    try {
      return await this.playWindow(target, finish);
    } finally {
      for (const source of this.sources) source.advancing?.(null);
    }
  }

  private async playWindow(target: () => number, finish: () => void): Promise<ClockMove> {
    let played = 0;
    let stalls = 0;
    let due = await this.settledEarliestDue();
    for (;;) {
      if (this.stopping) {
        this.persistOffset(this.clock.offsetMs);
        throw new ApiError(
          'service_stopping',
          `The emulator is stopping: the clock moved through ${played} due moments, then stopped short of its target.`,
          undefined,
          {
            headers: { Connection: 'close' },
          },
        );
      }
      // Nothing more in the window: once the work in flight is done (an attempt sent before the
      // advance began), look again, since its outcome may fall due within the window.
      if (due === null || due > target()) due = await this.settledEarliestDue();
      if (due === null || due > target()) break;
      this.clock.moveTo(due);
      if (played % Scheduler.PERSIST_EVERY === 0) this.persistOffset(this.clock.offsetMs);
      await Promise.all(this.sources.map((s) => s.runDue()));
      played += 1;
      // A source that makes no progress must not spin the loop forever.
      const after = this.earliestDue();
      if (after !== null && after <= due) {
        if (++stalls >= 3) break;
      } else stalls = 0;
      due = after;
    }
    finish();
    this.persistOffset(this.clock.offsetMs);
    // Where this move left the clock, read before the next queued work (a restore) can move it.
    return { played, now: this.clock.now(), offsetMs: this.clock.offsetMs };
  }

  private async settledEarliestDue(): Promise<number | null> {
    await Promise.all(this.sources.map(async (source) => source.settle?.()));
    return this.earliestDue();
  }

  private earliestDue(): number | null {
    let earliest: number | null = null;
    for (const source of this.sources) {
      const due = source.nextDueAt();
      if (due !== null && (earliest === null || due < earliest)) earliest = due;
    }
    return earliest;
  }
}
