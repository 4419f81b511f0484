import type { Db } from '../db.js';

/** API faults and delivery chaos settings (issue 6 fills this in). */
export function extraStatements(db: Db) {
  void db;
  return {};
}
