import type { StateReset } from '../../contract/state.js';
import { recordClock } from '../clock-and-ids.js';
import type { StateChangeContext } from './state-change-context.js';
import { rebuildDerivedTables } from '../../store/derived.js';
import { seedFixtures, storedFixtures } from '../seed.js';
import { afterStateChange } from './import.js';
import { announceEnded, holdListeners, reattachListeners } from './listeners.js';
import { listTables, quote } from './tables.js';

/**
 * Empties every table and re-seeds the fixtures the emulator loaded (`serve --fixtures FILE`),
 * or the bundled ones, in one transaction. Faults and chaos settings go too. The clock keeps its
 * time: it only moves forward (a state import is the one thing that restores an earlier offset).
 * A running `webhook listen` stays attached (CHOICE-30).
 */
export function resetState(ctx: StateChangeContext): StateReset {
  const { file, fixtures } = storedFixtures(ctx);
  const db = ctx.store.db;
  const held = holdListeners(ctx);
  const ended = db.transaction(() => {
    db.pragma('defer_foreign_keys = ON');
    for (const table of listTables(db)) db.prepare(`DELETE FROM ${quote(table.name)}`).run();
    recordClock(ctx.store, ctx.clock);
    seedFixtures(ctx, file, fixtures);
    rebuildDerivedTables(db);
    return reattachListeners(ctx, held, 'state_reset');
  })();
  afterStateChange(ctx);
  announceEnded(ctx, ended);
  return { object: 'state_reset', fixtures: file, apps: ctx.store.apps.all().map((a) => a.id) };
}
