import { z } from 'zod';
import { listOf } from './list.js';
import { DateTime, queryInteger } from './time.js';
import { StreamClosed } from './stream-closed.js';

/** The three event types; signing, headers, event id and retry schedule are the same for all (WH-11). */
export const WEBHOOK_EVENT_TYPES = ['scan.completed', 'scan.failed', 'scan.results_available'] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** The delivery headers (WH-4, WH-5, WH-6). */
// Declared in the light verify module, which customers' servers import without the rest.
export { WEBHOOK_HEADERS } from '../verify.js';

/** WH-2: the measurement-free billing record. strictObject: a measurement can never slip in. */
const ScanOutcomeData = z
  .strictObject({
    scan_id: z.string().describe('Join key with scan.results_available (WH-12).'),
    app_id: z.string(),
    status: z.enum(['completed', 'failed']).describe('Matches type.'),
    occurred_at: DateTime.describe('When the scan finished on the device, not when delivered.'),
    host_user_ref: z.string(),
    model_version: z.string(),
  })
  .meta({ id: 'ScanOutcomeData' });

/** WH-3: the result exactly as the member's app received it. */
const ResultsAvailableData = z
  .strictObject({
    scan_id: z.string(),
    app_id: z.string(),
    host_user_ref: z.string(),
    occurred_at: DateTime,
    model_version: z.string(),
    result: z.record(z.string(), z.unknown()).describe('The scan result exactly as the member app received it.'),
  })
  .meta({ id: 'ResultsAvailableData' });

const EventId = z.string().describe('Event identifier; equals the Service-Event-Id header.');
const CreatedAt = DateTime.describe('Creation time of the event.');

export const ScanCompletedEvent = z
  .strictObject({
    id: EventId,
    type: z.literal('scan.completed'),
    created_at: CreatedAt,
    data: ScanOutcomeData.extend({ status: z.literal('completed') }),
  })
  .meta({ id: 'ScanCompletedEvent' });
export const ScanFailedEvent = z
  .strictObject({
    id: EventId,
    type: z.literal('scan.failed'),
    created_at: CreatedAt,
    data: ScanOutcomeData.extend({ status: z.literal('failed') }),
  })
  .meta({ id: 'ScanFailedEvent' });
export const ResultsAvailableEvent = z
  .strictObject({ id: EventId, type: z.literal('scan.results_available'), created_at: CreatedAt, data: ResultsAvailableData })
  .meta({ id: 'ResultsAvailableEvent' });

/** WH-1: the delivery body `{id, type, created_at, data}`. */
export const WebhookEvent = z
  .discriminatedUnion('type', [ScanCompletedEvent, ScanFailedEvent, ResultsAvailableEvent])
  .meta({ id: 'WebhookEvent', description: 'The JSON body of a webhook delivery.' });
export type WebhookEvent = z.infer<typeof WebhookEvent>;

// ---- The emulator's control plane for deliveries (CHOICE-8) ----

