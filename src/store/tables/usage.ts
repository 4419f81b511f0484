import { z } from 'zod';
import { usageCounters } from '../../contract/device.js';
import type { Db } from '../db.js';
import { billingMonthSql } from '../billing-month.js';
import { rowsOf } from '../row-statements.js';
import type { ScanRow } from './device.js';

/** One app's counters of one UTC month. */
const usageRow = () => z.strictObject({ app_id: z.string(), month: z.string(), ...usageCounters() });

type Outcome = Pick<ScanRow, 'app_id' | 'env' | 'host_user_ref' | 'status' | 'occurred_at' | 'billable'>;

/**
 * BILL-4 usage kept as counters per app and UTC month (usage_months), with the members already
 * counted in each month's distinct users (usage_members): reading usage costs the same however
 * many scans the database holds. rebuildDerivedTables (../derived.ts) computes the same numbers from scans.
 */
export function usageStatements(db: Db) {
  const month = billingMonthSql('@occurred_at');
  const member = rowsOf(db, () => z.strictObject({ billable: z.number().int(), test_completed: z.number().int() })).prepare<{
    app_id: string;
    occurred_at: number;
    host_user_ref: string;
  }>(`SELECT billable, test_completed FROM usage_members WHERE app_id = @app_id AND month = ${month} AND host_user_ref = @host_user_ref`);
  const markMember = db.prepare<{ app_id: string; occurred_at: number; host_user_ref: string; billable: number; test_completed: number }>(`
    INSERT INTO usage_members (app_id, month, host_user_ref, billable, test_completed)
    VALUES (@app_id, ${month}, @host_user_ref, @billable, @test_completed)
    ON CONFLICT(app_id, month, host_user_ref) DO UPDATE SET billable = max(billable, excluded.billable),
      test_completed = max(test_completed, excluded.test_completed)`);
  const add = db.prepare<Record<string, string | number>>(`
    INSERT INTO usage_months (app_id, month, monthly_active_users, billable_scans, test_scans, test_active_users,
      completed_scans, failed_scans, abandoned_scans)
    VALUES (@app_id, ${month}, @mau, @billable, @test, @test_users, @completed, @failed, @abandoned)
    ON CONFLICT(app_id, month) DO UPDATE SET monthly_active_users = monthly_active_users + excluded.monthly_active_users,
      billable_scans = billable_scans + excluded.billable_scans, test_scans = test_scans + excluded.test_scans,
      test_active_users = test_active_users + excluded.test_active_users, completed_scans = completed_scans + excluded.completed_scans,
      failed_scans = failed_scans + excluded.failed_scans, abandoned_scans = abandoned_scans + excluded.abandoned_scans`);
  const rows = rowsOf(db, usageRow).prepare<{ app_id: string | null; month: string | null }>(`
    SELECT app_id, month, monthly_active_users, billable_scans, test_scans, test_active_users, completed_scans, failed_scans, abandoned_scans
    FROM usage_months WHERE (@app_id IS NULL OR app_id = @app_id) AND (@month IS NULL OR month = @month)
    ORDER BY month, app_id`);

  return {
    /** Counts a scan that has just got its outcome (inside the transaction that recorded it). */
    count(scan: Outcome): void {
      if (scan.status === 'started' || scan.occurred_at === null) return;
      const key = { app_id: scan.app_id, occurred_at: scan.occurred_at, host_user_ref: scan.host_user_ref };
      const billable = scan.billable === 1 ? 1 : 0;
      const testCompleted = scan.env === 'test' && scan.status === 'completed' ? 1 : 0;
      let newUser = 0;
      let newTestUser = 0;
      if (billable || testCompleted) {
        const seen = member.get(key);
        newUser = billable && !seen?.billable ? 1 : 0;
        newTestUser = testCompleted && !seen?.test_completed ? 1 : 0;
        if (newUser || newTestUser) markMember.run({ ...key, billable, test_completed: testCompleted });
      }
      add.run({
        app_id: scan.app_id,
        occurred_at: scan.occurred_at,
        mau: newUser,
        billable,
        test: scan.env === 'test' ? 1 : 0,
        test_users: newTestUser,
        completed: scan.status === 'completed' ? 1 : 0,
        failed: scan.status === 'failed' ? 1 : 0,
        abandoned: scan.status === 'abandoned' ? 1 : 0,
      });
    },
    rows: (appId: string | null, month: string | null) => rows.all({ app_id: appId, month }),
  };
}
