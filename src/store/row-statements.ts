import type BetterSqlite3 from 'better-sqlite3';
import { z } from 'zod';
import type { Db } from './db.js';

type Params = unknown[] | object;
type RowSchema = () => z.ZodType;
type Statement<P extends Params, F extends RowSchema> = BetterSqlite3.Statement<P, CellsOf<F>>;

/** What SQLite hands back for a row of this schema: a JSON column's cell as its text. */
export type CellsOf<F extends RowSchema> = z.input<ReturnType<F>>;
/** What the store hands out: a JSON column parsed (by its table module; the same as CellsOf when it has none). */
export type RowOf<F extends RowSchema> = z.output<ReturnType<F>>;

/**
 * The one way a statement that returns rows is prepared in src/: typed by its row's schema
 * (`rowsOf(db, accountRow).prepare<[string]>('SELECT * FROM accounts WHERE id = ?')`). A row
 * schema is a function that builds it, so that start-up builds none: nothing checks a row at run
 * time (a row is read per request). test/unit/store/row-types.test.ts runs every statement made
 * here on a real database and checks each row it returns against `_rowSchema()`.
 */
export function rowsOf<F extends RowSchema>(db: Db, _rowSchema: F) {
  return {
    prepare: <P extends Params = []>(sql: string): Statement<P, F> => db.prepare<P, CellsOf<F>>(sql),
    /** A statement that returns the first column of each row (the schema is that column's). */
    pluck: <P extends Params = []>(sql: string): Statement<P, F> => {
      const statement = db.prepare<P, CellsOf<F>>(sql);
      statement.pluck(); // in place: the statement now returns each row's first column
      return statement;
    },
  };
}

/** A row of a table named at run time (state export and import): whatever columns the table has. */
export const anyTableRow = () => z.record(z.string(), z.unknown());
