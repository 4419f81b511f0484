import { z } from 'zod';
import type { Db } from '../db.js';
import { rowsOf, type RowOf } from '../row-statements.js';

const apiKeyRow = () =>
  z.strictObject({
    id: z.string(),
    app_id: z.string(),
    env: z.enum(['test', 'live']),
    kind: z.enum(['secret', 'publishable']),
    hash: z.string(),
    display: z.string(),
    status: z.enum(['active', 'revoked', 'suspended']),
    grace_until: z.number().int().nullable(),
    replaced_by: z.string().nullable(),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  });
export type ApiKeyRow = RowOf<typeof apiKeyRow>;

export function apiKeyStatements(db: Db) {
  const rows = rowsOf(db, apiKeyRow);
  const byHash = rows.prepare<[string]>('SELECT * FROM api_keys WHERE hash = ?');
  const byId = rows.prepare<[string]>('SELECT * FROM api_keys WHERE id = ?');
  const forApp = rows.prepare<[string]>('SELECT * FROM api_keys WHERE app_id = ? ORDER BY created_at, env, kind, id');
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
