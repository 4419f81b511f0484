import type { Emulator } from '../emulator/create-emulator.js';

/**
 * Sends everything due on the virtual clock now, and waits until every attempt in flight (the
 * real-time dispatcher's too) is recorded. What is due later waits for the clock to move.
 */
export async function settleDeliveries(emulator: Emulator, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await emulator.webhooks.runDue();
    const due = emulator.webhooks.nextDueAt();
    const inFlight = emulator.store.webhooks.deliveries({ status: 'in_flight', limit: 1 }).length;
    if (inFlight === 0 && (due === null || due > emulator.clock.now())) return;
    if (Date.now() > deadline)
      throw new Error(`waitForDeliveries: deliveries still in flight after ${timeoutMs} ms (a receiver that never answers?)`);
    // Another dispatcher run holds them: give it a turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
