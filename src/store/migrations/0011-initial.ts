import type { Database } from 'better-sqlite3';

/**
 * The schema of 0.1.0, made in one step: schema version 11. Before the first release the schema
 * grew in eleven steps (1-11); they were folded into this one because no released scanctl ever
 * wrote a database at an earlier version. The old steps are kept only as a test fixture
 * (test/fixtures/old-migrations/), and test/unit/store/migrations.test.ts proves that a database
 * built by them and one built by this step have the same schema. From the first release on,
 * a shipped step is never edited: a change is a new step, 0012 and on, appended after this one.
 *
 * Times are INTEGER milliseconds on the emulator's clock. Secrets are stored only as hashes (keys,
 * tokens, portal cookies) or sealed (webhook signing secrets).
 */
export function up(db: Database): void {
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

    CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      suspended INTEGER NOT NULL DEFAULT 0,
      suspended_at INTEGER,
      created_at INTEGER NOT NULL
    );

    CREATE TABLE apps (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      bundle_id TEXT NOT NULL,
      team_id TEXT NOT NULL,
      billing_profile INTEGER NOT NULL DEFAULT 0,
      terms_accepted INTEGER NOT NULL DEFAULT 0,
      webhook_url TEXT,
      webhook_secret_sealed TEXT,
      webhook_secret_hint TEXT,
      results_delivery_enabled INTEGER NOT NULL DEFAULT 0,
      daily_session_quota INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );

    CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      app_id TEXT NOT NULL REFERENCES apps(id),
      env TEXT NOT NULL CHECK (env IN ('test', 'live')),
      kind TEXT NOT NULL CHECK (kind IN ('secret', 'publishable')),
      hash TEXT NOT NULL UNIQUE,
      display TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'revoked', 'suspended')),
      grace_until INTEGER,
      replaced_by TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX api_keys_app ON api_keys(app_id, env, kind);

    CREATE TABLE portal_sessions (
      hash TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );

    CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      token_hash TEXT NOT NULL UNIQUE,
      app_id TEXT NOT NULL REFERENCES apps(id),
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      env TEXT NOT NULL,
      host_user_ref TEXT NOT NULL,
      scopes TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      scan_id TEXT
    );

    CREATE TABLE quota_usage (
      app_id TEXT NOT NULL,
      day TEXT NOT NULL,
      count INTEGER NOT NULL,
      PRIMARY KEY (app_id, day)
    );

    CREATE TABLE challenges (
      hash TEXT PRIMARY KEY,
      app_id TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    );
    -- Sweeps of what has expired.
    CREATE INDEX challenges_expiry ON challenges(expires_at);

    CREATE TABLE installations (
      id TEXT PRIMARY KEY,
      app_id TEXT NOT NULL REFERENCES apps(id),
      status TEXT NOT NULL CHECK (status IN ('enrolled', 'blocked')),
      bundle_id TEXT NOT NULL,
      team_id TEXT NOT NULL,
      app_version TEXT,
      enrolled_at INTEGER NOT NULL,
      enrollments INTEGER NOT NULL DEFAULT 1,
      blocked_at INTEGER,
      last_seen_at INTEGER NOT NULL
    );
    CREATE INDEX installations_app ON installations(app_id, enrolled_at);

    CREATE TABLE scans (
      app_id TEXT NOT NULL REFERENCES apps(id),
      id TEXT NOT NULL,
      installation_id TEXT NOT NULL,
      session_id TEXT NOT NULL,
      env TEXT NOT NULL,
      host_user_ref TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('started', 'completed', 'failed', 'abandoned')),
      model_version TEXT NOT NULL,
      occurred_at INTEGER,
      started_at INTEGER,
      recorded_at INTEGER NOT NULL,
      billable INTEGER NOT NULL DEFAULT 0,
      reports INTEGER NOT NULL DEFAULT 1,
      PRIMARY KEY (app_id, id)
    );
    -- Lists, newest first: the first page is the first rows of an index (no sort of every row).
    -- The lookup of a member's scans takes the second as a prefix: no narrower index beside it.
    CREATE INDEX scans_recorded ON scans(app_id, recorded_at);
    CREATE INDEX scans_user_recorded ON scans(app_id, host_user_ref, recorded_at);

    CREATE TABLE results (
      app_id TEXT NOT NULL,
      scan_id TEXT NOT NULL,
      host_user_ref TEXT NOT NULL,
      env TEXT NOT NULL,
      body TEXT NOT NULL,
      stored_at INTEGER NOT NULL,
      uploads INTEGER NOT NULL DEFAULT 1,
      PRIMARY KEY (app_id, scan_id)
    );
    CREATE INDEX results_user ON results(app_id, host_user_ref);

    CREATE TABLE idempotency_keys (
      app_id TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      status INTEGER NOT NULL,
      response TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (app_id, key)
    );
    CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);

    -- The webhook outbox: an event is written in the transaction of the scan that caused it, with
    -- its deliveries; each attempt is a row of its own.
    -- redacted_at, DEL-2: a deleted member's scan.results_available payload is scrubbed; the row stays as a tombstone.
    CREATE TABLE events (
      id TEXT PRIMARY KEY,
      app_id TEXT NOT NULL,
      type TEXT NOT NULL,
      scan_id TEXT NOT NULL,
      host_user_ref TEXT NOT NULL,
      payload TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      redacted_at INTEGER
    );
    -- WH-10, DEV-8: one event per scan and type, however often the device reports or uploads.
    CREATE UNIQUE INDEX events_once ON events(app_id, scan_id, type);
    -- The deliveries of one scan (scanctl wait, webhook deliveries --scan), whatever the app.
    CREATE INDEX events_scan_id ON events(scan_id);

    -- origin: 'event', created with the event; 'resend', scanctl webhook resend (same event id, same bytes).
    -- chaos_hold: a chaos verdict held while its delay passes, JSON {attempt, verdict}.
    -- A claim writes its deliveries 'in_flight' in the transaction that reads them: a restart finds
    -- what was being sent and sends it again.
    CREATE TABLE deliveries (
      id TEXT PRIMARY KEY,
      event_id TEXT NOT NULL REFERENCES events(id),
      app_id TEXT NOT NULL,
      host_user_ref TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'in_flight', 'succeeded', 'failed', 'cancelled')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER,
      last_status INTEGER,
      last_error TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      origin TEXT NOT NULL DEFAULT 'event' CHECK (origin IN ('event', 'resend')),
      chaos_hold TEXT
    );
    -- The dispatcher's queue is the pending deliveries by due time: a partial index holds only them,
    -- so it loses an entry at a claim, gains one at a retry, and is untouched by any other outcome.
    CREATE INDEX deliveries_pending ON deliveries(next_attempt_at) WHERE status = 'pending';
    CREATE INDEX deliveries_user ON deliveries(app_id, host_user_ref);
    CREATE INDEX deliveries_event ON deliveries(event_id);
    -- The web console pages through an app's deliveries newest first, optionally by status: both
    -- orders come from an index, so a page never sorts the table. A status is listed across apps
    -- from (status, created_at), every delivery from (created_at).
    CREATE INDEX deliveries_app_status ON deliveries(app_id, status, created_at);
    CREATE INDEX deliveries_app_created ON deliveries(app_id, created_at);
    CREATE INDEX deliveries_status_created ON deliveries(status, created_at);
    CREATE INDEX deliveries_created ON deliveries(created_at);

    -- request_headers: the exact headers sent (JSON), for the detail view.
    -- duplicate_send: a second send of an attempt by webhook chaos --duplicate (WH-8), a row of its
    -- own with the same number, marked: the views show every send; it never counts as an attempt.
    CREATE TABLE attempts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      delivery_id TEXT NOT NULL REFERENCES deliveries(id),
      event_id TEXT NOT NULL,
      number INTEGER NOT NULL,
      url TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      status INTEGER,
      latency_ms INTEGER,
      error TEXT,
      response_excerpt TEXT,
      request_headers TEXT,
      duplicate_send INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX attempts_delivery ON attempts(delivery_id);

    -- scanctl webhook listen: a forward URL tied to the life of one live-stream connection, and the
    -- event types it takes (--events a,b: a JSON array; NULL: all).
    CREATE TABLE webhook_listeners (
      id TEXT PRIMARY KEY,
      app_id TEXT NOT NULL,
      forward_url TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      events TEXT
    );
    CREATE INDEX webhook_listeners_app ON webhook_listeners(app_id, created_at);

    -- API faults (scanctl faults) and per-app delivery chaos (scanctl webhook chaos), kept in the
    -- database so that they survive a restart and travel with scanctl state export.
    CREATE TABLE faults (
      id TEXT PRIMARY KEY,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      status INTEGER NOT NULL,
      code TEXT NOT NULL,
      message TEXT,
      count INTEGER,
      remaining INTEGER,
      probability REAL,
      seed INTEGER NOT NULL,
      matched INTEGER NOT NULL DEFAULT 0,
      injected INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL
    );

    CREATE TABLE chaos_settings (
      app_id TEXT PRIMARY KEY,
      seed INTEGER NOT NULL,
      drop_probability REAL NOT NULL DEFAULT 0,
      duplicate_probability REAL NOT NULL DEFAULT 0,
      delay_ms INTEGER,
      delay_probability REAL NOT NULL DEFAULT 0,
      reorder INTEGER NOT NULL DEFAULT 0,
      fail_first INTEGER NOT NULL DEFAULT 0,
      fail_status INTEGER NOT NULL DEFAULT 500,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );

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
}
