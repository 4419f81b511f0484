import { CONTROL_PREFIX, WebhookSecret } from '../control.js';
import {
  WebhookDeliveryDetail,
  WebhookDeliveryListQuery,
  WebhookDeliveryList,
  WebhookDelivery,
  WebhookListenerList,
  ResultsAvailableEvent,
  ScanCompletedEvent,
  ScanFailedEvent,
  WebhookSigningSecretRequest,
} from '../webhooks.js';
import { WebhookStreamData, WebhookStreamQuery } from '../webhook-stream.js';
import { byOperationId, type WebhookEvent } from '../operation.js';
import { controlOperation as control } from './define.js';

/**
 * Webhooks. WEBHOOK_EVENTS: one entry per event type with its payload schema from
 * src/contract/webhooks.ts; they appear under the document's `webhooks`. WEBHOOK_OPERATIONS: the
 * control plane routes for deliveries, resend, listeners and the live stream.
 */
const P = `${CONTROL_PREFIX}/webhooks`;
const HEADERS =
  'Headers: Service-Signature (hex HMAC-SHA256 of the raw body keyed with the whsec_ secret), Service-Event-Id (equals id; the same on every retry and resend), Service-Event-Type (equals type). Any 2xx acknowledges; anything else is retried (30 s doubling, at most 6 h apart, 17 attempts); redirects are not followed.';
const DATA = {
  scan_id: 'scn_4fQ2mZ8pL1xR7tYc',
  app_id: 'app_demo',
  occurred_at: '2026-11-22T10:01:30.000Z',
  host_user_ref: 'member_123',
  model_version: '2026.10.1',
};

export const WEBHOOK_EVENTS: readonly WebhookEvent[] = [
  {
    name: 'scan.completed',
    summary: 'A scan completed: the measurement-free billing record',
    description: HEADERS,
    schema: ScanCompletedEvent,
    rules: ['WH-1', 'WH-2', 'WH-4', 'WH-5', 'WH-6', 'WH-7', 'WH-9', 'WH-11'],
    example: {
      id: 'evt_s7iizFsEHglwMlw8W9ZZ',
      type: 'scan.completed',
      created_at: '2026-11-22T10:01:30.100Z',
      data: { ...DATA, status: 'completed' },
    },
  },
  {
    name: 'scan.failed',
    summary: 'A scan failed: same shape, status failed; never billed',
    description: HEADERS,
    schema: ScanFailedEvent,
    rules: ['WH-1', 'WH-2', 'WH-11'],
    example: {
      id: 'evt_Kd83nQpW0zLm2xVb7cRt',
      type: 'scan.failed',
      created_at: '2026-11-22T10:01:30.100Z',
      data: { ...DATA, status: 'failed' },
    },
  },
  {
    name: 'scan.results_available',
    summary: 'A stored result: only with results delivery enabled and a webhook_url, once per stored result',
    description: `${HEADERS} Join it to scan.completed on scan_id.`,
    schema: ResultsAvailableEvent,
    rules: ['WH-3', 'WH-11', 'WH-12', 'DEV-8'],
    example: {
      id: 'evt_Pq1mZ9xR4tYc8nW2vLb0',
      type: 'scan.results_available',
      created_at: '2026-11-22T10:01:31.000Z',
      data: {
        scan_id: DATA.scan_id,
        app_id: DATA.app_id,
        host_user_ref: DATA.host_user_ref,
        occurred_at: DATA.occurred_at,
        model_version: DATA.model_version,
        result: { modelVersion: '2026.10.1', measurements: { bodyFatPercent: 18.2, bmi: 23.1, girths: { waistCm: 81.5, hipCm: 97.2 } } },
      },
    },
  },
];

