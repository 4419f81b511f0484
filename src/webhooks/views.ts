import type { EmulatorContext } from '../emulator/context.js';
import { CHOICES } from '../contract/choices.js';
import { toIso } from '../contract/time.js';
import { WEBHOOK_HEADERS, type DeliveryDetail, type DeliveryView, type ListenerView } from '../contract/webhooks.js';
import type { DeliveryWithEvent, ListenerRow } from '../store/tables/webhooks.js';
import { webhookSecretHint } from '../emulator/domain/apps.js';
import { effectiveWebhookUrl } from './outbox.js';
import { signPayload } from './signature.js';

export function deliveryView(row: DeliveryWithEvent): DeliveryView {
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
export function deliveryDetail(ctx: EmulatorContext, row: DeliveryWithEvent): DeliveryDetail {
  const attempts = ctx.store.webhooks.attemptsOf(row.id);
  const last = attempts.at(-1);
  let headers: Record<string, string> = last?.request_headers ? (JSON.parse(last.request_headers) as Record<string, string>) : {};
  if (!last && row.payload) {
    const sealed = ctx.store.apps.get(row.app_id)?.webhook_secret_sealed;
    headers = {
      'content-type': 'application/json',
      ...(sealed ? { [WEBHOOK_HEADERS.signature]: signPayload(ctx.box.open(sealed), row.payload) } : {}),
      [WEBHOOK_HEADERS.eventId]: row.event_id,
      [WEBHOOK_HEADERS.eventType]: row.event_type,
    };
  }
  return {
    ...deliveryView(row),
    request: { method: 'POST', url: last?.url || effectiveWebhookUrl(ctx.store, row.app_id, row.event_type), headers, body: row.payload },
    attempt_log: attempts.map((a) => ({
      number: a.number,
      url: a.url,
      started_at: toIso(a.started_at),
      status: a.status,
      latency_ms: a.latency_ms,
      error: a.error,
      response_excerpt: a.response_excerpt,
    })),
  };
}

export function listenerView(row: ListenerRow): ListenerView {
  return {
    id: row.id,
    object: 'webhook_listener',
    app_id: row.app_id,
    forward_url: row.forward_url,
    events: row.events === null ? null : (JSON.parse(row.events) as ListenerView['events']),
    created_at: toIso(row.created_at),
  };
}

/**
 * The app's whsec_ signing secret for `scanctl webhook listen`, issuing one the way setting a
 * webhook_url does (APP-2) when the app has none yet; an existing secret is never replaced.
 */
export function ensureSigningSecret(ctx: EmulatorContext, appId: string): string {
  const app = ctx.store.apps.get(appId)!;
  if (app.webhook_secret_sealed) return ctx.box.open(app.webhook_secret_sealed);
  const secret = ctx.ids.secret('whsec_');
  ctx.store.apps.updateSettings({
    id: app.id,
    webhook_url: app.webhook_url,
    webhook_secret_sealed: ctx.box.seal(secret),
    webhook_secret_hint: webhookSecretHint(secret),
    results_delivery_enabled: app.results_delivery_enabled,
    now: ctx.clock.now(),
  });
  return secret;
}
