import type { Database } from 'better-sqlite3';
import * as m0001 from './0001-initial.js';
import * as m0002 from './0002-faults-and-chaos.js';
import * as m0003 from './0003-webhooks.js';
import * as m0004 from './0004-listener-events.js';
import * as m0005 from './0005-delivery-pages.js';
import * as m0006 from './0006-flat-costs.js';
import * as m0007 from './0007-pending-deliveries.js';
import * as m0008 from './0008-claims-in-memory.js';
import * as m0009 from './0009-one-status-index.js';
import * as m0010 from './0010-in-flight-column.js';
import * as m0011 from './0011-duplicate-sends.js';

/** Append-only: a shipped migration is never edited; a change is a new numbered file listed here. */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; up: (db: Database) => void }> = [
  { version: 1, name: '0001-initial', up: m0001.up },
  { version: 2, name: '0002-faults-and-chaos', up: m0002.up },
  { version: 3, name: '0003-webhooks', up: m0003.up },
  { version: 4, name: '0004-listener-events', up: m0004.up },
  { version: 5, name: '0005-delivery-pages', up: m0005.up },
  { version: 6, name: '0006-flat-costs', up: m0006.up },
  { version: 7, name: '0007-pending-deliveries', up: m0007.up },
  { version: 8, name: '0008-claims-in-memory', up: m0008.up },
  { version: 9, name: '0009-one-status-index', up: m0009.up },
  { version: 10, name: '0010-in-flight-column', up: m0010.up },
  { version: 11, name: '0011-duplicate-sends', up: m0011.up },
];

/** The one runner: applies, in order, the migrations after version `from` up to `to` (default: the last). */
export function runMigrations(db: Database, from: number, to: number = MIGRATIONS.at(-1)?.version ?? 0): void {
  for (const migration of MIGRATIONS) if (migration.version > from && migration.version <= to) migration.up(db);
}
