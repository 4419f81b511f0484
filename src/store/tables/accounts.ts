import { z } from 'zod';
import type { Db } from '../db.js';
import { rowsOf, type RowOf } from '../row-statements.js';

const accountRow = () =>
  z.strictObject({ id: z.string(), suspended: z.number().int(), suspended_at: z.number().int().nullable(), created_at: z.number().int() });
export type AccountRow = RowOf<typeof accountRow>;

export function accountStatements(db: Db) {
  const rows = rowsOf(db, accountRow);
  const get = rows.prepare<[string]>('SELECT * FROM accounts WHERE id = ?');
  const all = rows.prepare('SELECT * FROM accounts ORDER BY id');
  const upsert = db.prepare<{ id: string; suspended: number; now: number }>(`
    INSERT INTO accounts (id, suspended, suspended_at, created_at)
    VALUES (@id, @suspended, CASE WHEN @suspended = 1 THEN @now END, @now)
    ON CONFLICT(id) DO UPDATE SET suspended = excluded.suspended,
      suspended_at = CASE WHEN excluded.suspended = 1 THEN coalesce(accounts.suspended_at, @now) END`);
  const setSuspended = db.prepare<{ id: string; suspended: number; now: number }>(
    'UPDATE accounts SET suspended = @suspended, suspended_at = CASE WHEN @suspended = 1 THEN @now END WHERE id = @id',
  );
  return {
    get: (id: string) => get.get(id),
    all: () => all.all(),
    upsert: (row: { id: string; suspended: boolean }, now: number) =>
      void upsert.run({ id: row.id, suspended: row.suspended ? 1 : 0, now }),
    setSuspended: (id: string, suspended: boolean, now: number) => setSuspended.run({ id, suspended: suspended ? 1 : 0, now }).changes > 0,
  };
}
