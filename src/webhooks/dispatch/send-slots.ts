import { Limiter } from './limiter.js';

/** A row waiting for its origin's turn: whose it is, and what to call when a slot is handed to it. */
interface Waiter {
  appId: string;
  go: () => void;
}

/**
 * The sends in flight: at most `total` at once (the global limit) and at most `perOrigin` to one
 * receiver origin (scheme, host, port), so a receiver that hangs holds only its own share
 * (CHOICE-22). A delivery whose origin is full waits in that origin's line, holding no global slot;
 * while an app has a delivery waiting, the dispatcher claims none of its others (`waitingApps`),
 * so what waits in memory is bounded and the rest of the outbox keeps moving.
 */
export class SendSlots {
  private readonly global: Limiter;
  private readonly busy = new Map<string, number>();
  private readonly lines = new Map<string, Waiter[]>();
  private readonly waiting = new Map<string, number>();

  constructor(
    total: number,
    private readonly perOrigin: number,
    /** Called when an app has no delivery waiting any more (its due deliveries may be claimed again). */
    private readonly onAppFreed: () => void,
  ) {
    this.global = new Limiter(total);
  }

  /** A global slot (the dispatcher waits for one before it starts the next delivery). */
  acquireGlobal(): Promise<void> {
    return this.global.acquire();
  }

  releaseGlobal(): void {
    this.global.release();
  }

  /** Takes a slot of `origin` if one is free (null: no origin, nothing to hold). */
  tryOrigin(origin: string | null): boolean {
    if (origin === null) return true;
    const busy = this.busy.get(origin) ?? 0;
    if (busy >= this.perOrigin) return false;
    this.busy.set(origin, busy + 1);
    return true;
  }

  /** Resolves once a slot of `origin` is handed to this delivery of `appId` (then it is held). */
  waitForOrigin(origin: string, appId: string): Promise<void> {
    this.waiting.set(appId, (this.waiting.get(appId) ?? 0) + 1);
    return new Promise((go) => {
      const line = this.lines.get(origin);
      if (line) line.push({ appId, go });
      else this.lines.set(origin, [{ appId, go }]);
    });
  }

  /** Gives back a slot of `origin`: handed to the next in its line, if any. */
  releaseOrigin(origin: string | null): void {
    if (origin === null) return;
    const line = this.lines.get(origin);
    const next = line?.shift();
    if (!next) {
      const busy = (this.busy.get(origin) ?? 1) - 1;
      if (busy > 0) this.busy.set(origin, busy);
      else this.busy.delete(origin);
      return;
    }
    if (line!.length === 0) this.lines.delete(origin);
    const left = this.waiting.get(next.appId)! - 1;
    if (left > 0) this.waiting.set(next.appId, left);
    else this.waiting.delete(next.appId);
    next.go();
    if (left === 0) this.onAppFreed();
  }

  /** The apps with a delivery waiting for its origin: the dispatcher claims none of their others meanwhile. */
  waitingApps(): string[] {
    return [...this.waiting.keys()];
  }
}
