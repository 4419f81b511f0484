import type { StateResetResponse } from '../../contract/extras.js';
import { ApiError } from '../../contract/errors.js';
import type { EmulatorContext } from '../context.js';
import { CLOCK_OFFSET_META } from '../create-emulator.js';
import { applyFixtures } from '../domain/fixtures.js';
import { FixtureError, readFixtures } from '../fixtures.js';
import { afterStateChange } from './import.js';
import { listTables, quote } from './tables.js';
import { packagePath } from '../../util/package-root.js';

/** The fixtures shipped with scanctl (the same file `scanctl serve` seeds a fresh database with). */
export const BUNDLED_FIXTURES_FILE = packagePath('fixtures', 'default.json');

/**
 * Empties every table and re-seeds the fixtures the emulator loaded (`serve --fixtures FILE`),
 * or the bundled ones, in one transaction. Faults and chaos settings go too. The clock keeps its
 * time: it only moves forward (a state import is the one thing that restores an earlier offset).
 */
export function resetState(ctx: EmulatorContext): StateResetResponse {
  const file = ctx.store.meta.get('fixtures_path') ?? ctx.config.fixturesPath ?? BUNDLED_FIXTURES_FILE;
  let fixtures;
  try {
    fixtures = readFixtures(file);
  } catch (error) {
    if (error instanceof FixtureError) throw new ApiError('parameter_invalid', `Cannot re-seed: ${error.message}`.slice(0, 500));
    throw error;
  }
  const db = ctx.store.db;
  db.transaction(() => {
    db.pragma('defer_foreign_keys = ON');
    for (const table of listTables(db)) db.prepare(`DELETE FROM ${quote(table.name)}`).run();
    ctx.store.meta.set(CLOCK_OFFSET_META, String(ctx.clock.offsetMs));
    applyFixtures(ctx.store, ctx.ids, ctx.box, ctx.clock.now(), fixtures);
    ctx.store.meta.set('fixtures_path', file);
    if (fixtures.apps[0]) ctx.store.meta.set('default_app_id', fixtures.apps[0].id);
  })();
  afterStateChange(ctx);
  return { object: 'state_reset', fixtures: file, apps: ctx.store.apps.all().map((a) => a.id) };
}
