import type { Database } from 'better-sqlite3';

// `scanctl webhook listen --events a,b`: the event types a listener takes (JSON array; NULL: all).
export function up(db: Database): void {
  db.exec('ALTER TABLE webhook_listeners ADD COLUMN events TEXT');
}
