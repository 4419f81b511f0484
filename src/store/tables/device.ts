import type { Db } from '../db.js';

/** Installations, challenges, scans, stored results, idempotency keys (issue 3 fills this in). */
export function deviceStatements(db: Db) {
  void db;
  return {};
}
