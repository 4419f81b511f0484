import type { FaultMethod } from '../../contract/faults.js';
import type { Db } from '../db.js';

/** One API fault (`scanctl faults add`): a route answered with a chosen status and code. */
export interface FaultRow {
  id: string;
  /** An HTTP method, or * for any. */
  method: FaultMethod;
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

/** API faults (`scanctl faults`). */
export function faultStatements(db: Db) {
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

  return {
    insert: (row: FaultRow) => void insertFault.run(row),
    all: () => allFaults.all(),
    get: (id: string) => getFault.get(id),
    delete: (id: string) => deleteFault.run(id).changes > 0,
    deleteAll: () => deleteAllFaults.run().changes,
    /** Counts a matching call, and an injection when `injected`. */
    recordMatch: (id: string, injected: boolean) => void recordMatch.run({ id, injected: injected ? 1 : 0 }),
  };
}
