import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../../src/emulator/create-emulator.js';
import { exportState } from '../../../src/emulator/state/export.js';
import { importState } from '../../../src/emulator/state/import.js';
import { META } from '../../../src/store/meta-keys.js';
import { openDatabase } from '../../../src/store/db.js';
import { SeededIds } from '../../../src/util/ids.js';

const START = Date.parse('2026-01-01T00:00:00Z');

describe('seeded ids and the clock of a run', () => {
  it('the same seed and stream give the same ids and secrets; another seed or stream does not', () => {
    const draw = (seed: number, stream: number) => {
      const ids = new SeededIds(seed, stream);
      return [ids.id('evt'), ids.id('evt'), ids.secret('vst_'), ids.seed()];
    };
    expect(draw(7, 1)).toEqual(draw(7, 1));
    expect(draw(7, 1)[0]).toMatch(/^evt_[A-Za-z0-9]{20}$/);
    expect(draw(7, 1)[2]).toMatch(/^vst_[A-Za-z0-9]{32}$/);
    expect(new Set(draw(7, 1).slice(0, 2)).size).toBe(2);
    expect(draw(8, 1)[0]).not.toBe(draw(7, 1)[0]);
    expect(draw(7, 2)[0]).not.toBe(draw(7, 1)[0]);
  });

  it('a seeded emulator moves to a new stream after an import, so its new ids never repeat the imported ones', () => {
    const source = createEmulator({ db: openDatabase(':memory:'), seed: 3, clockSetup: { startMs: START, frozen: true } });
    const first = source.ids.id('evt');
    const state = exportState(source);
    const target = createEmulator({ db: openDatabase(':memory:'), seed: 3, clockSetup: { startMs: START, frozen: true } });
    importState(target, state);
    expect(target.store.meta.get(META.seedStream)).toBe('2');
    expect(target.ids.id('evt')).not.toBe(first);
  });

  it('--clock-start puts a fresh clock there; a frozen clock moves only when advanced and restarts where it stopped', async () => {
    const db = openDatabase(':memory:');
    const frozen = createEmulator({ db, clockSetup: { startMs: START, frozen: true } });
    expect(frozen.clock.now()).toBe(START);
    await frozen.scheduler.advanceBy(90_000);
    expect(frozen.clock.now()).toBe(START + 90_000);
    expect(exportState(frozen).clock_offset_ms).toBe(90_000);
    // The same database opened again, frozen without a start: the clock is where it was.
    expect(createEmulator({ db, clockSetup: { frozen: true } }).clock.now()).toBe(START + 90_000);
    // An earlier start never moves it back.
    expect(createEmulator({ db, clockSetup: { startMs: START, frozen: true } }).clock.now()).toBe(START + 90_000);
    // Running again: it continues from there with real time.
    const running = createEmulator({ db });
    expect(running.clock.frozenAtMs).toBeNull();
    expect(running.clock.now()).toBeGreaterThanOrEqual(START + 90_000);
    expect(running.clock.now()).toBeLessThan(START + 90_000 + 60_000);
  });
});
