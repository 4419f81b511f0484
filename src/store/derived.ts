import type { Database } from 'better-sqlite3';
import { billingMonthSql } from './billing-month.js';

/**
 * Tables that only restate other tables, kept in step by the writes so that reads stay flat as the
 * data grows: delivery_ordinals (a delivery's position among its app's deliveries, what chaos keys
 * its draws by) and usage_months/usage_members (BILL-4 usage, counted as scans get an outcome).
 * They are not part of the state file: a state import or reset rebuilds them from their sources.
 */
export const DERIVED_TABLES: ReadonlySet<string> = new Set(['delivery_ordinals', 'usage_members', 'usage_months']);

const OUTCOMES = `SELECT *, ${billingMonthSql('occurred_at')} AS month FROM scans WHERE status != 'started' AND occurred_at IS NOT NULL`;

/** Recomputes every derived table from its source (after a migration, import or reset). */
export function rebuildDerivedTables(db: Database): void {
  db.exec(`
    DELETE FROM delivery_ordinals;
    INSERT INTO delivery_ordinals (delivery_id, app_id, ordinal)
      SELECT id, app_id, row_number() OVER (PARTITION BY app_id ORDER BY rowid) - 1 FROM deliveries;
    DELETE FROM usage_months;
    INSERT INTO usage_months (app_id, month, monthly_active_users, billable_scans, test_scans, test_active_users,
        completed_scans, failed_scans, abandoned_scans)
      SELECT app_id, month,
        count(DISTINCT CASE WHEN billable = 1 THEN host_user_ref END),
        sum(billable = 1),
        sum(env = 'test'),
        count(DISTINCT CASE WHEN env = 'test' AND status = 'completed' THEN host_user_ref END),
        sum(status = 'completed'),
        sum(status = 'failed'),
        sum(status = 'abandoned')
      FROM (${OUTCOMES}) GROUP BY app_id, month;
    DELETE FROM usage_members;
    INSERT INTO usage_members (app_id, month, host_user_ref, billable, test_completed)
      SELECT app_id, month, host_user_ref, max(billable = 1), max(env = 'test' AND status = 'completed')
      FROM (${OUTCOMES}) GROUP BY app_id, month, host_user_ref
      HAVING max(billable = 1) = 1 OR max(env = 'test' AND status = 'completed') = 1;
  `);
}
