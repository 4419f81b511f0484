/** The real-time loop looks at the outbox at least this often (the virtual clock can jump). */
const MAX_IDLE_MS = 1_000;

export interface DispatchLoop {
  start(): void;
  /** Stops the timer and waits for the pass under way, if any. */
  stop(): Promise<void>;
  /** Runs a pass soon (new work was queued). */
  kick(): void;
}

/**
 * Real-time dispatching for `serve`: one pass at a time, the next one timed for the earliest due
 * delivery (real ms until its virtual due time, at most MAX_IDLE_MS). Tests do not start it: they
 * play due work through the scheduler.
 */
export function dispatchLoop(pass: () => Promise<void>, msUntilDue: () => number | null, warn: (message: string) => void): DispatchLoop {
  let started = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  function schedule(delayMs?: number): void {
    if (!started) return;
    if (timer) clearTimeout(timer);
    let delay = delayMs;
    if (delay === undefined) {
      const until = msUntilDue();
      delay = until === null ? MAX_IDLE_MS : Math.max(0, Math.min(MAX_IDLE_MS, until));
    }
    timer = setTimeout(tick, delay);
    timer.unref?.();
  }

  function tick(): void {
    timer = null;
    if (!started || running) return;
    running = pass()
      .catch((error: unknown) => warn(`webhook dispatcher: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        running = null;
        schedule();
      });
  }

  return {
    start() {
      started = true;
      schedule(0);
    },
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    kick() {
      if (started && !running) schedule(0);
    },
  };
}
