import type { Db } from '../db.js';

export interface PortalSessionRow {
  hash: string;
  account_id: string;
  created_at: number;
  expires_at: number;
}

export function portalSessionStatements(db: Db) {
  const insert = db.prepare<PortalSessionRow>(
    'INSERT INTO portal_sessions (hash, account_id, created_at, expires_at) VALUES (@hash, @account_id, @created_at, @expires_at)',
  );
  const byHash = db.prepare<[string], PortalSessionRow>('SELECT * FROM portal_sessions WHERE hash = ?');
  const remove = db.prepare<[string]>('DELETE FROM portal_sessions WHERE hash = ?');
  const extend = db.prepare<{ hash: string; expires_at: number }>('UPDATE portal_sessions SET expires_at = @expires_at WHERE hash = @hash');
  return {
    insert: (row: PortalSessionRow) => void insert.run(row),
    byHash: (hash: string) => byHash.get(hash),
    delete: (hash: string) => remove.run(hash).changes > 0,
    extend: (hash: string, expiresAt: number) => void extend.run({ hash, expires_at: expiresAt }),
  };
}
