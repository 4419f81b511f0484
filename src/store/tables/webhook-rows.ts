import type { DeliveryStatus, WebhookEventType } from '../../contract/webhooks.js';

// The rows of the outbox's tables (events, deliveries, attempts, listeners) and what is written to them.

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
  chaos_hold: string | null;
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
  request_headers: string | null;
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
  /** JSON array of the event types it takes; null: all. */
  events: string | null;
  created_at: number;
}

export interface DeliveryFilter {
  app_id?: string | undefined;
  status?: DeliveryStatus | undefined;
  scan_id?: string | undefined;
  event_id?: string | undefined;
  host_user_ref?: string | undefined;
  limit?: number | undefined;
}
