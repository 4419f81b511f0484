import type { Database } from 'better-sqlite3';
import { rebuildDerivedTables } from '../derived.js';

// Costs that stay flat as the database grows: every list, sweep and count an operation runs is
// served by an index range or a stored counter, never a scan of a whole table.
export function up(db: Database): void {
  db.exec(`
    -- Lists, newest first: the first page is the first rows of an index (no sort of every row).
    CREATE INDEX scans_recorded ON scans(app_id, recorded_at);
    CREATE INDEX scans_user_recorded ON scans(app_id, host_user_ref, recorded_at);
    CREATE INDEX deliveries_created ON deliveries(created_at);
    -- (0005 made deliveries_app_created and deliveries_app_status for the pages of one app.)
    CREATE INDEX deliveries_status_created ON deliveries(status, created_at);
    CREATE INDEX installations_app ON installations(app_id, enrolled_at);
    -- The deliveries of one scan (scanctl wait, webhook deliveries --scan), whatever the app.
    CREATE INDEX events_scan_id ON events(scan_id);
    -- Covered by the wider indexes above (or by events_once), so one index fewer to write per row.
    DROP INDEX scans_user;
    DROP INDEX scans_month;
    DROP INDEX events_scan;
    -- Sweeps of what has expired.
    CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
    CREATE INDEX challenges_expiry ON challenges(expires_at);

    -- Derived tables (src/store/derived.ts): kept in step by the writes, rebuilt from their source
    -- after a state import, never exported.
    -- A delivery's position among its app's deliveries, what chaos keys its draws by (replays).
    CREATE TABLE delivery_ordinals (
      delivery_id TEXT PRIMARY KEY,
      app_id TEXT NOT NULL,
      ordinal INTEGER NOT NULL
    );
    CREATE UNIQUE INDEX delivery_ordinals_app ON delivery_ordinals(app_id, ordinal);
    -- BILL-4 usage per app and UTC month of occurred_at, counted as scans get their outcome.
    CREATE TABLE usage_months (
      app_id TEXT NOT NULL,
      month TEXT NOT NULL,
      monthly_active_users INTEGER NOT NULL DEFAULT 0,
      billable_scans INTEGER NOT NULL DEFAULT 0,
      test_scans INTEGER NOT NULL DEFAULT 0,
      test_active_users INTEGER NOT NULL DEFAULT 0,
      completed_scans INTEGER NOT NULL DEFAULT 0,
      failed_scans INTEGER NOT NULL DEFAULT 0,
      abandoned_scans INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (app_id, month)
    );
    CREATE INDEX usage_months_month ON usage_months(month, app_id);
    -- Who was already counted in a month's distinct users (billed, or with a completed test scan).
    CREATE TABLE usage_members (
      app_id TEXT NOT NULL,
      month TEXT NOT NULL,
      host_user_ref TEXT NOT NULL,
      billable INTEGER NOT NULL DEFAULT 0,
      test_completed INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (app_id, month, host_user_ref)
    );
  `);
  rebuildDerivedTables(db);
}
