import type { Database } from 'better-sqlite3';

// API faults (`scanctl faults`) and per-app delivery chaos (`scanctl webhook chaos`).
// Kept in the database so that they survive a restart and travel with `scanctl state export`.
export function up(db: Database): void {
  db.exec(`
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
  `);
}
