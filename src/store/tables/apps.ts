import { z } from 'zod';
import type { Db } from '../db.js';
import { rowsOf, type RowOf } from '../row-statements.js';

const appRow = () =>
  z.strictObject({
    id: z.string(),
    account_id: z.string(),
    name: z.string(),
    bundle_id: z.string(),
    team_id: z.string(),
    billing_profile: z.number().int(),
    terms_accepted: z.number().int(),
    webhook_url: z.string().nullable(),
    webhook_secret_sealed: z.string().nullable(),
    webhook_secret_hint: z.string().nullable(),
    results_delivery_enabled: z.number().int(),
    daily_session_quota: z.number().int(),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  });
export type AppRow = RowOf<typeof appRow>;

export type AppUpsert = Omit<AppRow, 'created_at' | 'updated_at'>;

export function appStatements(db: Db) {
  const rows = rowsOf(db, appRow);
  const get = rows.prepare<[string]>('SELECT * FROM apps WHERE id = ?');
  const all = rows.prepare('SELECT * FROM apps ORDER BY created_at, id');
  const upsert = db.prepare<AppUpsert & { now: number }>(`
    INSERT INTO apps (id, account_id, name, bundle_id, team_id, billing_profile, terms_accepted, webhook_url,
      webhook_secret_sealed, webhook_secret_hint, results_delivery_enabled, daily_session_quota, created_at, updated_at)
    VALUES (@id, @account_id, @name, @bundle_id, @team_id, @billing_profile, @terms_accepted, @webhook_url,
      @webhook_secret_sealed, @webhook_secret_hint, @results_delivery_enabled, @daily_session_quota, @now, @now)
    ON CONFLICT(id) DO UPDATE SET account_id = excluded.account_id, name = excluded.name,
      bundle_id = excluded.bundle_id, team_id = excluded.team_id, billing_profile = excluded.billing_profile,
      terms_accepted = excluded.terms_accepted, webhook_url = excluded.webhook_url,
      webhook_secret_sealed = excluded.webhook_secret_sealed, webhook_secret_hint = excluded.webhook_secret_hint,
      results_delivery_enabled = excluded.results_delivery_enabled,
      daily_session_quota = excluded.daily_session_quota, updated_at = excluded.updated_at`);
  const updateSettings = db.prepare<{
    id: string;
    webhook_url: string | null;
    webhook_secret_sealed: string | null;
    webhook_secret_hint: string | null;
    results_delivery_enabled: number;
    now: number;
  }>(`UPDATE apps SET webhook_url = @webhook_url, webhook_secret_sealed = @webhook_secret_sealed,
      webhook_secret_hint = @webhook_secret_hint, results_delivery_enabled = @results_delivery_enabled,
      updated_at = @now WHERE id = @id`);
  const setQuota = db.prepare<{ id: string; quota: number; now: number }>(
    'UPDATE apps SET daily_session_quota = @quota, updated_at = @now WHERE id = @id',
  );
  return {
    get: (id: string) => get.get(id),
    all: () => all.all(),
    upsert: (row: AppUpsert, now: number) => void upsert.run({ ...row, now }),
    updateSettings: (row: Parameters<typeof updateSettings.run>[0]) => void updateSettings.run(row),
    setQuota: (id: string, quota: number, now: number) => void setQuota.run({ id, quota, now }),
  };
}
