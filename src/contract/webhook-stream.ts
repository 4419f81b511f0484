import { z } from 'zod';
import { DateTime } from './time.js';
import { StreamClosed } from './stream-closed.js';
import { WEBHOOK_EVENT_TYPES, WebhookEventType, WebhookListener } from './webhooks.js';

// The live delivery stream (`webhook listen`, the console): its query and the objects it streams.

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

/** What a delivery stream event reports; `object` is the one discriminator of every streamed object. */
const DELIVERY_STREAM_OBJECTS = ['delivery.queued', 'delivery.attempt_started', 'delivery.attempt_finished', 'delivery.cancelled'] as const;

/**
 * One item of the live delivery stream (the bus's 'delivery' event, and the SSE `delivery` event):
 * an attempt started or finished, a delivery queued, resent or cancelled.
 */
export const WebhookStreamEvent = z.lazy(() =>
  z
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
      duplicate_send: z
        .object({
          status: z.number().int().nullable(),
          latency_ms: z.number().int().nullable(),
          error: z.string().nullable(),
          response_excerpt: z.string().nullable(),
        })
        .optional()
        .describe(
          "On a finished attempt that webhook chaos --duplicate sent twice (same bytes, WH-8): the second send's answer. A send of this attempt, not an attempt: the outcome is the first send's (CHOICE-68).",
        ),
    })
    .meta({ id: 'WebhookStreamEvent' }),
);
export type WebhookStreamEvent = z.infer<typeof WebhookStreamEvent>;

/** The stream's first event: where the app's deliveries go now, and the emulator's clock. */
export const WebhookStreamReady = z.lazy(() =>
  z
    .object({
      object: z.literal('webhook_stream'),
      app_id: z.string(),
      listener: WebhookListener.nullable(),
      replaced: z.array(WebhookListener).describe('The listeners of the app this one took over (each told, and ended).'),
      effective_url: z.string().nullable(),
      events: z.array(WebhookEventType).nullable(),
      emulator_time: DateTime,
    })
    .meta({ id: 'WebhookStreamReady' }),
);
export type WebhookStreamReady = z.infer<typeof WebhookStreamReady>;

/** Sent to a forwarding stream when another `webhook listen --forward` took its app over; the stream then ends. */
export const WebhookListenerReplaced = z.lazy(() =>
  z
    .object({
      object: z.literal('listener.replaced'),
      time: DateTime.describe("On the emulator's clock."),
      listener_id: z.string(),
      app_id: z.string(),
      replaced_by: WebhookListener,
    })
    .meta({ id: 'WebhookListenerReplaced' }),
);
export type WebhookListenerReplaced = z.infer<typeof WebhookListenerReplaced>;

/**
 * CHOICE-30: sent to a forwarding stream whose listener a `state reset`, `import` or `restore` could not
 * keep (its app is gone, or the app's signing secret is no longer the one the listener printed); the stream then ends.
 */
export const WebhookListenerEnded = z.lazy(() =>
  z
    .object({
      object: z.literal('listener.ended'),
      time: DateTime.describe("On the emulator's clock."),
      listener_id: z.string(),
      app_id: z.string(),
      reason: z.enum(['app_removed', 'secret_changed']),
      cause: z.enum(['state_reset', 'state_import', 'state_restore']),
    })
    .meta({ id: 'WebhookListenerEnded' }),
);
export type WebhookListenerEnded = z.infer<typeof WebhookListenerEnded>;

/** The data of every event on the live stream, told apart by `object`. */
export const WebhookStreamData = z.lazy(() =>
  z
    .union([WebhookStreamReady, WebhookStreamEvent, WebhookListenerReplaced, WebhookListenerEnded, StreamClosed])
    .meta({ id: 'WebhookStreamData', description: 'One data line of the live stream: `object` says which kind it is.' }),
);
