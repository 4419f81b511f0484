import type { Db } from '../db.js';
import { z } from 'zod';
import { attemptRow, eventRow, listenerOf, listenerRow, type AttemptRow, type EventRow, type ListenerRow } from './webhook-rows.js';
import { JSON_COLUMNS, nullableJsonText, readNullableJsonCell } from '../json-columns.js';
import { rowsOf, type CellsOf } from '../row-statements.js';
import { deliveryStatements } from './deliveries.js';

// The row types live in webhook-rows.ts; importers of this module find them here too.
export type { DeliveryRow, DeliveryWithEvent, EventRow, ListenerRow } from './webhook-rows.js';

/** Events, their deliveries (./deliveries.ts), attempts and listeners: the outbox. Times are ms on the emulator clock. */
export function webhookStatements(db: Db) {
  const insertEvent = db.prepare<Omit<EventRow, 'redacted_at'>>(`
    INSERT INTO events (id, app_id, type, scan_id, host_user_ref, payload, created_at)
    VALUES (@id, @app_id, @type, @scan_id, @host_user_ref, @payload, @created_at)
    ON CONFLICT(app_id, scan_id, type) DO NOTHING`);
  const events = rowsOf(db, eventRow);
  const eventById = events.prepare<[string]>('SELECT * FROM events WHERE id = ?');
  const eventByScan = events.prepare<[string, string, string]>('SELECT * FROM events WHERE app_id = ? AND scan_id = ? AND type = ?');
  const redactResults = db.prepare<{ app_id: string; host_user_ref: string; now: number }>(`
    UPDATE events SET payload = '', redacted_at = @now
    WHERE app_id = @app_id AND host_user_ref = @host_user_ref AND type = 'scan.results_available' AND redacted_at IS NULL`);

  const insertAttempt = db.prepare<Omit<CellsOf<typeof attemptRow>, 'id'>>(
    `INSERT INTO attempts (delivery_id, event_id, number, url, started_at, status, latency_ms, error, response_excerpt, request_headers, duplicate_send)
     VALUES (@delivery_id, @event_id, @number, @url, @started_at, @status, @latency_ms, @error, @response_excerpt, @request_headers, @duplicate_send)`,
  );
  const attemptsOf = rowsOf(db, attemptRow).prepare<[string]>('SELECT * FROM attempts WHERE delivery_id = ? ORDER BY number, id');
  // WH-8: counted in SQL, so that a list of deliveries parses no attempt's headers.
  const duplicateSends = rowsOf(db, () => z.number().int()).pluck<[string]>(
    'SELECT count(*) FROM attempts WHERE delivery_id = ? AND duplicate_send = 1',
  );

  const insertListener = db.prepare<CellsOf<typeof listenerRow>>(
    'INSERT INTO webhook_listeners (id, app_id, forward_url, events, created_at) VALUES (@id, @app_id, @forward_url, @events, @created_at)',
  );
  const deleteListener = db.prepare<[string]>('DELETE FROM webhook_listeners WHERE id = ?');
  const clearListeners = db.prepare('DELETE FROM webhook_listeners');
  const listenerRows = rowsOf(db, listenerRow);
  const listenerFor = listenerRows.prepare<[string]>(
    'SELECT * FROM webhook_listeners WHERE app_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
  );
  const listeners = listenerRows.prepare('SELECT * FROM webhook_listeners ORDER BY created_at, rowid');
  const listenersOf = listenerRows.prepare<[string]>('SELECT * FROM webhook_listeners WHERE app_id = ? ORDER BY created_at, rowid');

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

    insertAttempt: (row: Omit<AttemptRow, 'id'>) =>
      void insertAttempt.run({ ...row, request_headers: nullableJsonText(row.request_headers) }),
    attemptsOf: (deliveryId: string): AttemptRow[] =>
      attemptsOf.all(deliveryId).map((row) => ({
        ...row,
        request_headers: readNullableJsonCell(JSON_COLUMNS.attempts.request_headers, row.request_headers),
      })),
    duplicateSendsOf: (deliveryId: string): number => duplicateSends.get(deliveryId) ?? 0,

    insertListener: (row: ListenerRow) => void insertListener.run({ ...row, events: nullableJsonText(row.events) }),
    deleteListener: (id: string) => deleteListener.run(id).changes > 0,
    clearListeners: () => void clearListeners.run(),
    listenerFor(appId: string): ListenerRow | undefined {
      const row = listenerFor.get(appId);
      return row && listenerOf(row);
    },
    listeners: (): ListenerRow[] => listeners.all().map(listenerOf),
    listenersOf: (appId: string): ListenerRow[] => listenersOf.all(appId).map(listenerOf),
  };
}
