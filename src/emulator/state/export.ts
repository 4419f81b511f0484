import { STATE_FORMAT, STATE_FORMAT_VERSION, type StateCell, type StateFile } from '../../contract/state.js';
import { schemaVersion } from '../../store/db.js';
import type { EmulatorContext } from '../context.js';
import { META } from '../../store/meta-keys.js';
import { listTables, plainName, quote } from './tables.js';

/** Meta rows of the running clock, not of the state: the offset is a top-level field, the frozen base belongs to the run. */
const RUN_META = new Set<string>([META.clockOffset, META.clockFrozenAt]);

export interface ExportOptions {
  /** Put webhook signing secrets in the file in plain text (so another database can re-seal them). */
  includeSecrets?: boolean;
}

/**
 * The emulator's whole state as one diffable object: every table under its name (sorted), rows
 * sorted by primary key, each row's keys sorted. Keys and tokens are hashes in the database and
 * stay hashes; sealed secrets become null, or their plain value with includeSecrets.
 * The clock offset is a top-level field (and left out of the meta table, where it may lag).
 */
export function exportState(ctx: EmulatorContext, options: ExportOptions = {}): StateFile {
  const db = ctx.store.db;
  const read = db.transaction(() => {
    const tables: Record<string, Array<Record<string, StateCell>>> = {};
    for (const table of listTables(db)) {
      const order = table.primaryKey.length > 0 ? table.primaryKey.map(quote).join(', ') : 'rowid';
      const rows = db.prepare<[], Record<string, unknown>>(`SELECT * FROM ${quote(table.name)} ORDER BY ${order}`).all();
      tables[table.name] = rows
        .filter((row) => !(table.name === 'meta' && RUN_META.has(String(row.key))))
        .map((row) => exportRow(ctx, row, table.sealed, Boolean(options.includeSecrets)));
    }
    return tables;
  });
  return {
    format: STATE_FORMAT,
    format_version: STATE_FORMAT_VERSION,
    schema_version: schemaVersion(db),
    clock_offset_ms: ctx.clock.offsetMs,
    includes_secrets: Boolean(options.includeSecrets),
    tables: read(),
  };
}

function exportRow(ctx: EmulatorContext, row: Record<string, unknown>, sealed: string[], includeSecrets: boolean): Record<string, StateCell> {
  const out: Record<string, StateCell> = {};
  for (const [column, value] of Object.entries(row)) {
    if (sealed.includes(column)) {
      out[plainName(column)] = includeSecrets && typeof value === 'string' ? ctx.box.open(value) : null;
    } else {
      out[column] = cell(value);
    }
  }
  return sortKeys(out);
}

function cell(value: unknown): StateCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value)) return { base64: value.toString('base64') };
  return String(value);
}

function sortKeys<T>(object: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Pretty-printed with a final newline: the same state always gives the same bytes. */
export function serializeState(state: StateFile): string {
  return `${JSON.stringify(state, null, 2)}\n`;
}
