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
  return {
    insert: (row: PortalSessionRow) => void insert.run(row),
    byHash: (hash: string) => byHash.get(hash),
  };
}
