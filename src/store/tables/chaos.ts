import type { Db } from '../db.js';

/** Delivery chaos of one app (`scanctl webhook chaos`). */
export interface ChaosRow {
  app_id: string;
  seed: number;
  drop_probability: number;
  duplicate_probability: number;
  /** Delay of a delayed attempt; null: a seeded amount per attempt. */
  delay_ms: number | null;
  delay_probability: number;
  reorder: number;
  fail_first: number;
  fail_status: number;
  created_at: number;
  updated_at: number;
}

/** Delivery chaos settings, one per app (`scanctl webhook chaos`). */
export function chaosStatements(db: Db) {
  const getChaos = db.prepare<[string], ChaosRow>('SELECT * FROM chaos_settings WHERE app_id = ?');
  const upsertChaos = db.prepare<ChaosRow>(`
    INSERT INTO chaos_settings (app_id, seed, drop_probability, duplicate_probability, delay_ms, delay_probability, reorder,
      fail_first, fail_status, created_at, updated_at)
    VALUES (@app_id, @seed, @drop_probability, @duplicate_probability, @delay_ms, @delay_probability, @reorder,
      @fail_first, @fail_status, @created_at, @updated_at)
    ON CONFLICT(app_id) DO UPDATE SET seed = excluded.seed, drop_probability = excluded.drop_probability,
      duplicate_probability = excluded.duplicate_probability, delay_ms = excluded.delay_ms,
      delay_probability = excluded.delay_probability, reorder = excluded.reorder, fail_first = excluded.fail_first,
      fail_status = excluded.fail_status, updated_at = excluded.updated_at`);
  const deleteChaos = db.prepare<[string]>('DELETE FROM chaos_settings WHERE app_id = ?');
  // The position of a delivery among its app's deliveries (0-based): stable across runs of the same
  // flow, unlike its random id. Stored when the delivery is queued (delivery_ordinals), not counted.
  const deliveryOrdinal = db.prepare<[string], { ordinal: number }>('SELECT ordinal FROM delivery_ordinals WHERE delivery_id = ?');

  return {
    get: (appId: string) => getChaos.get(appId),
    upsert: (row: ChaosRow) => void upsertChaos.run(row),
    delete: (appId: string) => deleteChaos.run(appId).changes > 0,
    deliveryOrdinal: (deliveryId: string) => deliveryOrdinal.get(deliveryId)?.ordinal,
  };
}
