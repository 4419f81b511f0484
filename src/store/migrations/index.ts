import type { Database } from 'better-sqlite3';
import * as m0011 from './0011-initial.js';

/**
 * The schema version a database made by scanctl 0.1.0 starts at. Versions 1-10 were steps taken
 * before the first release, folded into 0011-initial (no released scanctl wrote them); a database
 * at one of them is refused, not upgraded (store/open-checks.ts).
 */
export const FIRST_VERSION = 11;

/**
 * Append-only from the first release on: a shipped step is never edited; a change to the schema is
 * a new numbered file, one past the last, listed here after 0011-initial.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; up: (db: Database) => void }> = [
  { version: 11, name: '0011-initial', up: m0011.up },
];

/** The one runner: applies, in order, the migrations after version `from` up to `to` (default: the last). */
export function runMigrations(db: Database, from: number, to: number = MIGRATIONS.at(-1)?.version ?? 0): void {
  for (const migration of MIGRATIONS) if (migration.version > from && migration.version <= to) migration.up(db);
}
