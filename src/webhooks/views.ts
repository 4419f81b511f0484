import { CHOICES } from '../contract/choices.js';
import { toIso } from '../contract/time.js';
import type { WebhookDeliveryDetail, WebhookDelivery, WebhookListener } from '../contract/webhooks.js';
import type { Store } from '../store/index.js';
import type { DeliveryWithEvent, ListenerRow } from '../store/tables/webhooks.js';
import type { SecretBox } from '../util/crypto.js';
import { signedDeliveryHeaders } from './headers.js';
import { effectiveWebhookUrl } from './outbox.js';
import { signingSecretOf } from './signing-secret.js';

export function deliveryView(row: DeliveryWithEvent): WebhookDelivery {
  return {
    id: row.id,
    object: 'webhook_delivery',
    event_id: row.event_id,
    event_type: row.event_type,
    app_id: row.app_id,
    scan_id: row.scan_id,
    host_user_ref: row.host_user_ref,
    origin: row.origin,
    status: row.status,
    attempts: row.attempts,
    max_attempts: CHOICES.webhookMaxAttempts,
    next_attempt_at: row.next_attempt_at === null ? null : toIso(row.next_attempt_at),
    last_status: row.last_status,
    last_error: row.last_error,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** One delivery with its attempts and the exact request: the headers of its last attempt (or the ones it will carry) and the signed bytes. */
export function deliveryDetail(store: Store, box: SecretBox, userAgent: string, row: DeliveryWithEvent): WebhookDeliveryDetail {
  const attempts = store.webhooks.attemptsOf(row.id);
  const last = attempts.at(-1);
  let headers: Record<string, string> = last?.request_headers ?? {};
  if (!last && row.payload) headers = signedDeliveryHeaders(row, signingSecretOf(store, box, row.app_id), userAgent);
  return {
    ...deliveryView(row),
    request: { method: 'POST', url: last?.url || effectiveWebhookUrl(store, row.app_id, row.event_type), headers, body: row.payload },
    attempt_log: attempts.map((a) => ({
      number: a.number,
      url: a.url,
      started_at: toIso(a.started_at),
      status: a.status,
      latency_ms: a.latency_ms,
      error: a.error,
      response_excerpt: a.response_excerpt,
      duplicate_send: a.duplicate_send === 1,
    })),
  };
}

/** How many sends webhook chaos --duplicate added to a delivery's attempts (WH-8): sends of its attempts, never attempts. */
export function duplicateSendCount(store: Store, deliveryId: string): number {
  return store.webhooks.duplicateSendsOf(deliveryId);
}

export function listenerView(row: ListenerRow): WebhookListener {
  return {
    id: row.id,
    object: 'webhook_listener',
    app_id: row.app_id,
    forward_url: row.forward_url,
    events: row.events,
    created_at: toIso(row.created_at),
  };
}
