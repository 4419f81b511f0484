import type { ChaosHold } from '../../contract/chaos.js';
import type { DeliveryStatus, WebhookEventType } from '../../contract/webhooks.js';
import { JSON_COLUMNS, readJsonCell } from '../json-columns.js';

// The rows of the outbox's tables (events, deliveries, attempts, listeners) and what is written to them.
// JSON columns come out parsed, through their column's schema, but for the event's payload: it is
// sent byte for byte as stored (WH-3) and is '' once scrubbed (DEL-2), so it stays text.

export interface EventRow {
  id: string;
  app_id: string;
  type: WebhookEventType;
  scan_id: string;
  host_user_ref: string;
  /** The exact bytes signed and sent on every attempt and resend ('' once redacted). */
  payload: string;
  created_at: number;
  redacted_at: number | null;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  app_id: string;
  host_user_ref: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  origin: 'event' | 'resend';
  /** A chaos verdict kept while its delay passes (sent as is when the attempt comes due). */
  chaos_hold: ChaosHold | null;
}

/** A delivery joined with its event: what the dispatcher sends and the control plane shows. */
export interface DeliveryWithEvent extends DeliveryRow {
  event_type: EventRow['type'];
  scan_id: string;
  payload: string;
  event_created_at: number;
}

export interface AttemptRow {
  id: number;
  delivery_id: string;
  event_id: string;
  number: number;
  url: string;
  started_at: number;
  status: number | null;
  latency_ms: number | null;
  error: string | null;
  response_excerpt: string | null;
  /** The exact headers sent, for the detail view. */
  request_headers: Record<string, string> | null;
  /** 1: a second send of attempt `number` by chaos --duplicate (WH-8), not an attempt of its own. */
  duplicate_send: number;
}

/** What an attempt's outcome writes to its delivery. */
export interface DeliveryOutcome {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
}

export interface ListenerRow {
  id: string;
  app_id: string;
  forward_url: string;
  /** The event types it takes; null: all. */
  events: WebhookEventType[] | null;
  created_at: number;
}

/** A row as stored: `chaos_hold` as JSON text. */
export type WithHoldCells<R extends DeliveryRow> = Omit<R, 'chaos_hold'> & { chaos_hold: string | null };

/** A delivery row read: its held chaos verdict parsed (a held delivery is rare, and parsed once when read). */
export function withHold<C extends { chaos_hold: string | null }>(row: C): Omit<C, 'chaos_hold'> & { chaos_hold: ChaosHold | null } {
  return { ...row, chaos_hold: row.chaos_hold === null ? null : readJsonCell(JSON_COLUMNS.deliveries.chaos_hold, row.chaos_hold) };
}

/** An attempt as stored: `request_headers` as JSON text. */
export type AttemptCells = Omit<AttemptRow, 'request_headers'> & { request_headers: string | null };

/** A listener as stored: `events` as JSON text. */
export type ListenerCells = Omit<ListenerRow, 'events'> & { events: string | null };

export function listenerOf(row: ListenerCells): ListenerRow {
  return { ...row, events: row.events === null ? null : readJsonCell(JSON_COLUMNS.webhook_listeners.events, row.events) };
}

export interface DeliveryFilter {
  app_id?: string | undefined;
  status?: DeliveryStatus | undefined;
  scan_id?: string | undefined;
  event_id?: string | undefined;
  host_user_ref?: string | undefined;
  limit?: number | undefined;
}
