import { WebhookEvent, type WebhookEventType } from '../contract/webhooks.js';
import { toIso } from '../contract/time.js';
import type { Store } from '../store/index.js';
import type { Ids } from '../util/ids.js';

export type ScanEventType = WebhookEventType;

export interface ScanEventInput {
  type: ScanEventType;
  appId: string;
  scanId: string;
  hostUserRef: string;
  /** When the scan finished on the device (ms). */
  occurredAt: number;
  modelVersion: string;
  /** Only for scan.results_available: the result exactly as the member's app received it. */
  result?: unknown;
  /** Its JSON text as uploaded: spliced into the payload in place of the parsed value (WH-3). */
  resultJson?: string;
}

/**
 * Where the app's deliveries (of `type`, when given) go right now: the forward URL of an attached
 * `scanctl webhook listen` that takes that type, else the app's webhook_url, else nowhere (APP-3).
 */
export function effectiveWebhookUrl(store: Store, appId: string, type?: WebhookEventType): string | null {
  const listener = store.webhooks.listenerFor(appId);
  if (listener && (type === undefined || listenerTakes(listener.events, type))) return listener.forward_url;
  return store.apps.get(appId)?.webhook_url ?? null;
}

/** Whether a listener's event filter (null: all) takes this type. */
function listenerTakes(events: readonly WebhookEventType[] | null, type: WebhookEventType): boolean {
  return events === null || events.includes(type);
}

/**
 * WH-1, WH-2, WH-3: the body, built field by field so no measurement reaches scan.completed/failed:
 * only scan.results_available adds `result`. The schema fixes the key order of the signed bytes.
 */
export function buildEvent(id: string, now: number, input: ScanEventInput): WebhookEvent {
  const data = {
    scan_id: input.scanId,
    app_id: input.appId,
    host_user_ref: input.hostUserRef,
    occurred_at: toIso(input.occurredAt),
    model_version: input.modelVersion,
  };
  return WebhookEvent.parse({
    id,
    type: input.type,
    created_at: toIso(now),
    data:
      input.type === 'scan.results_available'
        ? { ...data, result: input.result }
        : { ...data, status: input.type === 'scan.completed' ? 'completed' : 'failed' },
  });
}

/**
 * The signed bytes of an event. A result goes in as the member's app uploaded it (WH-3): the
 * payload is serialized with a placeholder where `result` goes, and the uploaded text replaces it,
 * so large integers, `81.0`, `1e400` and escapes arrive as they were sent.
 */
function serializeEvent(event: WebhookEvent, resultJson: string | undefined): string {
  if (resultJson === undefined || event.type !== 'scan.results_available') return JSON.stringify(event);
  const placeholder = `scanctl-result-${'\u0000'.repeat(2)}${Math.random()}`;
  const text = JSON.stringify({ ...event, data: { ...event.data, result: placeholder } });
  return text.replace(JSON.stringify(placeholder), () => resultJson);
}

/**
 * Writes an event and (when the app has somewhere to deliver) its delivery into the outbox.
 * Call it inside the same transaction as the scan or result that caused it. The payload is
 * serialized once, here: those exact bytes are signed and sent on every attempt and resend.
 * One event per (app, scan, type): a duplicate report returns the first event's id and queues
 * nothing (WH-10, DEV-8). Returns the event id.
 */
export function recordScanEvent(store: Store, ids: Ids, now: number, input: ScanEventInput): string {
  const app = store.apps.get(input.appId);
  if (!app) throw new Error(`recordScanEvent: no app ${input.appId}`);
  if (input.type === 'scan.results_available' && app.results_delivery_enabled !== 1) {
    // DEV-9: without results delivery, no measurement is stored, not even in the outbox.
    throw new Error('recordScanEvent: scan.results_available for an app without results delivery');
  }
  const id = ids.id('evt');
  const payload = serializeEvent(buildEvent(id, now, input), input.resultJson);
  const write = () => {
    const { row, created } = store.webhooks.insertEvent({
      id,
      app_id: input.appId,
      type: input.type,
      scan_id: input.scanId,
      host_user_ref: input.hostUserRef,
      payload,
      created_at: now,
    });
    if (!created) return { eventId: row.id, deliveryId: null };
    // APP-3: with nowhere to deliver, the event is recorded and nothing is queued.
    if (effectiveWebhookUrl(store, input.appId, input.type) === null) return { eventId: row.id, deliveryId: null };
    const deliveryId = ids.id('del');
    store.webhooks.insertDelivery(
      { id: deliveryId, event_id: row.id, app_id: input.appId, host_user_ref: input.hostUserRef, origin: 'event' },
      now,
    );
    return { eventId: row.id, deliveryId };
  };
  const { eventId, deliveryId } = store.db.inTransaction ? write() : store.db.transaction(write)();
  if (deliveryId) store.outbox.announce({ kind: 'queued', deliveryId });
  return eventId;
}

