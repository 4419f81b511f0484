import type { Db } from '../db.js';

export interface AppRow {
  id: string;
  account_id: string;
  name: string;
  bundle_id: string;
  team_id: string;
  billing_profile: number;
  terms_accepted: number;
  webhook_url: string | null;
  webhook_secret_sealed: string | null;
  webhook_secret_hint: string | null;
  results_delivery_enabled: number;
  daily_session_quota: number;
  created_at: number;
  updated_at: number;
}

export type AppUpsert = Omit<AppRow, 'created_at' | 'updated_at'>;

export function appStatements(db: Db) {
  const get = db.prepare<[string], AppRow>('SELECT * FROM apps WHERE id = ?');
  const all = db.prepare<[], AppRow>('SELECT * FROM apps ORDER BY created_at, id');
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
