import type { Database } from 'better-sqlite3';
import * as m0001 from './0001-initial.js';

/** Append-only: a shipped migration is never edited; a change is a new numbered file listed here. */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; up: (db: Database) => void }> = [
  { version: 1, name: '0001-initial', up: m0001.up },
];
