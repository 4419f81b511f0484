import { z } from 'zod';
import { faultFields } from '../../contract/faults.js';
import type { Db } from '../db.js';
import { rowsOf, type RowOf } from '../row-statements.js';

/** One API fault (`scanctl faults add`): a route answered with a chosen status and code. */
const faultRow = () => z.strictObject({ id: z.string(), ...faultFields(), created_at: z.number().int() });
export type FaultRow = RowOf<typeof faultRow>;

/** API faults (`scanctl faults`). */
export function faultStatements(db: Db) {
  const insertFault = db.prepare<FaultRow>(`
    INSERT INTO faults (id, method, path, status, code, message, count, remaining, probability, seed, matched, injected, created_at)
    VALUES (@id, @method, @path, @status, @code, @message, @count, @remaining, @probability, @seed, @matched, @injected, @created_at)`);
  const faults = rowsOf(db, faultRow);
  const allFaults = faults.prepare('SELECT * FROM faults ORDER BY created_at, id');
  const getFault = faults.prepare<[string]>('SELECT * FROM faults WHERE id = ?');
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
