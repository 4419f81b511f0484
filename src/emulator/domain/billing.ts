import type { Usage } from '../../contract/device.js';
import type { Store } from '../../store/index.js';

/**
 * BILL-1..3: a scan bills exactly when the session that ran it was minted with a live secret
 * key and the scan completed. Test-key scans, failed and abandoned scans never bill.
 */
export function isBillable(env: 'test' | 'live', status: string): boolean {
  return env === 'live' && status === 'completed';
}

/**
 * The billing view per app and month: monthly active scanning users (distinct host_user_ref
 * with a billable scan), billable scans, test scans, failed and abandoned. With both an app and
 * a month, the answer always holds that one row (zeros when nothing happened).
 */
export function usage(store: Store, appId: string | null, month: string | null): Usage[] {
  const rows: Usage[] = store.device.usage(appId, month).map((r) => ({ object: 'usage', ...r }));
  if (appId && month && rows.length === 0) {
    rows.push({
      object: 'usage',
      app_id: appId,
      month,
      monthly_active_users: 0,
      billable_scans: 0,
      test_scans: 0,
      test_active_users: 0,
      completed_scans: 0,
      failed_scans: 0,
      abandoned_scans: 0,
    });
  }
  return rows;
}
