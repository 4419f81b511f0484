import type BetterSqlite3 from 'better-sqlite3';
import { chmodSync, existsSync } from 'node:fs';
import { z } from 'zod';
import { CHOICES } from '../../contract/choices.js';
import type { Db } from '../../store/db.js';
import { rowsOf, type RowOf } from '../../store/row-statements.js';
import { quote } from './tables.js';

/** The schema the checkpoints are attached as, beside `main`. */
const SCHEMA = 'checkpoints';
const CATALOG = `${SCHEMA}.catalog`;

const checkpointRow = () =>
  z.strictObject({
    id: z.string(),
    name: z.string().nullable(),
    created_at: z.number().int(),
    clock_offset_ms: z.number().int(),
    schema_version: z.number().int(),
    rows: z.number().int(),
  });
export type CheckpointRow = RowOf<typeof checkpointRow>;

/**
 * CHOICE-45: checkpoints live in a SQLite database of their own, attached to the emulator's
 * connection as `checkpoints`: a file beside the database (`scanctl.db.checkpoints`, kept across
 * restarts like the state itself), or memory for an in-memory database. Each checkpoint is a copy
 * of every table of `main` (`"cp_...:apps"`, ...), so a restore is one INSERT ... SELECT per table
 * inside the emulator's own connection: one transaction, no rows through JavaScript.
 * Attached at the first use, so that a run that never takes a checkpoint creates no file.
 */
export function attachCheckpoints(db: Db): void {
  const attached = rowsOf(db, () => z.string())
    .pluck('SELECT name FROM pragma_database_list')
    .all();
  if (attached.includes(SCHEMA)) return;
  const path = db.memory ? ':memory:' : `${db.name}.checkpoints`;
  const created = path !== ':memory:' && !existsSync(path);
  db.prepare(`ATTACH DATABASE ? AS ${SCHEMA}`).run(path);
  // Before its first table: pages freed by a delete can be given back (dropCheckpoint).
  if (created) db.pragma(`${SCHEMA}.auto_vacuum = INCREMENTAL`);
  if (path !== ':memory:') {
    db.pragma(`${SCHEMA}.journal_mode = WAL`);
    db.pragma(`${SCHEMA}.synchronous = NORMAL`);
  }
  db.exec(`CREATE TABLE IF NOT EXISTS ${CATALOG} (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT UNIQUE,
    created_at INTEGER NOT NULL,
    clock_offset_ms INTEGER NOT NULL,
    schema_version INTEGER NOT NULL,
    rows INTEGER NOT NULL
  )`);
  // It holds what the database holds (hashed keys, sealed secrets): the owner's only (CHOICE-13).
  if (created) chmodSync(path, CHOICES.privateFileMode);
}

const COLUMNS = 'id, name, created_at, clock_offset_ms, schema_version, rows';

export function listCheckpoints(db: Db): CheckpointRow[] {
  return rowsOf(db, checkpointRow).prepare(`SELECT ${COLUMNS} FROM ${CATALOG} ORDER BY seq`).all();
}

/** The checkpoint with this id, or else this name. */
export function findCheckpoint(db: Db, idOrName: string): CheckpointRow | undefined {
  return rowsOf(db, checkpointRow)
    .prepare<[string, string]>(`SELECT ${COLUMNS} FROM ${CATALOG} WHERE id = ? OR name = ?`)
    .get(idOrName, idOrName);
}

/**
 * What a restore asks every time, kept per connection: the tables of `main` and their shapes (its
 * schema is made by the migrations when the database opens and stays so for the connection's
 * life), and the statements of each table's copy back. A test suite restores after every test:
 * preparing ~40 statements each time was half of a restore. dropCheckpoint forgets the statements
 * that name the copies it drops.
 */
class RestoreCache {
  tables: string[] | undefined;
  readonly shapes = new Map<string, { columns: string[]; rowidColumn: boolean }>();
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  forget(id: string): void {
    for (const sql of this.statements.keys()) if (sql.includes(id)) this.statements.delete(sql);
  }
}

type Statement = BetterSqlite3.Statement<unknown[]>;
const restoreCaches = new WeakMap<Db, RestoreCache>();

function cacheOf(db: Db): RestoreCache {
  let cache = restoreCaches.get(db);
  if (!cache) restoreCaches.set(db, (cache = new RestoreCache(db)));
  return cache;
}

