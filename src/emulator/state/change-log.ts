import { z } from 'zod';
import type { Db } from '../../store/db.js';
import { rowsOf } from '../../store/row-statements.js';
import { quote } from './tables.js';

/** The rows written since the state last matched a checkpoint: (table, rowid), in the connection's temp schema. */
const CHANGES = 'temp.checkpoint_changes';

/** Which checkpoint the state matched when the log was last cleared, per connection (null: none, or unknown). */
const bases = new WeakMap<Db, string | null>();

/**
 * CHOICE-45: a restore copies back only the rows written since the state last matched the
 * checkpoint (it was taken, or restored): a test that wrote ten rows costs ten rows, however large
 * the state. Temp triggers on every table note the rowid of each row inserted, updated or deleted;
 * they live in this connection only (a restart starts without them, and the first restore copies
 * every row). Installed when the first checkpoint of a run is taken or restored, so a run that never
 * uses checkpoints pays nothing per write.
 */
export function trackChanges(db: Db, tables: readonly string[]): void {
  if (bases.has(db)) return;
  // A REPLACE's implicit delete fires delete triggers only with this on (no other trigger exists).
  if (!db.inTransaction) db.pragma('recursive_triggers = ON');
  db.exec(`CREATE TABLE IF NOT EXISTS ${CHANGES} (tbl TEXT NOT NULL, rid INTEGER NOT NULL, PRIMARY KEY (tbl, rid)) WITHOUT ROWID`);
  for (const table of tables) {
    const name = quote(table);
    const literal = `'${table.replace(/'/g, "''")}'`;
    // Not OR IGNORE: an outer statement's conflict clause (an upsert's) would override the trigger's.
    const note = (row: 'NEW' | 'OLD') =>
      `INSERT INTO checkpoint_changes SELECT ${literal}, ${row}.rowid WHERE NOT EXISTS (SELECT 1 FROM checkpoint_changes WHERE tbl = ${literal} AND rid = ${row}.rowid);`;
    const trigger = (event: string) => quote(`checkpoint_${event}_${table}`);
    db.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS ${trigger('insert')} AFTER INSERT ON main.${name} BEGIN ${note('NEW')} END;
      CREATE TEMP TRIGGER IF NOT EXISTS ${trigger('update')} AFTER UPDATE ON main.${name} BEGIN ${note('OLD')} ${note('NEW')} END;
      CREATE TEMP TRIGGER IF NOT EXISTS ${trigger('delete')} AFTER DELETE ON main.${name} BEGIN ${note('OLD')} END;`);
  }
  bases.set(db, null);
}

/**
 * Before every row is copied back (inside that transaction): noting 10^5 rows would cost more than
 * the copy. trackChanges() puts the triggers back after it.
 */
export function pauseTracking(db: Db, tables: readonly string[]): void {
  for (const table of tables) {
    for (const event of ['insert', 'update', 'delete']) db.exec(`DROP TRIGGER IF EXISTS temp.${quote(`checkpoint_${event}_${table}`)}`);
  }
  bases.delete(db);
}

/** The checkpoint the state matched when the changes began to be noted, if any. */
export function changesSince(db: Db): string | null {
  return bases.get(db) ?? null;
}

/** The rowids of `table` written since then. */
export function changedRowsSql(table: string): string {
  return `SELECT rid FROM ${CHANGES} WHERE tbl = '${table.replace(/'/g, "''")}'`;
}

/** The tables with rows written since then. */
export function changedTables(db: Db): Set<string> {
  return new Set(
    rowsOf(db, () => z.string())
      .pluck(`SELECT DISTINCT tbl FROM ${CHANGES}`)
      .all(),
  );
}

/** Inside the transaction that makes the state match `checkpointId`: the log starts again from it. */
export function clearChanges(db: Db): void {
  db.exec(`DELETE FROM ${CHANGES}`);
}

/** Once that transaction committed. */
export function matchedCheckpoint(db: Db, checkpointId: string | null): void {
  bases.set(db, checkpointId);
}
