import { z } from 'zod';
import { listOf } from './list.js';
import { DateTime, queryInteger } from './time.js';

/** The three event types; signing, headers, event id and retry schedule are the same for all (WH-11). */
export const WEBHOOK_EVENT_TYPES = ['scan.completed', 'scan.failed', 'scan.results_available'] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** The delivery headers (WH-4, WH-5, WH-6). */
// Declared in the light verify module, which customers' servers import without the rest.
export { WEBHOOK_HEADERS } from '../verify.js';

/** WH-2: the measurement-free billing record. strictObject: a measurement can never slip in. */
const ScanOutcomeData = z.lazy(() =>
  z
    .strictObject({
      scan_id: z.string().describe('Join key with scan.results_available (WH-12).'),
      app_id: z.string(),
      status: z.enum(['completed', 'failed']).describe('Matches type.'),
      occurred_at: DateTime.describe('When the scan finished on the device, not when delivered.'),
      host_user_ref: z.string(),
      model_version: z.string(),
    })
    .meta({ id: 'ScanOutcomeData' }),
);

/** WH-3: the result exactly as the member's app received it. */
const ResultsAvailableData = z.lazy(() =>
  z
    .strictObject({
      scan_id: z.string(),
      app_id: z.string(),
      host_user_ref: z.string(),
      occurred_at: DateTime,
      model_version: z.string(),
      result: z.record(z.string(), z.unknown()).describe('The scan result exactly as the member app received it.'),
    })
    .meta({ id: 'ResultsAvailableData' }),
);

const EventId = z.string().describe('Event identifier; equals the Service-Event-Id header.');
const CreatedAt = DateTime.describe('Creation time of the event.');

export const ScanCompletedEvent = z.lazy(() =>
  z
    .strictObject({
      id: EventId,
      type: z.literal('scan.completed'),
      created_at: CreatedAt,
      data: ScanOutcomeData.unwrap().extend({ status: z.literal('completed') }),
    })
    .meta({ id: 'ScanCompletedEvent' }),
);
export const ScanFailedEvent = z.lazy(() =>
  z
    .strictObject({
      id: EventId,
      type: z.literal('scan.failed'),
      created_at: CreatedAt,
      data: ScanOutcomeData.unwrap().extend({ status: z.literal('failed') }),
    })
    .meta({ id: 'ScanFailedEvent' }),
);
export const ResultsAvailableEvent = z.lazy(() =>
  z
    .strictObject({ id: EventId, type: z.literal('scan.results_available'), created_at: CreatedAt, data: ResultsAvailableData })
    .meta({ id: 'ResultsAvailableEvent' }),
);

/** WH-1: the delivery body `{id, type, created_at, data}`. */
export const WebhookEvent = z.lazy(() =>
  z
    .discriminatedUnion('type', [ScanCompletedEvent, ScanFailedEvent, ResultsAvailableEvent])
    .meta({ id: 'WebhookEvent', description: 'The JSON body of a webhook delivery.' }),
);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

// ---- The emulator's control plane for deliveries (CHOICE-8) ----

export const DELIVERY_STATUSES = ['pending', 'in_flight', 'succeeded', 'failed', 'cancelled'] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const WebhookDelivery = z.lazy(() =>
  z
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
    .meta({ id: 'WebhookDelivery' }),
);
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookAttempt = z.lazy(() =>
  z
    .object({
      number: z.number().int().describe('1 for the first attempt.'),
      url: z.string().describe('Where it was sent.'),
      started_at: DateTime.describe("When it was sent, on the emulator's clock."),
      status: z.number().int().nullable().describe("The receiver's HTTP status; null when no answer came (see error)."),
      latency_ms: z.number().int().nullable().describe('Real milliseconds from sending to the answer; null without one.'),
      error: z.string().nullable().describe('Why it failed (e.g. HTTP 500, timed out, ECONNREFUSED); null when a 2xx acknowledged it.'),
      response_excerpt: z.string().nullable().describe("The start of the receiver's answer body; null without one."),
      duplicate_send: z
        .boolean()
        .describe(
          'True for the second send of attempt `number` by webhook chaos --duplicate (same bytes, WH-8): a send, not an attempt of its own (CHOICE-68).',
        ),
    })
    .meta({ id: 'WebhookAttempt' }),
);
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDeliveryDetail = z.lazy(() =>
  WebhookDelivery.unwrap()
    .extend({
      request: z
        .object({
          method: z.literal('POST'),
          url: z
            .string()
            .nullable()
            .describe('Where it goes: the listener forward URL or the app webhook_url; null when the app has none.'),
          headers: z
            .record(z.string(), z.string())
            .describe('The headers it sends, Service-Signature, Service-Event-Id and Service-Event-Type included.'),
          body: z.string().describe('The exact bytes that were signed and sent.'),
        })
        .describe('The exact request each attempt sends.'),
      attempt_log: z.array(WebhookAttempt).describe('Its attempts, first to last.'),
    })
    .meta({ id: 'WebhookDeliveryDetail' }),
);
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

export const WebhookDeliveryList = z.lazy(() => listOf(WebhookDelivery, 'WebhookDeliveryList'));
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

export const WebhookListener = z.lazy(() =>
  z
    .object({
      id: z.string(),
      object: z.literal('webhook_listener'),
      app_id: z.string(),
      forward_url: z.string(),
      events: z.array(WebhookEventType).nullable().describe('The event types it takes; null: all of them.'),
      created_at: DateTime,
    })
    .meta({ id: 'WebhookListener' }),
);
export type WebhookListener = z.infer<typeof WebhookListener>;

export const WebhookListenerList = z.lazy(() => listOf(WebhookListener, 'WebhookListenerList'));

export const WebhookSigningSecretRequest = z.lazy(() =>
  z.strictObject({ app_id: z.string().min(1) }).meta({ id: 'WebhookSigningSecretRequest' }),
);
