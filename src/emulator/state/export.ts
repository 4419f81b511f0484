import { STATE_FORMAT, STATE_FORMAT_VERSION, type StateCell, type StateFile } from '../../contract/state.js';
import { schemaVersion } from '../../store/db.js';
import { anyTableRow, rowsOf } from '../../store/row-statements.js';
import type { StateContext } from '../domain/state-context.js';
import { META } from '../../store/meta-keys.js';
import { listTables, plainName, quote } from './tables.js';

/** Meta rows of the running clock, not of the state: the offset is a top-level field, the frozen base belongs to the run. */
const RUN_META: ReadonlySet<string> = new Set<string>([META.clockOffset, META.clockFrozenAt]);

export interface ExportOptions {
  /** Put webhook signing secrets in the file in plain text (so another database can re-seal them). */
  includeSecrets?: boolean;
}

/** Rows read per statement: what one pull of the streamed export holds in memory. */
export const EXPORT_PAGE_ROWS = 1_000;

type Row = Record<string, StateCell>;

/**
 * Every table's rows in export order, EXPORT_PAGE_ROWS at a time: each page is one indexed range
 * read after the last key of the previous page (primary key order, or rowid), so a page costs the
 * same at the end of a million-row table as at its start.
 */
function* exportPages(ctx: StateContext, includeSecrets: boolean): Generator<{ table: string; rows: Row[] }> {
  const db = ctx.store.db;
  for (const table of listTables(db)) {
    const key = table.primaryKey.length > 0 ? table.primaryKey.map(quote) : ['rowid'];
    const tuple = key.length > 1 ? `(${key.join(', ')})` : key[0]!;
    const marks = key.length > 1 ? `(${key.map(() => '?').join(', ')})` : '?';
    const select = `SELECT ${key[0] === 'rowid' ? 'rowid AS "__rowid", ' : ''}* FROM ${quote(table.name)}`;
    const rows = rowsOf(db, anyTableRow);
    const first = rows.prepare<[number]>(`${select} ORDER BY ${key.join(', ')} LIMIT ?`);
    const next = rows.prepare<unknown[]>(`${select} WHERE ${tuple} > ${marks} ORDER BY ${key.join(', ')} LIMIT ?`);
    const keyNames = key[0] === 'rowid' ? ['__rowid'] : table.primaryKey;
    let last: unknown[] | null = null;
    for (;;) {
      const page: Array<Record<string, unknown>> = last === null ? first.all(EXPORT_PAGE_ROWS) : next.all(...last, EXPORT_PAGE_ROWS);
      if (page.length === 0) break;
      last = keyNames.map((k) => page.at(-1)![k]);
      const rows: Row[] = [];
      for (const row of page) {
        delete row.__rowid;
        if (table.name === 'meta' && RUN_META.has(String(row.key))) continue;
        rows.push(exportRow(ctx, row, table.sealed, includeSecrets));
      }
      yield { table: table.name, rows };
      if (page.length < EXPORT_PAGE_ROWS) break;
    }
    yield { table: table.name, rows: [] };
  }
}

function header(ctx: StateContext, includeSecrets: boolean): Omit<StateFile, 'tables'> {
  return {
    format: STATE_FORMAT,
    format_version: STATE_FORMAT_VERSION,
    schema_version: schemaVersion(ctx.store.db),
    clock_offset_ms: ctx.clock.offsetMs,
    includes_secrets: includeSecrets,
  };
}

/**
 * The emulator's whole state as one diffable object: every table under its name (sorted), rows
 * sorted by primary key, each row's keys sorted. Keys and tokens are hashes in the database and
 * stay hashes; sealed secrets become null, or their plain value with includeSecrets.
 * The clock offset is a top-level field (and left out of the meta table, where it may lag).
 */
export function exportState(ctx: StateContext, options: ExportOptions = {}): StateFile {
  const includeSecrets = Boolean(options.includeSecrets);
  const read = ctx.store.db.transaction(() => {
    const tables: Record<string, Row[]> = {};
    for (const { table, rows } of exportPages(ctx, includeSecrets)) (tables[table] ??= []).push(...rows);
    return tables;
  });
  return { ...header(ctx, includeSecrets), tables: read() };
}

/**
 * The same bytes as JSON.stringify(exportState(...)), produced page by page as the reader pulls,
 * so that the emulator holds one page in memory however large the database is. Each page is read
 * on its own: a write that lands while the export streams may or may not be in it.
 */
export function exportStateStream(ctx: StateContext, options: ExportOptions = {}): ReadableStream<Uint8Array> {
  const includeSecrets = Boolean(options.includeSecrets);
  const encoder = new TextEncoder();
  const head = JSON.stringify({ ...header(ctx, includeSecrets), tables: {} });
  let pages: Generator<{ table: string; rows: Row[] }> | null = null;
  let current: string | null = null;
  let rowsInTable = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pages === null) {
        pages = exportPages(ctx, includeSecrets);
        controller.enqueue(encoder.encode(head.slice(0, -2)));
        return;
      }
      // A pull must enqueue something (a stream does not pull again by itself): skip empty pages.
      let text = '';
      while (!text) {
        const step = pages.next();
        if (step.done) {
          controller.enqueue(encoder.encode(current === null ? '}}' : ']}}'));
          controller.close();
          return;
        }
        const { table, rows } = step.value;
        if (table !== current) {
          text += `${current === null ? '' : '],'}${JSON.stringify(table)}:[`;
          current = table;
          rowsInTable = 0;
        }
        for (const row of rows) text += `${rowsInTable++ === 0 ? '' : ','}${JSON.stringify(row)}`;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}

function exportRow(ctx: StateContext, row: Record<string, unknown>, sealed: string[], includeSecrets: boolean): Record<string, StateCell> {
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
  throw new Error(`a cell of an unexpected type (${typeof value})`);
}

function sortKeys<T>(object: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Pretty-printed with a final newline: the same state always gives the same bytes. */
export function serializeState(state: StateFile): string {
  return `${JSON.stringify(state, null, 2)}\n`;
}
