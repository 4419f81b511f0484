import type { Clock } from '../../clock/clock.js';
import type { Store } from '../../store/index.js';
import type { DeliveryWithEvent } from '../../store/tables/webhooks.js';
import type { ChaosRow } from '../../store/tables/chaos.js';
import { verdictUnder } from '../chaos.js';
import type { ChaosHold, ChaosVerdict } from '../../contract/chaos.js';

/**
 * The chaos verdict for attempt `number` of `row` under the app's `setting`: the kept one when this
 * is a held attempt coming due (sent now, without asking again), else a fresh draw.
 */
export function verdictForAttempt(store: Store, row: DeliveryWithEvent, number: number, setting: ChaosRow | undefined): ChaosVerdict {
  const held = row.chaos_hold;
  if (held?.attempt === number) return { ...held.verdict, delayMs: 0 };
  return verdictUnder(store, setting, row.id, number);
}

/** Chaos delay: the same attempt, later on the virtual clock, with the verdict kept. */
export function holdForChaos(store: Store, clock: Clock, row: DeliveryWithEvent, number: number, verdict: ChaosVerdict): void {
  const hold: ChaosHold = { attempt: number, verdict };
  store.webhooks.hold(row.id, clock.now() + verdict.delayMs, hold, clock.now());
}
