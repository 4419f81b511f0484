import { VirtualClock } from '../clock/clock.js';
import type { Store } from '../store/index.js';
import { META } from '../store/meta-keys.js';
import { SeededIds, type Ids } from '../util/ids.js';

/** What a run asks of its clock: `--clock-start TIME`, `--frozen-clock`. */
export interface ClockSetup {
  startMs?: number | null;
  frozen?: boolean;
}

/**
 * The emulator's clock from what the database recorded and what this run asks. The clock is
 * `base + offset`: the base is real time, or a fixed time when frozen (then only advance and set
 * move it). `startMs` puts a fresh database's clock there, and an existing one's only if that is
 * later: the clock never moves back.
 */
export function openClock(store: Store, setup: ClockSetup = {}): VirtualClock {
  const offset = store.meta.get(META.clockOffset);
  const frozenAt = store.meta.get(META.clockFrozenAt);
  const start = setup.startMs ?? null;
  if (!setup.frozen && start === null && frozenAt === undefined) return new VirtualClock({ offsetMs: Number(offset ?? 0) });
  const recorded = offset === undefined ? null : (frozenAt === undefined ? Date.now() : Number(frozenAt)) + Number(offset);
  const now = start !== null && (recorded === null || start > recorded) ? start : (recorded ?? Date.now());
  const clock = setup.frozen ? new VirtualClock({ frozenAtMs: now }) : new VirtualClock({ offsetMs: now - Date.now() });
  recordClock(store, clock);
  return clock;
}

/** Writes the clock where a restart finds it; `offsetMs` when the offset is about to be restored (a state import). */
export function recordClock(store: Store, clock: VirtualClock, offsetMs = clock.offsetMs): void {
  store.meta.set(META.clockOffset, String(offsetMs));
  if (clock.frozenAtMs === null) store.meta.delete(META.clockFrozenAt);
  else store.meta.set(META.clockFrozenAt, String(clock.frozenAtMs));
}

/** A seeded emulator's ids: a new stream on every start, so a restart never repeats the ids its database holds. */
export function seededIds(store: Store, seed: number): SeededIds {
  const ids = new SeededIds(seed, 0);
  restartSeededIds(store, ids);
  return ids;
}

/** After state came from outside (an import, a reset): seeded ids move to a stream that state has not used. */
export function restartSeededIds(store: Store, ids: Ids): void {
  if (!(ids instanceof SeededIds)) return;
  const next = Math.max(Number(store.meta.get(META.seedStream) ?? 0), ids.currentStream) + 1;
  store.meta.set(META.seedStream, String(next));
  ids.restart(next);
}
