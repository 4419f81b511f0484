import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, schemaVersion } from '../../../src/store/db.js';
import { FIRST_VERSION, MIGRATIONS } from '../../../src/store/migrations/index.js';
import { DatabaseRefusedError } from '../../../src/store/open-checks.js';
import { migrateTheOldWay } from '../../fixtures/old-migrations/index.js';
import { tempDir } from '../../helpers/temp.js';

/** SQL text as SQLite keeps it, without comments and with one spelling of white space around punctuation. */
function normalise(sql: string | null): string | null {
  if (sql === null) return null;
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),])\s*/g, '$1')
    .trim();
}

/** Everything SQLite says about a schema: its rows of sqlite_schema, each table's columns, keys and indexes, the version. */
function describeSchema(db: Database.Database) {
  const all = <T>(sql: string) => db.prepare<[], T>(sql).all();
  const objects = all<{ type: string; name: string; tbl_name: string; sql: string | null }>(
    'SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name',
  ).map((row) => ({ ...row, sql: normalise(row.sql) }));
  const tables = objects.filter((o) => o.type === 'table').map((o) => o.name);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  const perTable = Object.fromEntries(
    tables.map((table) => [
      table,
      {
        columns: all(`PRAGMA table_xinfo("${table}")`),
        foreignKeys: all(`PRAGMA foreign_key_list("${table}")`),
        // seq is the order the indexes were made in, which a fold changes: left out.
        indexes: all<{ seq: number; name: string }>(`PRAGMA index_list("${table}")`)
          .map(({ seq: _seq, ...index }) => ({ ...index, columns: all(`PRAGMA index_xinfo("${index.name}")`) }))
          .sort(byName),
      },
    ]),
  );
  return { objects, perTable, user_version: db.pragma('user_version', { simple: true }) };
}

const oldWay = (version?: number) => {
  const db = new Database(':memory:');
  migrateTheOldWay(db, version);
  return db;
};

describe('the initial migration', () => {
  it('a fresh database is made by one step, 0011-initial, at schema version 11', () => {
    expect(FIRST_VERSION).toBe(11);
    expect(MIGRATIONS[0]).toMatchObject({ version: FIRST_VERSION, name: '0011-initial' });
    const db = openDatabase(':memory:');
    expect(schemaVersion(db)).toBe(FIRST_VERSION);
    db.close();
  });

  it('makes the same schema as the eleven pre-release steps (test/fixtures/old-migrations)', () => {
    const old = oldWay();
    const fresh = new Database(':memory:');
    migrate(fresh, ':memory:');
    const [a, b] = [describeSchema(old), describeSchema(fresh)];
    expect(b.objects.length).toBeGreaterThan(40);
    expect(b).toEqual(a);
    old.close();
    fresh.close();
  });

  it('the comparison sees a difference of one column or one index', () => {
    const fresh = new Database(':memory:');
    migrate(fresh, ':memory:');
    // Version 10 lacks attempts.duplicate_send; version 9 also lacks deliveries_status_created.
    for (const version of [10, 9]) {
      const old = oldWay(version);
      old.pragma(`user_version = ${FIRST_VERSION}`);
      expect(describeSchema(old)).not.toEqual(describeSchema(fresh));
      old.close();
    }
    fresh.close();
  });

  it('CHOICE-38: a database at a pre-release version (1-10) is refused with a hint, and left untouched', () => {
    const path = join(tempDir('scanctl-migrations-'), 'old.db');
    const raw = new Database(path);
    migrateTheOldWay(raw, 7);
    raw.close();
    let error: unknown;
    try {
      openDatabase(path).close();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DatabaseRefusedError);
    expect((error as DatabaseRefusedError).message).toBe(
      `the database ${path} is at schema version 7 (user_version), a schema from before scanctl 0.1.0 that this scanctl cannot upgrade`,
    );
    expect((error as DatabaseRefusedError).hint).toMatch(/--reset/);
    const check = new Database(path);
    expect(check.pragma('user_version', { simple: true })).toBe(7);
    check.close();
    // --reset takes it (serve then drops every table and migrates afresh).
    openDatabase(path, { reset: true }).close();
  });
});
