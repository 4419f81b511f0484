import { z } from 'zod';
import type { Db } from '../db.js';
import { rowsOf, type RowOf } from '../row-statements.js';

const portalSessionRow = () =>
  z.strictObject({ hash: z.string(), account_id: z.string(), created_at: z.number().int(), expires_at: z.number().int() });
export type PortalSessionRow = RowOf<typeof portalSessionRow>;

export function portalSessionStatements(db: Db) {
  const insert = db.prepare<PortalSessionRow>(
    'INSERT INTO portal_sessions (hash, account_id, created_at, expires_at) VALUES (@hash, @account_id, @created_at, @expires_at)',
  );
  const byHash = rowsOf(db, portalSessionRow).prepare<[string]>('SELECT * FROM portal_sessions WHERE hash = ?');
  const remove = db.prepare<[string]>('DELETE FROM portal_sessions WHERE hash = ?');
  const extend = db.prepare<{ hash: string; expires_at: number }>('UPDATE portal_sessions SET expires_at = @expires_at WHERE hash = @hash');
  return {
    insert: (row: PortalSessionRow) => void insert.run(row),
    byHash: (hash: string) => byHash.get(hash),
    delete: (hash: string) => remove.run(hash).changes > 0,
    extend: (hash: string, expiresAt: number) => void extend.run({ hash, expires_at: expiresAt }),
  };
}
