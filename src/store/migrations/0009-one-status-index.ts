import type { Database } from 'better-sqlite3';

// Every recorded attempt moves its delivery from one status to another in each index that holds
// the status: two of them, (app_id, status, created_at) and (status, created_at), cost ~2.5 us of
// the ~40 the dispatcher spends per delivery. A list of one status across apps is now merged from
// each app's range of the first (src/store/tables/webhooks.ts): as flat, one index fewer to write.
export function up(db: Database): void {
  db.exec('DROP INDEX IF EXISTS deliveries_status_created');
}