/**
 * DEL-2: drops every queued delivery of the member under the app, so nothing deleted is sent
 * afterwards, not even by a retry already scheduled (an attempt already on the wire is let finish
 * but never brings the delivery back). The member's scan.results_available payloads are scrubbed:
 * they hold results. Returns how many deliveries were cancelled.
 */
export function cancelQueuedDeliveries(store: Store, appId: string, hostUserRef: string, now: number): number {
  const run = () => {
    const cancelled = store.webhooks.cancelForMember(appId, hostUserRef, now);
    store.webhooks.redactResults(appId, hostUserRef, now);
    return cancelled;
  };
  const cancelled = store.db.inTransaction ? run() : store.db.transaction(run)();
  if (cancelled.length > 0) store.outbox.announce({ kind: 'cancelled', deliveryIds: cancelled });
  return cancelled.length;
}

/** WH-3: why a scan.results_available is not sent once its app switched results delivery off. */
export const RESULTS_WITHDRAWN = 'withdrawn: results delivery was switched off for the app before it was sent (WH-3)';

/** Whether the app takes deliveries of this type now: scan.results_available only with results delivery on (WH-3). */
export function appTakes(store: Store, appId: string, type: WebhookEventType): boolean {
  return type !== 'scan.results_available' || store.apps.get(appId)?.results_delivery_enabled === 1;
}

/**
 * WH-3: results delivery was switched off: every scan.results_available of the app not yet sent is
 * cancelled, with RESULTS_WITHDRAWN as its reason (one on the wire is let finish). Switching it on
 * again does not bring them back. Returns how many were withdrawn.
 */
export function withdrawQueuedResults(store: Store, appId: string, now: number): number {
  const run = () => store.webhooks.pendingResultsOf(appId).filter((id) => store.webhooks.withdraw(id, RESULTS_WITHDRAWN, now));
  const withdrawn = store.db.inTransaction ? run() : store.db.transaction(run)();
  if (withdrawn.length > 0) store.outbox.announce({ kind: 'cancelled', deliveryIds: withdrawn });
  return withdrawn.length;
}

export class ResendError extends Error {
  constructor(
    readonly reason: 'no_event' | 'redacted' | 'no_url' | 'results_off',
    message: string,
  ) {
    super(message);
  }
}

/**
 * `scanctl webhook resend`: a new delivery of the SAME event (same id, same bytes), due now.
 * Only ever by request: never because a scan was reported twice (WH-10).
 */
export function resendEvent(store: Store, ids: Ids, now: number, eventId: string): string {
  const event = store.webhooks.eventById(eventId);
  if (!event) throw new ResendError('no_event', `No event ${eventId.slice(0, 100)}.`);
  if (event.redacted_at !== null) {
    throw new ResendError(
      'redacted',
      `Event ${event.id} was deleted with its member's results (DELETE /v1/results); it is never sent again.`,
    );
  }
  if (!appTakes(store, event.app_id, event.type)) {
    throw new ResendError(
      'results_off',
      `${event.app_id} has results delivery switched off: ${event.id} (scan.results_available) is not sent (WH-3).`,
    );
  }
  if (effectiveWebhookUrl(store, event.app_id, event.type) === null) {
    throw new ResendError('no_url', `${event.app_id} has no webhook_url and no listener attached: nowhere to send ${event.id}.`);
  }
  const deliveryId = ids.id('del');
  store.webhooks.insertDelivery(
    { id: deliveryId, event_id: event.id, app_id: event.app_id, host_user_ref: event.host_user_ref, origin: 'resend' },
    now,
  );
  store.outbox.announce({ kind: 'queued', deliveryId });
  return deliveryId;
}
