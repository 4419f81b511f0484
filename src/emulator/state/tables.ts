import { z } from 'zod';
import type { Db } from '../../store/db.js';
import { rowsOf } from '../../store/row-statements.js';
import { DERIVED_TABLES } from '../../store/derived.js';

export interface TableInfo {
  name: string;
  /** Every column, in schema order. */
  columns: string[];
  /** Primary key columns in key order; empty: the table is ordered by rowid. */
  primaryKey: string[];
  /** Columns that hold a sealed secret (`*_sealed`): never exported sealed, since the sealing key stays behind. */
  sealed: string[];
}

/**
 * Every table of the database, read from sqlite_master, so that tables added by later migrations
 * are exported and imported without anyone touching this code. SQLite's own tables are left out, and
 * so are the derived ones (rebuilt from their sources after an import or reset).
 */
export function listTables(db: Db): TableInfo[] {
  const names = rowsOf(db, () => z.string())
    .pluck("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .filter((name) => !DERIVED_TABLES.has(name));
  return names.map((name) => {
    // (a row of PRAGMA table_info has more columns than these two)
    const info = rowsOf(db, () => z.object({ name: z.string(), pk: z.number().int() }))
      .prepare(`PRAGMA table_info(${quote(name)})`)
      .all();
    const primaryKey = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const columns = info.map((c) => c.name);
    return { name, columns, primaryKey, sealed: columns.filter((c) => c.endsWith('_sealed')) };
  });
}

/** Identifiers come from sqlite_master or are checked against it; quoting keeps odd names harmless. */
export function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** The plain field that stands for a sealed column in a state file: webhook_secret_sealed -> webhook_secret. */
export function plainName(sealedColumn: string): string {
  return sealedColumn.slice(0, -'_sealed'.length);
}
