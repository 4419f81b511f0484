import type { Database } from 'better-sqlite3';

// A second send of an attempt by `webhook chaos --duplicate` (WH-8) is recorded as a row of its
// own, marked, with the same number: the views show every send. It never counts as an attempt.
export function up(db: Database): void {
  db.exec('ALTER TABLE attempts ADD COLUMN duplicate_send INTEGER NOT NULL DEFAULT 0');
}
