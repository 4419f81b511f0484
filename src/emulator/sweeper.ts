import { CHOICES } from '../contract/choices.js';
import type { StateContext } from './domain/state-context.js';

/** How often the sweeper looks, in real time, and how much one look may do. */
export const SWEEP = { everyMs: 5_000, batch: 2_000, budgetMs: 20 } as const;

/**
 * Deletes idempotency keys past their lifetime on the emulator's clock (CHOICE-7), at most
 * `SWEEP.batch` at a time; returns how many went. An expired key is never honoured again anyway
 * (withIdempotency checks its age), so this only keeps the table from growing without end.
 */
export function sweepExpired(ctx: StateContext, limit: number = SWEEP.batch): number {
  return ctx.store.device.purgeIdempotency(ctx.clock.now() - CHOICES.idempotencyKeyLifetimeMs, limit);
}

/**
 * Sweeps every SWEEP.everyMs: batch after batch (yielding between them) until a batch comes back
 * short or SWEEP.budgetMs has gone, so a large backlog (after `clock advance 25h`) drains over a
 * few looks without holding up requests. Returns the function that stops it.
 */
export function startSweeper(ctx: StateContext): () => void {
  let stopped = false;
  const look = async () => {
    const started = Date.now();
    while (!stopped && sweepExpired(ctx) === SWEEP.batch && Date.now() - started < SWEEP.budgetMs) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const timer = setInterval(() => void look(), SWEEP.everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
