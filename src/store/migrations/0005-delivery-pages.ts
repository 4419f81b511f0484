import type { Database } from 'better-sqlite3';

// The web console pages through an app's deliveries newest first, optionally by status, with
// 100,000 and more of them: both orders come from an index, so a page never sorts the table.
// (app_id, status, created_at) replaces (app_id, status), which it serves as a prefix: the outbox's
// status changes still update the same number of indexes.
export function up(db: Database): void {
  db.exec(`
    DROP INDEX deliveries_app;
    CREATE INDEX deliveries_app_status ON deliveries(app_id, status, created_at);
    CREATE INDEX deliveries_app_created ON deliveries(app_id, created_at);
  `);
}
