import type { Db } from '../db.js';

/** One API fault (`scanctl faults add`): a route answered with a chosen status and code. */
export interface FaultRow {
  id: string;
  /** An HTTP method, or * for any. */
  method: string;
  /** A path such as /v1/sessions; `:name` matches one segment, a trailing `*` any rest. */
  path: string;
  status: number;
  code: string;
  message: string | null;
  /** For the next N calls: the N asked for, and how many are left (null: no count). */
  count: number | null;
  remaining: number | null;
  /** With a probability instead (null: every matching call until the count runs out or it is cleared). */
  probability: number | null;
  seed: number;
  /** Matching calls seen so far: the index of the next probability draw. */
  matched: number;
  injected: number;
  created_at: number;
}

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

/** API faults and delivery chaos settings (issue 6). */
export function extraStatements(db: Db) {
  const insertFault = db.prepare<FaultRow>(`
    INSERT INTO faults (id, method, path, status, code, message, count, remaining, probability, seed, matched, injected, created_at)
    VALUES (@id, @method, @path, @status, @code, @message, @count, @remaining, @probability, @seed, @matched, @injected, @created_at)`);
  const allFaults = db.prepare<[], FaultRow>('SELECT * FROM faults ORDER BY created_at, id');
  const getFault = db.prepare<[string], FaultRow>('SELECT * FROM faults WHERE id = ?');
  const deleteFault = db.prepare<[string]>('DELETE FROM faults WHERE id = ?');
  const deleteAllFaults = db.prepare('DELETE FROM faults');
  const recordMatch = db.prepare<{ id: string; injected: number }>(`
    UPDATE faults SET matched = matched + 1, injected = injected + @injected,
      remaining = CASE WHEN remaining IS NULL THEN NULL ELSE remaining - @injected END
    WHERE id = @id`);

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
  // The position of a delivery among its app's deliveries (0-based): stable across runs of the same flow, unlike its random id.
  const deliveryOrdinal = db.prepare<[string], { ordinal: number }>(`
    SELECT (SELECT count(*) FROM deliveries d2 WHERE d2.app_id = d.app_id AND d2.rowid < d.rowid) AS ordinal
    FROM deliveries d WHERE d.id = ?`);

  return {
    faults: {
      insert: (row: FaultRow) => void insertFault.run(row),
      all: () => allFaults.all(),
      get: (id: string) => getFault.get(id),
      delete: (id: string) => deleteFault.run(id).changes > 0,
      deleteAll: () => deleteAllFaults.run().changes,
      /** Counts a matching call, and an injection when `injected`. */
      recordMatch: (id: string, injected: boolean) => void recordMatch.run({ id, injected: injected ? 1 : 0 }),
    },
    chaos: {
      get: (appId: string) => getChaos.get(appId),
      upsert: (row: ChaosRow) => void upsertChaos.run(row),
      delete: (appId: string) => deleteChaos.run(appId).changes > 0,
      deliveryOrdinal: (deliveryId: string) => deliveryOrdinal.get(deliveryId)?.ordinal,
    },
  };
}
