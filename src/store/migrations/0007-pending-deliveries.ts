import type { Database } from 'better-sqlite3';

// The dispatcher's queue is the pending deliveries, by due time: a partial index holds only them.
// deliveries_due (status, next_attempt_at) held every delivery and moved two entries at each status
// change, claim and outcome alike; the partial index loses an entry at the claim, gains one at a
// retry, and is not touched when a delivery succeeds, fails or is cancelled. Listing by status
// has deliveries_status_created (0006).
export function up(db: Database): void {
  db.exec(`
    DROP INDEX deliveries_due;
    CREATE INDEX deliveries_pending ON deliveries(next_attempt_at) WHERE status = 'pending';
  `);
}
