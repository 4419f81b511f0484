import type { WebhookStreamEvent } from '../../src/contract/webhook-stream.js';
import { openDeliveryStream } from '../../src/client/webhook-stream.js';

/**
 * Something a test waits for that can only change when an event happens (a line printed, a
 * request received, a delivery attempt recorded). `until` checks the condition now and again
 * after each `notify`, never on a timer; the bound only turns a hang into a failure that says
 * what was awaited.
 */
type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

export class Condition {
  private generation = 0;
  private readonly waiters = new Set<() => void>();

  notify(): void {
    this.generation += 1;
    for (const wake of [...this.waiters]) wake();
  }

  async until<T>(what: string | (() => string), probe: () => T | Promise<T>, timeoutMs = 15_000): Promise<Truthy<T>> {
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        timedOut = true;
        resolve();
      }, timeoutMs);
    });
    try {
      for (;;) {
        const seen = this.generation;
        const value = await probe();
        if (value) return value as Truthy<T>;
        if (timedOut) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
        // An event during the probe: look again at once rather than wait for the next one.
        if (this.generation !== seen) continue;
        let wake!: () => void;
        await Promise.race([new Promise<void>((resolve) => this.waiters.add((wake = resolve))), deadline]);
        this.waiters.delete(wake);
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Resolves with the promise's value, or with `undefined` once `ms` have passed without one. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export interface DeliveryFollower {
  events: WebhookStreamEvent[];
  /** Notified on every delivery event of the app (queued, attempt started or finished, cancelled). */
  changed: Condition;
  close(): void;
}

/**
 * Follows an app's deliveries on the emulator's live stream, the events `webhook listen` shows.
 * The emulator sends an attempt's event only after the attempt is stored, so a control-plane read
 * made on an event sees it.
 */
export async function followDeliveries(baseUrl: string, appId: string): Promise<DeliveryFollower> {
  const events: WebhookStreamEvent[] = [];
  const changed = new Condition();
  const stream = await openDeliveryStream(baseUrl, { appId }, (event) => {
    // A follower without --forward is never replaced; only delivery events come.
    if ('delivery_id' in event) events.push(event);
    changed.notify();
  });
  return { events, changed, close: () => stream.close() };
}

/**
 * For a state that announces no change (a connection pool's counts): checks `probe` on every turn
 * of the timers phase, 10 ms apart, until it holds or `timeoutMs` passed. Everything that has an
 * event waits on it with `Condition` instead.
 */
export async function pollUntil<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 15_000): Promise<Truthy<T>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
