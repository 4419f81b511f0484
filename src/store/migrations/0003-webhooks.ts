import type { Database } from 'better-sqlite3';

// The webhook outbox on top of 0001's events, deliveries and attempts.
export function up(db: Database): void {
  db.exec(`
    -- WH-10, DEV-8: one event per scan and type, however often the device reports or uploads.
    CREATE UNIQUE INDEX events_once ON events(app_id, scan_id, type);
    -- DEL-2: a deleted member's scan.results_available payload is scrubbed; the row stays as a tombstone.
    ALTER TABLE events ADD COLUMN redacted_at INTEGER;

    -- 'event': created with the event; 'resend': scanctl webhook resend (same event id, same bytes).
    ALTER TABLE deliveries ADD COLUMN origin TEXT NOT NULL DEFAULT 'event' CHECK (origin IN ('event', 'resend'));
    -- A chaos verdict held while its delay passes: JSON {attempt, verdict}.
    ALTER TABLE deliveries ADD COLUMN chaos_hold TEXT;
    CREATE INDEX deliveries_event ON deliveries(event_id);
    CREATE INDEX deliveries_app ON deliveries(app_id, status);

    -- The exact headers sent on each attempt (JSON), for the detail view.
    ALTER TABLE attempts ADD COLUMN request_headers TEXT;

    -- scanctl webhook listen: a forward URL tied to the life of one live-stream connection.
    CREATE TABLE webhook_listeners (
      id TEXT PRIMARY KEY,
      app_id TEXT NOT NULL,
      forward_url TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX webhook_listeners_app ON webhook_listeners(app_id, created_at);
  `);
}
