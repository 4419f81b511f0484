import type { Database } from 'better-sqlite3';

// A claimed delivery is written 'in_flight' in the claim's transaction again (the outbox rule: a
// restart finds what was being sent and sends it again), and every status is listed across apps
// from one index, (status, created_at), as in 0006: the overlay in memory (0008) and the per-app
// merge (0009) saved a few microseconds per attempt that no benchmark goal needed.
export function up(db: Database): void {
  db.exec('CREATE INDEX IF NOT EXISTS deliveries_status_created ON deliveries(status, created_at)');
}
