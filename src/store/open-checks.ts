import { z } from 'zod';
import { openSqlite } from './sqlite.js';
import { existsSync, statSync } from 'node:fs';
import type { Db } from './db.js';
import { rowsOf } from './row-statements.js';
import { FIRST_VERSION, runMigrations } from './migrations/index.js';
import { errorMessage } from '../util/caught.js';

/** A database file serve will not use as it is, said in one line with what to do (CLI: exit 2). */
export class DatabaseRefusedError extends Error {
  constructor(
    readonly path: string,
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'DatabaseRefusedError';
  }
}

const MOVE_ASIDE = 'move the file aside (keep it if it holds what you need), or start from an empty database with --reset';

/**
 * CHOICE-38: a zero-length file is refused, not silently taken for a new database: it is what a
 * truncation leaves, and starting afresh over it would hide the loss. --reset takes it. (A
 * zero-length file beside a WAL that holds pages is left to SQLite, which recovers from the WAL.)
 */
export function refuseEmptyFile(path: string, allowEmpty: boolean): void {
  if (allowEmpty || path === ':memory:' || !existsSync(path)) return;
  if (statSync(path).size > 0) return;
  const wal = `${path}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) return;
  throw new DatabaseRefusedError(
    path,
    `the database ${path} is an empty file (0 bytes), not a scanctl database`,
    'delete it to start afresh, or pass --reset',
  );
}

/** PRAGMA quick_check at start: a damaged file is refused before anything is written into it. */
export function refuseDamaged(db: Db, path: string): void {
  if (path === ':memory:') return;
  let problems: string[];
  try {
    problems = z
      .array(z.record(z.string(), z.unknown()))
      .parse(db.pragma('quick_check(5)'))
      .map((row) => String(Object.values(row)[0]));
  } catch (error) {
    throw damaged(path, errorMessage(error));
  }
  if (problems.length !== 1 || problems[0] !== 'ok') throw damaged(path, problems[0] ?? 'no answer');
}

export function damaged(path: string, detail: string): DatabaseRefusedError {
  // Not --reset: a damaged file is never written to, so nothing it still holds is lost.
  return new DatabaseRefusedError(
    path,
    `the database ${path} is damaged (${detail.slice(0, 200)})`,
    "move the file aside and start again (sqlite3's .recover can save what is readable from it)",
  );
}

/**
 * CHOICE-38: user_version must say what the tables are. 0 over existing tables, or a version whose
 * schema is not the one the file holds (set lower by hand, or a copy mixed up), is refused rather
 * than migrated: migrating would run statements meant for another schema. So is a version from
 * before the first release (1 to FIRST_VERSION - 1), whose steps no longer exist.
 */
export function refuseWrongVersion(db: Db, path: string, current: number): void {
  const found = schemaObjects(db);
  if (current === 0) {
    if (found.size === 0) return;
    throw new DatabaseRefusedError(
      path,
      `the database ${path} has tables but no schema version (user_version 0): it is not a scanctl database, or its version was reset`,
      MOVE_ASIDE,
    );
  }
  if (current < FIRST_VERSION) {
    // The steps below FIRST_VERSION were folded into one before the first release: there is nothing to upgrade from.
    throw new DatabaseRefusedError(
      path,
      `the database ${path} is at schema version ${current} (user_version), a schema from before scanctl 0.1.0 that this scanctl cannot upgrade`,
      MOVE_ASIDE,
    );
  }
  const expected = expectedObjects(current);
  const same = expected.size === found.size && [...expected].every((name) => found.has(name));
  if (!same) {
    throw new DatabaseRefusedError(
      path,
      `the database ${path} says schema version ${current} (user_version), but its tables are not that version's`,
      MOVE_ASIDE,
    );
  }
}

/** Every table and index by name, and every column of each table: a step may add no more than a column. */
function schemaObjects(db: Db): Set<string> {
  const rows = rowsOf(db, () => z.strictObject({ type: z.string(), name: z.string() }))
    .prepare("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    .all();
  const columns = rowsOf(db, () => z.strictObject({ tbl: z.string(), col: z.string() }))
    .prepare(
      "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'",
    )
    .all();
  return new Set([...rows.map((r) => `${r.type} ${r.name}`), ...columns.map((c) => `column ${c.tbl}.${c.col}`)]);
}

/** The tables and indexes migrations 1..version make, built in memory (only when a migration is pending). */
function expectedObjects(version: number): Set<string> {
  const scratch = openSqlite(':memory:');
  try {
    runMigrations(scratch, 0, version);
    return schemaObjects(scratch);
  } finally {
    scratch.close();
  }
}
