import type { Database } from 'better-sqlite3';

// Times are INTEGER milliseconds on the emulator's clock. Secrets are stored only as hashes
// (keys, tokens, portal cookies) or sealed (webhook signing secrets).
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
    CREATE INDEX scans_user ON scans(app_id, host_user_ref);
    CREATE INDEX scans_month ON scans(app_id, occurred_at);

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

    CREATE TABLE events (
      id TEXT PRIMARY KEY,
      app_id TEXT NOT NULL,
      type TEXT NOT NULL,
      scan_id TEXT NOT NULL,
      host_user_ref TEXT NOT NULL,
      payload TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX events_scan ON events(app_id, scan_id);

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
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX deliveries_due ON deliveries(status, next_attempt_at);
    CREATE INDEX deliveries_user ON deliveries(app_id, host_user_ref);

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
      response_excerpt TEXT
    );
    CREATE INDEX attempts_delivery ON attempts(delivery_id);
  `);
}
