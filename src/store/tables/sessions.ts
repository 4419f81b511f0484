import { z } from 'zod';
import type { Db } from '../db.js';
import { JSON_COLUMNS, jsonCell, readJsonCell } from '../json-columns.js';
import { rowsOf, type CellsOf, type RowOf } from '../row-statements.js';

const sessionRow = () =>
  z.strictObject({
    id: z.string(),
    token_hash: z.string(),
    app_id: z.string(),
    key_id: z.string(),
    env: z.enum(['test', 'live']),
    host_user_ref: z.string(),
    scopes: jsonCell(JSON_COLUMNS.sessions.scopes),
    created_at: z.number().int(),
    expires_at: z.number().int(),
    scan_id: z.string().nullable(),
  });
export type SessionRow = RowOf<typeof sessionRow>;

export function sessionStatements(db: Db) {
  const insert = db.prepare<CellsOf<typeof sessionRow>>(`
    INSERT INTO sessions (id, token_hash, app_id, key_id, env, host_user_ref, scopes, created_at, expires_at, scan_id)
    VALUES (@id, @token_hash, @app_id, @key_id, @env, @host_user_ref, @scopes, @created_at, @expires_at, @scan_id)`);
  const byTokenHash = rowsOf(db, sessionRow).prepare<[string]>('SELECT * FROM sessions WHERE token_hash = ?');
  const bindScan = db.prepare<{ id: string; scan_id: string }>('UPDATE sessions SET scan_id = @scan_id WHERE id = @id AND scan_id IS NULL');
  const countForApp = rowsOf(db, () => z.number().int()).pluck<[string]>('SELECT count(*) FROM sessions WHERE app_id = ?');
  return {
    insert: (row: SessionRow) => void insert.run({ ...row, scopes: JSON.stringify(row.scopes) }),
    // Parsed here, once per device request: the caller's scopes decide what it may do.
    byTokenHash(hash: string): SessionRow | undefined {
      const row = byTokenHash.get(hash);
      return row && { ...row, scopes: readJsonCell(JSON_COLUMNS.sessions.scopes, row.scopes) };
    },
    /** Binds the token to its one scan session (SES-6); false when it was already bound. */
    bindScan: (id: string, scanId: string) => bindScan.run({ id, scan_id: scanId }).changes > 0,
    countForApp: (appId: string) => countForApp.get(appId) ?? 0,
  };
}
