import { z } from 'zod';
import type { Db } from '../db.js';
import { rowsOf, type RowOf } from '../row-statements.js';

/** Delivery chaos of one app (`scanctl webhook chaos`). */
const chaosRow = () =>
  z.strictObject({
    app_id: z.string(),
    seed: z.number().int(),
    drop_probability: z.number(),
    duplicate_probability: z.number(),
    /** Delay of a delayed attempt; null: a seeded amount per attempt. */
    delay_ms: z.number().int().nullable(),
    delay_probability: z.number(),
    reorder: z.number().int(),
    fail_first: z.number().int(),
    fail_status: z.number().int(),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  });
export type ChaosRow = RowOf<typeof chaosRow>;

/** Delivery chaos settings, one per app (`scanctl webhook chaos`). */
export function chaosStatements(db: Db) {
  const getChaos = rowsOf(db, chaosRow).prepare<[string]>('SELECT * FROM chaos_settings WHERE app_id = ?');
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
  const deliveryOrdinal = rowsOf(db, () => z.number().int()).pluck<[string]>('SELECT ordinal FROM delivery_ordinals WHERE delivery_id = ?');

  return {
    get: (appId: string) => getChaos.get(appId),
    upsert: (row: ChaosRow) => void upsertChaos.run(row),
    delete: (appId: string) => deleteChaos.run(appId).changes > 0,
    deliveryOrdinal: (deliveryId: string) => deliveryOrdinal.get(deliveryId),
  };
}
