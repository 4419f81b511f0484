import type { Db } from '../db.js';

export interface SessionRow {
  id: string;
  token_hash: string;
  app_id: string;
  key_id: string;
  env: 'test' | 'live';
  host_user_ref: string;
  scopes: string;
  created_at: number;
  expires_at: number;
  scan_id: string | null;
}

export function sessionStatements(db: Db) {
  const insert = db.prepare<SessionRow>(`
    INSERT INTO sessions (id, token_hash, app_id, key_id, env, host_user_ref, scopes, created_at, expires_at, scan_id)
    VALUES (@id, @token_hash, @app_id, @key_id, @env, @host_user_ref, @scopes, @created_at, @expires_at, @scan_id)`);
  const byTokenHash = db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE token_hash = ?');
  const bindScan = db.prepare<{ id: string; scan_id: string }>('UPDATE sessions SET scan_id = @scan_id WHERE id = @id AND scan_id IS NULL');
  const countForApp = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM sessions WHERE app_id = ?');
  return {
    insert: (row: SessionRow) => void insert.run(row),
    byTokenHash: (hash: string) => byTokenHash.get(hash),
    /** Binds the token to its one scan session (SES-6); false when it was already bound. */
    bindScan: (id: string, scanId: string) => bindScan.run({ id, scan_id: scanId }).changes > 0,
    countForApp: (appId: string) => countForApp.get(appId)?.n ?? 0,
  };
}
