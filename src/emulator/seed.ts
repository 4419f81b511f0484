import { resolve } from 'node:path';
import { ApiError } from '../contract/errors.js';
import { META } from '../store/meta-keys.js';
import { packagePath } from '../util/package-root.js';
import type { EmulatorConfig } from './config.js';
import type { StateContext } from './domain/state-context.js';
import { applyFixtures } from './domain/apply-fixtures.js';
import { FixtureError, readFixtures, type Fixtures } from './fixture-file.js';

/** The fixtures shipped with scanctl: what a fresh database is seeded with. */
export const BUNDLED_FIXTURES_FILE = packagePath('fixtures', 'default.json');

type SeedContext = StateContext & { config: EmulatorConfig };

/**
 * The one way fixtures get into a database (serve at start, state reset): upserted in one
 * transaction, and remembered as the database's fixtures (file and default app), so that a restart
 * and a reset find them again.
 */
export function seedFixtures(ctx: SeedContext, file: string, fixtures: Fixtures = readFixtures(file)): void {
  ctx.store.db.transaction(() => {
    applyFixtures(ctx.store, ctx.ids, ctx.box, ctx.clock.now(), fixtures);
    ctx.store.meta.set(META.fixturesPath, file);
    if (fixtures.apps[0]) ctx.store.meta.set(META.defaultAppId, fixtures.apps[0].id);
  })();
  followStoredFixtures(ctx);
}

/** What the database records as its fixture file when they were given as an object (startEmulator). */
export const INLINE_FIXTURES = '(fixtures given as an object)';

/**
 * At start-up: a fresh database is seeded from the bundled fixtures, an explicitly named fixture
 * file (or fixtures given as an object) is upserted every time; either way the emulator then follows what the database says.
 * Returns the file loaded, if any.
 */
export function seedAtStart(ctx: SeedContext, explicitFile: string | null, inline: Fixtures | null = null): string | null {
  if (inline) {
    seedFixtures(ctx, INLINE_FIXTURES, inline);
    return INLINE_FIXTURES;
  }
  const fresh = ctx.store.apps.all().length === 0;
  if (!fresh && explicitFile === null) {
    followStoredFixtures(ctx);
    return null;
  }
  const file = resolve(explicitFile ?? BUNDLED_FIXTURES_FILE);
  seedFixtures(ctx, file);
  return file;
}

/** The fixture file this database was seeded from (or the bundled one), as a refusal when it no longer reads. */
export function storedFixtures(ctx: SeedContext): { file: string; fixtures: Fixtures } {
  const file = ctx.store.meta.get(META.fixturesPath) ?? ctx.config.fixturesPath ?? BUNDLED_FIXTURES_FILE;
  if (file === INLINE_FIXTURES && ctx.config.inlineFixtures) return { file, fixtures: ctx.config.inlineFixtures };
  try {
    return { file, fixtures: readFixtures(file) };
  } catch (error) {
    if (error instanceof FixtureError) throw new ApiError('parameter_invalid', `Cannot read the fixtures: ${error.message}`.slice(0, 500));
    throw error;
  }
}

/** The emulator's view of its fixtures (default app, file) follows what the database says. */
export function followStoredFixtures(ctx: SeedContext): void {
  ctx.config.defaultAppId = ctx.store.meta.get(META.defaultAppId) ?? ctx.store.apps.all()[0]?.id ?? null;
  ctx.config.fixturesPath = ctx.store.meta.get(META.fixturesPath) ?? ctx.config.fixturesPath ?? null;
}

export interface FixtureKeyPair {
  secret: string;
  publishable: string;
}

/**
 * The keys the fixture file gives an app, so that commands and the ready line can use the test
 * key without anyone reading the file a second time. The database keeps only their hashes.
 */
export function fixtureKeys(ctx: SeedContext, appId: string): { file: string; test: FixtureKeyPair | null; live: FixtureKeyPair | null } {
  const { file, fixtures } = storedFixtures(ctx);
  const app = fixtures.apps.find((a) => a.id === appId);
  return { file, test: app?.keys.test ?? null, live: app?.keys.live ?? null };
}
