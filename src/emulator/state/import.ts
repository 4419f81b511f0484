import { z } from 'zod';
import type { StateCell, StateFile, StateImport } from '../../contract/state.js';
import { ApiError } from '../../contract/errors.js';
import { cellProblem } from '../../store/json-columns.js';
import { schemaVersion } from '../../store/db.js';
import { anyTableRow, rowsOf } from '../../store/row-statements.js';
import { rebuildDerivedTables } from '../../store/derived.js';
import type { StateChangeContext } from './state-change-context.js';
import { followStoredFixtures } from '../seed.js';
import { recordClock, restartSeededIds } from '../clock-and-ids.js';
import { announceEnded, holdListeners, reattachListeners } from './listeners.js';
import { listTables, plainName, quote, type TableInfo } from './tables.js';
import { errorMessage } from '../../util/caught.js';

/**
 * Replaces the emulator's whole state with a state file, in one transaction: every table is
 * emptied, then filled with the file's rows (foreign keys checked at commit). A file from a newer
 * schema is refused; one from an older schema is imported as far as its columns go.
 * Sealed secrets: a plain value in the file is sealed with this emulator's key; a null keeps the
 * secret this database already holds for the same row when its hint matches, else stays null.
 */
export function importState(ctx: StateChangeContext, file: StateFile): StateImport {
  const db = ctx.store.db;
  const current = schemaVersion(db);
  if (file.schema_version > current) {
    throw new ApiError(
      'parameter_invalid',
      `The state file is from schema version ${file.schema_version}, newer than this emulator's ${current}: upgrade scanctl to import it.`,
      'schema_version',
    );
  }
  const tables = new Map(listTables(db).map((t) => [t.name, t]));
  for (const [name, rows] of Object.entries(file.tables)) {
    const table = tables.get(name);
    if (!table)
      throw new ApiError(
        'parameter_invalid',
        `The state file has a table "${name.slice(0, 100)}" this emulator does not know.`,
        `tables.${name}`,
      );
    const known = new Set([...table.columns.filter((c) => !table.sealed.includes(c)), ...table.sealed.map(plainName)]);
    rows.forEach((row, i) => {
      const unknown = Object.keys(row).find((column) => !known.has(column));
      if (unknown) {
        throw new ApiError(
          'parameter_invalid',
          `tables.${name}[${i}] has a column "${unknown.slice(0, 100)}" the table does not have.`,
          `tables.${name}[${i}].${unknown}`,
        );
      }
      for (const [column, cell] of Object.entries(row)) {
        const problem = cellProblem(name, column, cell);
        if (problem) {
          throw new ApiError('parameter_invalid', `tables.${name}[${i}].${column} ${problem}.`, `tables.${name}[${i}].${column}`);
        }
      }
    });
  }

  const kept = keptSecrets(ctx, [...tables.values()]);
  const held = holdListeners(ctx);
  const withoutSecret: string[] = [];
  const counts: Record<string, number> = {};
  const run = db.transaction(() => {
    db.pragma('defer_foreign_keys = ON');
    for (const table of tables.values()) db.prepare(`DELETE FROM ${quote(table.name)}`).run();
    for (const [name, rows] of Object.entries(file.tables)) {
      const table = tables.get(name)!;
      counts[name] = rows.length;
      // Listeners belong to the run that exported them, not to its state (CHOICE-30).
      if (name === LISTENERS) continue;
      rows.forEach((row, i) => {
        const values: Record<string, unknown> = {};
        for (const [column, value] of Object.entries(row)) {
          if (!isSealedPlain(table, column)) values[column] = fromCell(value);
        }
        for (const column of table.sealed) {
          const plain = row[plainName(column)];
          if (typeof plain === 'string') values[column] = ctx.box.seal(plain);
          else {
            const hint = row[`${plainName(column)}_hint`];
            const keep = typeof hint === 'string' ? kept.get(keyOf(table, row, column, hint)) : undefined;
            values[column] = keep ?? null;
            if (!keep && typeof hint === 'string' && name === 'apps')
              withoutSecret.push(typeof row.id === 'string' ? row.id : JSON.stringify(row.id));
          }
        }
        // A delivery exported while in flight is due after the import, as a restart makes it.
        if (name === 'deliveries' && values.status === 'in_flight') values.status = 'pending';
        const columns = Object.keys(values);
        if (columns.length === 0) return;
        const sql = `INSERT INTO ${quote(name)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
        try {
          db.prepare(sql).run(...columns.map((c) => values[c]));
        } catch (error) {
          throw new ApiError(
            'parameter_invalid',
            `tables.${name}[${i}] cannot be stored: ${errorMessage(error).slice(0, 200)}.`,
            `tables.${name}[${i}]`,
          );
        }
      });
    }
    recordClock(ctx.store, ctx.clock, file.clock_offset_ms);
    rebuildDerivedTables(db);
    // (a row of PRAGMA foreign_key_check has the rowid and the key's number too)
    const violations = rowsOf(db, () => z.object({ table: z.string(), parent: z.string() }))
      .prepare('PRAGMA foreign_key_check')
      .all();
    if (violations.length > 0) {
      const first = violations[0]!;
      throw new ApiError(
        'parameter_invalid',
        `The state file's ${first.table} refers to a ${first.parent} row it does not contain.`,
        `tables.${first.table}`,
      );
    }
    return reattachListeners(ctx, held, 'state_import');
  });
  const ended = run();
  ctx.clock.restoreOffset(file.clock_offset_ms);
  afterStateChange(ctx);
  announceEnded(ctx, ended);
  return {
    object: 'state_import',
    schema_version: file.schema_version,
    clock_offset_ms: file.clock_offset_ms,
    tables: counts,
    apps_without_signing_secret: withoutSecret.sort(),
  };
}

const LISTENERS = 'webhook_listeners';

function isSealedPlain(table: TableInfo, column: string): boolean {
  return table.sealed.some((sealed) => plainName(sealed) === column);
}

function fromCell(value: StateCell): unknown {
  if (value !== null && typeof value === 'object') return Buffer.from(value.base64, 'base64');
  return value;
}

/** Sealed secrets already in this database, by row and hint, so that an export without secrets re-imports without losing them. */
function keptSecrets(ctx: StateChangeContext, tables: TableInfo[]): Map<string, string> {
  const kept = new Map<string, string>();
  for (const table of tables) {
    for (const column of table.sealed) {
      const hintColumn = `${plainName(column)}_hint`;
      if (!table.columns.includes(hintColumn)) continue;
      const rows = rowsOf(ctx.store.db, anyTableRow)
        .prepare(`SELECT * FROM ${quote(table.name)} WHERE ${quote(column)} IS NOT NULL`)
        .all();
      for (const row of rows) {
        const sealed = row[column];
        const hint = row[hintColumn];
        if (typeof sealed === 'string' && typeof hint === 'string') kept.set(keyOf(table, row, column, hint), sealed);
      }
    }
  }
  return kept;
}

function keyOf(table: TableInfo, row: Record<string, unknown>, column: string, hint: string): string {
  const pk = table.primaryKey.length > 0 ? table.primaryKey.map((c) => String(row[c])) : [];
  return JSON.stringify([table.name, column, ...pk, hint]);
}

/** After the database changed under it: the emulator's in-memory view follows the new state. */
export function afterStateChange(ctx: StateChangeContext): void {
  // What the new state holds in flight is sent by no one: it is due now.
  ctx.store.webhooks.forgetClaims(ctx.clock.now());
  followStoredFixtures(ctx);
  restartSeededIds(ctx.store, ctx.ids);
  ctx.webhooks.kick();
}
