import { z } from 'zod';
import type { ChaosHold } from '../../contract/chaos.js';
import { DeliveryStatus, WebhookEventType } from '../../contract/webhooks.js';
import { JSON_COLUMNS, jsonCell, readNullableJsonCell } from '../json-columns.js';
import type { CellsOf, RowOf } from '../row-statements.js';

// The rows of the outbox's tables (events, deliveries, attempts, listeners) and what is written to
// them, each row type from its schema (../row-statements.ts). JSON columns come out parsed, through
// their column's schema, but for the event's payload: it is sent byte for byte as stored (WH-3) and
// is '' once scrubbed (DEL-2), so it stays text.

export const eventRow = () =>
  z.strictObject({
    id: z.string(),
    app_id: z.string(),
    type: WebhookEventType,
    scan_id: z.string(),
    host_user_ref: z.string(),
    /** The exact bytes signed and sent on every attempt and resend ('' once redacted): text, never parsed here. */
    payload: z.string(),
    created_at: z.number().int(),
    redacted_at: z.number().int().nullable(),
  });
export type EventRow = RowOf<typeof eventRow>;

const deliveryColumns = () => ({
  id: z.string(),
  event_id: z.string(),
  app_id: z.string(),
  host_user_ref: z.string(),
  status: DeliveryStatus,
  attempts: z.number().int(),
  next_attempt_at: z.number().int().nullable(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  origin: z.enum(['event', 'resend']),
  /** A chaos verdict kept while its delay passes (sent as is when the attempt comes due). */
  chaos_hold: jsonCell(JSON_COLUMNS.deliveries.chaos_hold).nullable(),
});
/** A delivery joined with its event (`d.*` and EVENT_COLUMNS): what the dispatcher sends and the control plane shows. */
export const deliveryWithEventColumns = () => ({
  ...deliveryColumns(),
  event_type: WebhookEventType,
  scan_id: z.string(),
  payload: z.string(),
  event_created_at: z.number().int(),
});
export const deliveryWithEventRow = () => z.strictObject(deliveryWithEventColumns());
export type DeliveryWithEvent = RowOf<typeof deliveryWithEventRow>;
/** A delivery's own columns (every statement reads it joined with its event). */
export type DeliveryRow = Omit<DeliveryWithEvent, 'event_type' | 'scan_id' | 'payload' | 'event_created_at'>;

/** A delivery row read: its held chaos verdict parsed (a held delivery is rare, and parsed once when read). */
export function withHold<C extends { chaos_hold: string | null }>(row: C): Omit<C, 'chaos_hold'> & { chaos_hold: ChaosHold | null } {
  return { ...row, chaos_hold: readNullableJsonCell(JSON_COLUMNS.deliveries.chaos_hold, row.chaos_hold) };
}

export const attemptRow = () =>
  z.strictObject({
    id: z.number().int(),
    delivery_id: z.string(),
    event_id: z.string(),
    number: z.number().int(),
    url: z.string(),
    started_at: z.number().int(),
    status: z.number().int().nullable(),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    response_excerpt: z.string().nullable(),
    /** The exact headers sent, for the detail view. */
    request_headers: jsonCell(JSON_COLUMNS.attempts.request_headers).nullable(),
    /** 1: a second send of attempt `number` by chaos --duplicate (WH-8), not an attempt of its own. */
    duplicate_send: z.number().int(),
  });
export type AttemptRow = RowOf<typeof attemptRow>;

/** What an attempt's outcome writes to its delivery. */
export interface DeliveryOutcome {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
}

export const listenerRow = () =>
  z.strictObject({
    id: z.string(),
    app_id: z.string(),
    forward_url: z.string(),
    /** The event types it takes; null: all. */
    events: jsonCell(JSON_COLUMNS.webhook_listeners.events).nullable(),
    created_at: z.number().int(),
  });
export type ListenerRow = RowOf<typeof listenerRow>;

export function listenerOf(row: CellsOf<typeof listenerRow>): ListenerRow {
  return { ...row, events: readNullableJsonCell(JSON_COLUMNS.webhook_listeners.events, row.events) };
}

export interface DeliveryFilter {
  app_id?: string | undefined;
  status?: DeliveryStatus | undefined;
  scan_id?: string | undefined;
  event_id?: string | undefined;
  host_user_ref?: string | undefined;
  limit?: number | undefined;
}
