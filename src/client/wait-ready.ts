import type { Health } from '../contract/control.js';
import type { ControlClient } from './control.js';
import { realTimer, type WaitTimer } from './wait.js';
import { errorMessage } from '../util/caught.js';

export type ReadyOutcome = { ok: true; health: Health } | { ok: false; last: string };

/** Between two looks at a starting emulator: short, since serve is ready within a few hundred ms. */
const READY_POLL_MS = 100;

/**
 * Waits (real time) until the emulator's health check says ready, or the timeout passes. A refused
 * connection, a 503 or any other answer means "not yet": the emulator may still be binding its port.
 * Polling, bounded by the timeout: there is nothing to subscribe to before the port is open.
 */
export async function waitUntilReady(
  control: ControlClient,
  options: { timeoutMs: number; pollMs?: number; timer?: WaitTimer },
): Promise<ReadyOutcome> {
  const timer = options.timer ?? realTimer;
  const deadline = timer.now() + options.timeoutMs;
  let last: string;
  for (;;) {
    const left = deadline - timer.now();
    try {
      const health = await control.health(Math.max(1, Math.min(5_000, left)));
      if (health.ready) return { ok: true, health };
      last = `not ready: ${notReady(health).join(', ')}`;
    } catch (error) {
      last = errorMessage(error);
    }
    const remaining = deadline - timer.now();
    if (remaining <= 0) return { ok: false, last };
    await timer.sleep(Math.min(options.pollMs ?? READY_POLL_MS, remaining));
  }
}

/** The checks of a health answer that are not passing, in words. */
export function notReady(health: Health): string[] {
  const words = {
    database: 'the database is not open',
    fixtures: 'the fixtures are not loaded',
    deliveries: 'deliveries are not dispatched',
  } as const;
  return (['database', 'fixtures', 'deliveries'] as const).filter((check) => !health.checks[check]).map((check) => words[check]);
}
