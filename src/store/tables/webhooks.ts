import type { Db } from '../db.js';
import type { AttemptRow, EventRow, ListenerRow } from './webhook-rows.js';
import { deliveryStatements } from './deliveries.js';

// The row types live in webhook-rows.ts; importers of this module find them here too.
export type { DeliveryRow, DeliveryWithEvent, EventRow, ListenerRow } from './webhook-rows.js';

/** Events, their deliveries (./deliveries.ts), attempts and listeners: the outbox. Times are ms on the emulator clock. */
export function webhookStatements(db: Db) {
  const insertEvent = db.prepare<Omit<EventRow, 'redacted_at'>>(`
    INSERT INTO events (id, app_id, type, scan_id, host_user_ref, payload, created_at)
    VALUES (@id, @app_id, @type, @scan_id, @host_user_ref, @payload, @created_at)
    ON CONFLICT(app_id, scan_id, type) DO NOTHING`);
  const eventById = db.prepare<[string], EventRow>('SELECT * FROM events WHERE id = ?');
  const eventByScan = db.prepare<[string, string, string], EventRow>('SELECT * FROM events WHERE app_id = ? AND scan_id = ? AND type = ?');
  const redactResults = db.prepare<{ app_id: string; host_user_ref: string; now: number }>(`
    UPDATE events SET payload = '', redacted_at = @now
    WHERE app_id = @app_id AND host_user_ref = @host_user_ref AND type = 'scan.results_available' AND redacted_at IS NULL`);

  const insertAttempt = db.prepare<Omit<AttemptRow, 'id'>>(
    `INSERT INTO attempts (delivery_id, event_id, number, url, started_at, status, latency_ms, error, response_excerpt, request_headers, duplicate_send)
     VALUES (@delivery_id, @event_id, @number, @url, @started_at, @status, @latency_ms, @error, @response_excerpt, @request_headers, @duplicate_send)`,
  );
  const attemptsOf = db.prepare<[string], AttemptRow>('SELECT * FROM attempts WHERE delivery_id = ? ORDER BY number, id');

  const insertListener = db.prepare<ListenerRow>(
    'INSERT INTO webhook_listeners (id, app_id, forward_url, events, created_at) VALUES (@id, @app_id, @forward_url, @events, @created_at)',
  );
  const deleteListener = db.prepare<[string]>('DELETE FROM webhook_listeners WHERE id = ?');
  const clearListeners = db.prepare('DELETE FROM webhook_listeners');
  const listenerFor = db.prepare<[string], ListenerRow>(
    'SELECT * FROM webhook_listeners WHERE app_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
  );
  const listeners = db.prepare<[], ListenerRow>('SELECT * FROM webhook_listeners ORDER BY created_at, rowid');
  const listenersOf = db.prepare<[string], ListenerRow>('SELECT * FROM webhook_listeners WHERE app_id = ? ORDER BY created_at, rowid');

  return {
    /** Inserts the event unless one exists for (app, scan, type); returns the stored row either way. */
    insertEvent(row: Omit<EventRow, 'redacted_at'>): { row: EventRow; created: boolean } {
      const created = insertEvent.run(row).changes > 0;
      return { row: eventByScan.get(row.app_id, row.scan_id, row.type)!, created };
    },
    eventById: (id: string) => eventById.get(id),
    redactResults: (appId: string, hostUserRef: string, now: number) =>
      redactResults.run({ app_id: appId, host_user_ref: hostUserRef, now }).changes,

    ...deliveryStatements(db),

    insertAttempt: (row: Omit<AttemptRow, 'id'>) => void insertAttempt.run(row),
    attemptsOf: (deliveryId: string) => attemptsOf.all(deliveryId),

    insertListener: (row: ListenerRow) => void insertListener.run(row),
    deleteListener: (id: string) => deleteListener.run(id).changes > 0,
    clearListeners: () => void clearListeners.run(),
    listenerFor: (appId: string) => listenerFor.get(appId),
    listeners: () => listeners.all(),
    listenersOf: (appId: string) => listenersOf.all(appId),
  };
}