export const DELIVERY_STATUSES = ['pending', 'in_flight', 'succeeded', 'failed', 'cancelled'] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const WebhookDelivery = z
  .object({
    id: z.string().describe('The delivery, e.g. del_rv5F7Pc4fJ73xM1ANmF7.'),
    object: z.literal('webhook_delivery'),
    event_id: z
      .string()
      .describe('The event it delivers; equals the Service-Event-Id header. A resend is a new delivery of the same event.'),
    event_type: WebhookEventType.describe('scan.completed, scan.failed or scan.results_available.'),
    app_id: z.string().describe('The app whose webhook_url it goes to.'),
    scan_id: z.string().describe('The scan that caused the event.'),
    host_user_ref: z.string().describe("The member's host_user_ref."),
    origin: z.enum(['event', 'resend']).describe('event: made when the event was; resend: made by a resend of the event.'),
    status: DeliveryStatus.describe(
      'pending (queued, or waiting for its next attempt), in_flight (an attempt is on the wire), succeeded (a 2xx acknowledged it), failed (its attempts are exhausted), cancelled (withdrawn before it was acknowledged).',
    ),
    attempts: z.number().int().describe('Attempts made so far (0 before the first).'),
    max_attempts: z.number().int().describe('Attempts it makes at most before it is failed (17).'),
    next_attempt_at: DateTime.nullable().describe("When the next attempt is due, on the emulator's clock; null once it ended."),
    last_status: z
      .number()
      .int()
      .nullable()
      .describe("The HTTP status of the last attempt's answer; null before one, or when none came (see last_error)."),
    last_error: z
      .string()
      .nullable()
      .describe('Why the last attempt failed (e.g. HTTP 500, timed out, ECONNREFUSED); null when it succeeded or before one.'),
    created_at: DateTime.describe("When it was queued, on the emulator's clock."),
    updated_at: DateTime.describe("When it last changed, on the emulator's clock."),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookAttempt = z
  .object({
    number: z.number().int().describe('1 for the first attempt.'),
    url: z.string().describe('Where it was sent.'),
    started_at: DateTime.describe("When it was sent, on the emulator's clock."),
    status: z.number().int().nullable().describe("The receiver's HTTP status; null when no answer came (see error)."),
    latency_ms: z.number().int().nullable().describe('Real milliseconds from sending to the answer; null without one.'),
    error: z.string().nullable().describe('Why it failed (e.g. HTTP 500, timed out, ECONNREFUSED); null when a 2xx acknowledged it.'),
    response_excerpt: z.string().nullable().describe("The start of the receiver's answer body; null without one."),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDeliveryDetail = WebhookDelivery.extend({
  request: z
    .object({
      method: z.literal('POST'),
      url: z.string().nullable().describe('Where it goes: the listener forward URL or the app webhook_url; null when the app has none.'),
      headers: z
        .record(z.string(), z.string())
        .describe('The headers it sends, Service-Signature, Service-Event-Id and Service-Event-Type included.'),
      body: z.string().describe('The exact bytes that were signed and sent.'),
    })
    .describe('The exact request each attempt sends.'),
  attempt_log: z.array(WebhookAttempt).describe('Its attempts, first to last.'),
}).meta({ id: 'WebhookDeliveryDetail' });
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

export const WebhookDeliveryList = listOf(WebhookDelivery, 'WebhookDeliveryList');
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

export const WebhookDeliveryListQuery = z
  .strictObject({
    app_id: z.string().optional(),
    status: DeliveryStatus.optional(),
    scan_id: z.string().optional(),
    event_id: z.string().optional(),
    host_user_ref: z.string().min(1).max(255).optional().describe("Only the deliveries of this member's events."),
    limit: queryInteger(1, 1000).optional(),
  })
  .meta({ id: 'WebhookDeliveryListQuery' });

export const WebhookListener = z
  .object({
    id: z.string(),
    object: z.literal('webhook_listener'),
    app_id: z.string(),
    forward_url: z.string(),
    events: z.array(WebhookEventType).nullable().describe('The event types it takes; null: all of them.'),
    created_at: DateTime,
  })
  .meta({ id: 'WebhookListener' });
export type WebhookListener = z.infer<typeof WebhookListener>;

export const WebhookListenerList = listOf(WebhookListener, 'WebhookListenerList');

const EVENT_NAME = WEBHOOK_EVENT_TYPES.map((t) => t.replace('.', '\\.')).join('|');
const EVENT_LIST = new RegExp(`^(${EVENT_NAME})(,(${EVENT_NAME}))*$`);

/** The event types of a WebhookStreamQuery's `events` list, each once; null for all of them. */
export function parseEventList(text: string | undefined): WebhookEventType[] | null {
  if (text === undefined) return null;
  return [...new Set(text.split(','))].filter((name): name is WebhookEventType => WebhookEventType.safeParse(name).success);
}

export const WebhookStreamQuery = z
  .strictObject({
    app_id: z.string().min(1),
    forward: z
      .url({ protocol: /^https?$/, error: 'forward must be an http or https URL' })
      .max(2048)
      .optional(),
    events: z
      .string()
      .regex(EVENT_LIST, `events must be a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}`)
      .optional()
      .describe('Comma-separated event types: only these are streamed (and, with forward, forwarded).'),
  })
  .meta({ id: 'WebhookStreamQuery' });

export const WebhookSigningSecretRequest = z.strictObject({ app_id: z.string().min(1) }).meta({ id: 'WebhookSigningSecretRequest' });

/** What a delivery stream event reports; `object` is the one discriminator of every streamed object. */
const DELIVERY_STREAM_OBJECTS = ['delivery.queued', 'delivery.attempt_started', 'delivery.attempt_finished', 'delivery.cancelled'] as const;

/**
 * One item of the live delivery stream (the bus's 'delivery' event, and the SSE `delivery` event):
 * an attempt started or finished, a delivery queued, resent or cancelled.
 */
export const WebhookStreamEvent = z
  .object({
    object: z.enum(DELIVERY_STREAM_OBJECTS),
    time: DateTime.describe("On the emulator's clock."),
    delivery_id: z.string(),
    event_id: z.string(),
    event_type: WebhookEventType,
    app_id: z.string(),
    scan_id: z.string(),
    origin: z.enum(['event', 'resend']),
    attempt: z.number().int().describe('1-based; 0 before the first attempt.'),
    max_attempts: z.number().int(),
    url: z.string().nullable(),
    status: z.number().int().nullable(),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    response_excerpt: z.string().nullable().describe("The start of the receiver's answer body (finished attempts)."),
    outcome: z.enum(['pending', 'in_flight', 'succeeded', 'retrying', 'failed', 'cancelled']),
    next_attempt_at: DateTime.nullable(),
  })
  .meta({ id: 'WebhookStreamEvent' });
export type WebhookStreamEvent = z.infer<typeof WebhookStreamEvent>;

/** The stream's first event: where the app's deliveries go now, and the emulator's clock. */
export const WebhookStreamReady = z
  .object({
    object: z.literal('webhook_stream'),
    app_id: z.string(),
    listener: WebhookListener.nullable(),
    replaced: z.array(WebhookListener).describe('The listeners of the app this one took over (each told, and ended).'),
    effective_url: z.string().nullable(),
    events: z.array(WebhookEventType).nullable(),
    emulator_time: DateTime,
  })
  .meta({ id: 'WebhookStreamReady' });
export type WebhookStreamReady = z.infer<typeof WebhookStreamReady>;

/** Sent to a forwarding stream when another `webhook listen --forward` took its app over; the stream then ends. */
export const WebhookListenerReplaced = z
  .object({
    object: z.literal('listener.replaced'),
    time: DateTime.describe("On the emulator's clock."),
    listener_id: z.string(),
    app_id: z.string(),
    replaced_by: WebhookListener,
  })
  .meta({ id: 'WebhookListenerReplaced' });
export type WebhookListenerReplaced = z.infer<typeof WebhookListenerReplaced>;

/**
 * CHOICE-30: sent to a forwarding stream whose listener a `state reset`, `import` or `restore` could not
 * keep (its app is gone, or the app's signing secret is no longer the one the listener printed); the stream then ends.
 */
export const WebhookListenerEnded = z
  .object({
    object: z.literal('listener.ended'),
    time: DateTime.describe("On the emulator's clock."),
    listener_id: z.string(),
    app_id: z.string(),
    reason: z.enum(['app_removed', 'secret_changed']),
    cause: z.enum(['state_reset', 'state_import', 'state_restore']),
  })
  .meta({ id: 'WebhookListenerEnded' });
export type WebhookListenerEnded = z.infer<typeof WebhookListenerEnded>;

/** The data of every event on the live stream, told apart by `object`. */
export const WebhookStreamData = z
  .union([WebhookStreamReady, WebhookStreamEvent, WebhookListenerReplaced, WebhookListenerEnded, StreamClosed])
  .meta({ id: 'WebhookStreamData', description: 'One data line of the live stream: `object` says which kind it is.' });
