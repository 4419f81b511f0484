import type { Database } from 'better-sqlite3';

// A delivery being sent is no longer written 'in_flight': the dispatcher's claims are kept in
// memory (src/store/tables/delivery-claims.ts) and the row stays pending, due, which is what a
// restart made of it anyway. Rows an older scanctl left in flight (it died sending them) are due.
export function up(db: Database): void {
  db.exec("UPDATE deliveries SET status = 'pending' WHERE status = 'in_flight'");
}