/** The tables of `main` a checkpoint copies: every one (derived included: copied, not rebuilt) but SQLite's own. */
export function stateTables(db: Db): string[] {
  const cache = cacheOf(db);
  cache.tables ??= rowsOf(db, () => z.string())
    .pluck("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all();
  return [...cache.tables];
}

/** AUTOINCREMENT counters: restored too, so that ids issued after a restore are the ones issued after the checkpoint. */
const SEQUENCE = 'sqlite_sequence';

function hasSequence(db: Db, schema: string): boolean {
  return cacheOf(db).statement(`SELECT 1 FROM ${schema}.sqlite_master WHERE name = '${SEQUENCE}'`).get() !== undefined;
}

const copyName = (id: string, table: string) => `${SCHEMA}.${quote(`${id}:${table}`)}`;

/** A table's columns, and whether its rowid is one of them (an INTEGER PRIMARY KEY): else a copy keeps it as `_rowid`. */
function shapeOf(db: Db, table: string): { columns: string[]; rowidColumn: boolean } {
  const { shapes } = cacheOf(db);
  const known = shapes.get(table);
  if (known) return known;
  const info = rowsOf(db, () => z.strictObject({ name: z.string(), type: z.string(), pk: z.number().int() }))
    .prepare(`SELECT name, type, pk FROM pragma_table_info(${quoteLiteral(table)}, 'main')`)
    .all();
  const keys = info.filter((c) => c.pk > 0);
  const shape = { columns: info.map((c) => quote(c.name)), rowidColumn: keys.length === 1 && keys[0]!.type.toUpperCase() === 'INTEGER' };
  shapes.set(table, shape);
  return shape;
}

/**
 * Copies every table of `main` into the checkpoint `row.id` and catalogs it, in one transaction
 * (of the checkpoints database). Each copy keeps the rows' rowids, as its primary key, so that a
 * restore puts back the same rowids (the order deliveries queued in the same millisecond keep) and
 * can copy back a few rows by rowid.
 */
export function writeCheckpoint(db: Db, row: CheckpointRow, tables: readonly string[], alsoInside: () => void): number {
  return db.transaction(() => {
    let rows = 0;
    for (const table of tables) {
      const { columns } = shapeOf(db, table);
      const copy = copyName(row.id, table);
      db.exec(`CREATE TABLE ${copy} (_rowid INTEGER PRIMARY KEY, ${columns.join(', ')})`);
      rows += db.prepare(`INSERT INTO ${copy} SELECT rowid, ${columns.join(', ')} FROM main.${quote(table)} ORDER BY rowid`).run().changes;
    }
    if (hasSequence(db, 'main')) db.exec(`CREATE TABLE ${copyName(row.id, SEQUENCE)} AS SELECT name, seq FROM main.${SEQUENCE}`);
    db.prepare(`INSERT INTO ${CATALOG} (${COLUMNS}) VALUES (@id, @name, @created_at, @clock_offset_ms, @schema_version, @rows)`).run({
      ...row,
      rows,
    });
    alsoInside();
    return rows;
  })();
}

/** Drops a checkpoint's copies and its catalog row. */
export function dropCheckpoint(db: Db, id: string): void {
  db.transaction(() => {
    const copies = rowsOf(db, () => z.string())
      .pluck<{ id: string }>(
        `SELECT name FROM ${SCHEMA}.sqlite_master WHERE type = 'table' AND substr(name, 1, length(@id) + 1) = @id || ':'`,
      )
      .all({ id });
    for (const copy of copies) db.exec(`DROP TABLE ${SCHEMA}.${quote(copy)}`);
    db.prepare(`DELETE FROM ${CATALOG} WHERE id = ?`).run(id);
  })();
  cacheOf(db).forget(id);
  giveSpaceBack(db);
}

/**
 * The file shrinks by what a delete freed: its free pages are given back (auto_vacuum
 * INCREMENTAL, set when the file is made; a file made before that is vacuumed once into it), and
 * the write-ahead log is checkpointed and truncated. Not inside a caller's transaction (a name
 * taken again drops the old checkpoint inside one): the next delete gives that space back too.
 */
function giveSpaceBack(db: Db): void {
  if (db.memory || db.inTransaction) return;
  if (db.pragma(`${SCHEMA}.auto_vacuum`, { simple: true }) !== 2) {
    db.pragma(`${SCHEMA}.auto_vacuum = INCREMENTAL`);
    db.exec(`VACUUM ${SCHEMA}`);
  } else db.pragma(`${SCHEMA}.incremental_vacuum`);
  db.pragma(`${SCHEMA}.wal_checkpoint(TRUNCATE)`);
}

/**
 * Puts back the rows of `tables` in `main` as the checkpoint holds them (to be called inside the
 * caller's transaction): every row, or only those whose rowid `changed` selects (the rows written
 * since the state matched this checkpoint). Foreign keys are not checked row by row: the copy is a
 * consistent state of this very schema (the caller turns them off around its transaction).
 */
export function copyBack(db: Db, id: string, tables: readonly string[], changed?: (table: string) => string): void {
  const cache = cacheOf(db);
  for (const table of tables) {
    const { columns, rowidColumn } = shapeOf(db, table);
    const into = rowidColumn ? columns : ['rowid', ...columns];
    const from = rowidColumn ? columns : ['_rowid', ...columns];
    const only = changed ? ` WHERE _rowid IN (${changed(table)})` : '';
    cache.statement(`DELETE FROM main.${quote(table)}${changed ? ` WHERE rowid IN (${changed(table)})` : ''}`).run();
    cache
      .statement(
        `INSERT INTO main.${quote(table)} (${into.join(', ')}) SELECT ${from.join(', ')} FROM ${copyName(id, table)}${only} ORDER BY _rowid`,
      )
      .run();
  }
  if (hasSequence(db, 'main')) {
    cache.statement(`DELETE FROM main.${SEQUENCE}`).run();
    const copied = cache.statement(`SELECT 1 FROM ${SCHEMA}.sqlite_master WHERE name = ?`).get(`${id}:${SEQUENCE}`) !== undefined;
    if (copied) cache.statement(`INSERT INTO main.${SEQUENCE} (name, seq) SELECT name, seq FROM ${copyName(id, SEQUENCE)}`).run();
  }
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
