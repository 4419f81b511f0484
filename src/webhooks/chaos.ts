import { CHOICES } from '../contract/choices.js';
import type { ChaosVerdict, Chaos } from '../contract/chaos.js';
import { toIso } from '../contract/time.js';
import type { Store } from '../store/index.js';
import type { ChaosRow } from '../store/tables/chaos.js';
import { seededInt, seededUnit } from '../util/seeded-random.js';

/**
 * Delivery chaos, consulted by the dispatcher before each attempt.
 * - deliver: send normally (after delayMs of virtual time, when set; duplicate: send the same bytes twice)
 * - drop: do not send; the attempt is recorded as failed with error "dropped by chaos" and retried as usual
 * - fail: do not send; the attempt is recorded as failed with `failStatus` as if the receiver answered it
 *
 * Every verdict is a pure function of (app's chaos setting, delivery, attemptNumber): each draw
 * comes from a PRNG keyed by (seed, delivery, attemptNumber, what), never from a shared stream,
 * so the same seed gives the same verdicts whatever the timing or the order of attempts. The
 * delivery is named by its position among the app's deliveries (see replayKey), so the same flow
 * replays the same verdicts in a fresh emulator, where every id is new.
 * The dispatcher asks once per attempt; a delayed attempt is held and then sent without asking again.
 */
export const NO_CHAOS: ChaosVerdict = { action: 'deliver', delayMs: 0, duplicate: false };

/** The verdict for attempt `attemptNumber` (1-based) of a delivery of `appId`. */
export function chaosVerdict(store: Store, appId: string, deliveryId: string, attemptNumber: number): ChaosVerdict {
  return verdictUnder(store, store.chaos.get(appId), deliveryId, attemptNumber);
}

/** The verdict under the app's setting as already read (the dispatcher reads it once per claimed batch). */
export function verdictUnder(store: Store, setting: ChaosRow | undefined, deliveryId: string, attemptNumber: number): ChaosVerdict {
  return setting ? verdictFor(setting, replayKey(store, deliveryId), attemptNumber) : NO_CHAOS;
}

/**
 * What a delivery's draws are keyed by: its position among the app's deliveries ("#0", "#1", ...),
 * not its random id, so that a fresh emulator running the same flow with the same seed gets the
 * same verdicts (a CI failure replays). Falls back to the id for a delivery the table does not hold.
 */
export function replayKey(store: Store, deliveryId: string): string {
  const ordinal = store.chaos.deliveryOrdinal(deliveryId);
  return ordinal === undefined ? deliveryId : `#${ordinal}`;
}

/** The verdict under one setting: what chaosVerdict answers, without the database (unit-tested directly). */
export function verdictFor(setting: ChaosRow, deliveryId: string, attemptNumber: number): ChaosVerdict {
  const draw = (what: string) => seededUnit(setting.seed, deliveryId, attemptNumber, what);
  // Fail the first N attempts of every delivery: the receiver "answered" fail_status, no draw involved.
  if (attemptNumber <= setting.fail_first) return { action: 'fail', failStatus: setting.fail_status, delayMs: 0, duplicate: false };
  if (setting.drop_probability > 0 && draw('drop') < setting.drop_probability) return { action: 'drop', delayMs: 0, duplicate: false };
  let delayMs = 0;
  if (setting.delay_probability > 0 && draw('delay') < setting.delay_probability) {
    delayMs = setting.delay_ms ?? seededInt(1_000, CHOICES.chaosMaxRandomDelayMs, setting.seed, deliveryId, attemptNumber, 'delay-ms');
  }
  // Reorder: the first attempt of each delivery waits a seeded moment, so deliveries queued together arrive shuffled.
  if (setting.reorder && attemptNumber === 1) {
    delayMs += seededInt(0, CHOICES.chaosReorderWindowMs, setting.seed, deliveryId, 'reorder');
  }
  const duplicate = setting.duplicate_probability > 0 && draw('duplicate') < setting.duplicate_probability;
  return { action: 'deliver', delayMs, duplicate };
}

/**
 * The order in which a batch of due deliveries of one app is sent (reorder chaos permutes it).
 * Items with an `id` (deliveries) are ordered by a seeded hash of their replay key: the same seed
 * and the same deliveries give the same order whatever order they came in.
 */
export function chaosOrder<T>(store: Store, appId: string, batch: T[]): T[] {
  const setting = store.chaos.get(appId);
  if (!setting?.reorder || batch.length < 2) return batch;
  return orderFor(setting.seed, batch, (id) => replayKey(store, id));
}

export function orderFor<T>(seed: number, batch: T[], keyOf: (id: string) => string = (id) => id): T[] {
  const keyed = batch.map((item, index) => {
    const id = typeof item === 'object' && item !== null && 'id' in item ? item.id : undefined;
    return { item, rank: seededUnit(seed, 'order', typeof id === 'string' ? keyOf(id) : `@${index}`) };
  });
  keyed.sort((a, b) => a.rank - b.rank);
  return keyed.map((k) => k.item);
}

export function chaosView(appId: string, row: ChaosRow | undefined): Chaos {
  return {
    object: 'chaos',
    app_id: appId,
    enabled: row !== undefined,
    seed: row?.seed ?? null,
    drop: row?.drop_probability ?? 0,
    duplicate: row?.duplicate_probability ?? 0,
    delay_ms: row?.delay_ms ?? null,
    delay_probability: row?.delay_probability ?? 0,
    reorder: row?.reorder === 1,
    fail_first: row?.fail_first ?? 0,
    fail_status: row?.fail_status ?? 500,
    updated_at: row ? toIso(row.updated_at) : null,
  };
}