export const webhookOperations = byOperationId(
  control({
    method: 'get',
    path: `${P}/deliveries`,
    operationId: 'listWebhookDeliveries',
    summary: 'Webhook deliveries, newest first, filtered by app, status, scan, event or member',
    description:
      'One row per delivery (an event sent to one URL): status, attempts, next attempt, last answer. Filters combine; newest first, up to limit.',
    query: WebhookDeliveryListQuery,
    responses: { 200: { description: 'The deliveries.', schema: WebhookDeliveryList } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'get',
    path: `${P}/deliveries/{delivery_id}`,
    operationId: 'getWebhookDelivery',
    summary: 'One delivery: its attempts, and the exact headers and body it sends',
    description:
      'A delivery with every attempt (status, latency, error, an excerpt of the answer) and the exact request: the headers of its last attempt, or those it will carry, and the signed body.',
    pathParams: { delivery_id: 'The delivery, e.g. del_rv5F7Pc4fJ73xM1ANmF7.' },
    responses: { 200: { description: 'The delivery.', schema: WebhookDeliveryDetail } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'post',
    path: `${P}/events/{event_id}/resend`,
    operationId: 'resendWebhookEvent',
    summary: 'Send an event again: a new delivery with the same event id and bytes, due now',
    description:
      "A new delivery of an existing event to the app's current webhook_url (or listener): same event id, same bytes, so a receiver that dedupes on Service-Event-Id (WH-5) sees a duplicate. A deleted member's event is 409 event_deleted (DEL-2). Takes no body (CHOICE-53).",
    rules: ['WH-5', 'WH-10', 'DEL-2'],
    pathParams: { event_id: 'The event, e.g. evt_s7iizFsEHglwMlw8W9ZZ.' },
    responses: { 201: { description: 'The new delivery.', schema: WebhookDelivery } },
    errors: ['resource_missing', 'event_deleted', 'webhook_url_missing', 'results_delivery_disabled'],
  }),
  control({
    method: 'get',
    path: `${P}/listeners`,
    operationId: 'listWebhookListeners',
    summary: 'Attached `scanctl webhook listen --forward` overrides',
    description:
      'The `scanctl webhook listen --forward` connections that currently take the deliveries of an app, with the event types each takes. They end with their stream (CHOICE-30).',
    responses: { 200: { description: 'The listeners.', schema: WebhookListenerList } },
  }),
  control({
    method: 'post',
    path: `${P}/signing-secret`,
    operationId: 'revealWebhookSigningSecret',
    summary: "The app's whsec_ signing secret, issued (once) if it has none",
    description:
      "The app's whsec_ signing secret in plain text, for a local tool that verifies signatures (WH-4). An app with none gets one issued now, once (APP-2).",
    rules: ['APP-2'],
    request: { schema: WebhookSigningSecretRequest, example: { app_id: 'app_demo' } },
    responses: { 200: { description: 'The secret.', schema: WebhookSecret } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'get',
    path: `${P}/stream`,
    operationId: 'streamWebhookDeliveries',
    summary: "Live stream (Server-Sent Events) of an app's deliveries; with forward, a listener for the life of the connection",
    description:
      "Events: `ready` (WebhookStreamReady: app_id, listener, effective_url, events, emulator_time), then `delivery` (one WebhookStreamEvent per queued delivery, attempt started, attempt finished, cancellation; only the types in `events` when given). While a stream with `forward` is open, that URL is the app's effective webhook URL for the types it takes, and it is the app's only listener: a later stream with `forward` for the same app replaces it (its `ready` lists the listeners it replaced in `replaced`), and the replaced stream gets `replaced` (WebhookListenerReplaced) and ends. A state reset or import keeps the listener while its app remains with the same signing secret; otherwise the stream gets `ended` (WebhookListenerEnded) and ends. A stream the emulator ends itself gets `close` (StreamClosed) last: serve is stopping, or the subscriber fell too far behind (CHOICE-37). Every data object carries `object`.",
    query: WebhookStreamQuery,
    responses: {
      200: {
        description: 'text/event-stream; each data line is a WebhookStreamData (ready, delivery, replaced, ended, close).',
        schema: WebhookStreamData,
        contentType: 'text/event-stream',
      },
    },
    errors: ['resource_missing'],
  }),
);
