import type { Db } from '../db.js';

/** Events, deliveries and attempts: the outbox (issue 4 fills this in). */
export function webhookStatements(db: Db) {
  void db;
  return {};
}
