import type { Scope } from '../../contract/sessions.js';
import type { Db } from '../db.js';
import { JSON_COLUMNS, readJsonCell } from '../json-columns.js';

export interface SessionRow {
  id: string;
  token_hash: string;
  app_id: string;
  key_id: string;
  env: 'test' | 'live';
  host_user_ref: string;
  scopes: Scope[];
  created_at: number;
  expires_at: number;
  scan_id: string | null;
}

/** The row as stored: scopes as JSON text. */
type SessionCells = Omit<SessionRow, 'scopes'> & { scopes: string };

export function sessionStatements(db: Db) {
  const insert = db.prepare<SessionCells>(`
    INSERT INTO sessions (id, token_hash, app_id, key_id, env, host_user_ref, scopes, created_at, expires_at, scan_id)
    VALUES (@id, @token_hash, @app_id, @key_id, @env, @host_user_ref, @scopes, @created_at, @expires_at, @scan_id)`);
  const byTokenHash = db.prepare<[string], SessionCells>('SELECT * FROM sessions WHERE token_hash = ?');
  const bindScan = db.prepare<{ id: string; scan_id: string }>('UPDATE sessions SET scan_id = @scan_id WHERE id = @id AND scan_id IS NULL');
  const countForApp = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM sessions WHERE app_id = ?');
  return {
    insert: (row: SessionRow) => void insert.run({ ...row, scopes: JSON.stringify(row.scopes) }),
    // Parsed here, once per device request: the caller's scopes decide what it may do.
    byTokenHash(hash: string): SessionRow | undefined {
      const row = byTokenHash.get(hash);
      return row && { ...row, scopes: readJsonCell(JSON_COLUMNS.sessions.scopes, row.scopes) };
    },
    /** Binds the token to its one scan session (SES-6); false when it was already bound. */
    bindScan: (id: string, scanId: string) => bindScan.run({ id, scan_id: scanId }).changes > 0,
    countForApp: (appId: string) => countForApp.get(appId)?.n ?? 0,
  };
}
