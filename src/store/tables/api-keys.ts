import type { Db } from '../db.js';

export type KeyEnv = 'test' | 'live';
export type KeyKind = 'secret' | 'publishable';

export interface ApiKeyRow {
  id: string;
  app_id: string;
  env: KeyEnv;
  kind: KeyKind;
  hash: string;
  display: string;
  status: 'active' | 'revoked' | 'suspended';
  grace_until: number | null;
  replaced_by: string | null;
  created_at: number;
  updated_at: number;
}

export function apiKeyStatements(db: Db) {
  const byHash = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE hash = ?');
  const byId = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const forApp = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE app_id = ? ORDER BY created_at, env, kind, id');
  const insert = db.prepare<Omit<ApiKeyRow, 'updated_at'>>(`
    INSERT INTO api_keys (id, app_id, env, kind, hash, display, status, grace_until, replaced_by, created_at, updated_at)
    VALUES (@id, @app_id, @env, @kind, @hash, @display, @status, @grace_until, @replaced_by, @created_at, @created_at)`);
  const upsertByHash = db.prepare<Omit<ApiKeyRow, 'updated_at'>>(`
    INSERT INTO api_keys (id, app_id, env, kind, hash, display, status, grace_until, replaced_by, created_at, updated_at)
    VALUES (@id, @app_id, @env, @kind, @hash, @display, @status, @grace_until, @replaced_by, @created_at, @created_at)
    ON CONFLICT(hash) DO UPDATE SET status = excluded.status, grace_until = NULL, replaced_by = NULL,
      updated_at = excluded.updated_at`);
  const update = db.prepare<{ id: string; status: string; grace_until: number | null; replaced_by: string | null; now: number }>(
    `UPDATE api_keys SET status = @status, grace_until = @grace_until, replaced_by = @replaced_by, updated_at = @now
     WHERE id = @id`,
  );
  return {
    byHash: (hash: string) => byHash.get(hash),
    byId: (id: string) => byId.get(id),
    forApp: (appId: string) => forApp.all(appId),
    insert: (row: Omit<ApiKeyRow, 'updated_at'>) => void insert.run(row),
    upsertByHash: (row: Omit<ApiKeyRow, 'updated_at'>) => void upsertByHash.run(row),
    update: (row: { id: string; status: ApiKeyRow['status']; grace_until: number | null; replaced_by: string | null }, now: number) =>
      void update.run({ ...row, now }),
  };
}
