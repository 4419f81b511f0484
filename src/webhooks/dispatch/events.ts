import type { Clock } from '../../clock/clock.js';
import { CHOICES } from '../../contract/choices.js';
import { toIso } from '../../contract/time.js';
import type { WebhookStreamEvent } from '../../contract/webhook-stream.js';
import type { Store } from '../../store/index.js';
import type { DeliveryWithEvent } from '../../store/tables/webhooks.js';

/** Where the engine announces delivery changes (the emulator passes its bus). */
export interface DeliveryEventSink {
  /** False when nobody listens: the engine then builds no event. */
  wanted(): boolean;
  emit(event: WebhookStreamEvent): void;
}

export type DeliveryEventFields = Partial<WebhookStreamEvent> & Pick<WebhookStreamEvent, 'object' | 'outcome'>;
/** Announces one change of a delivery: the row as it stands, with `fields` on top. */
export type EmitDelivery = (row: DeliveryWithEvent, fields: DeliveryEventFields) => void;

export function deliveryEmitter(sink: DeliveryEventSink, clock: Clock): EmitDelivery {
  return (row, fields) => {
    if (!sink.wanted()) return;
    sink.emit({
      time: toIso(clock.now()),
      delivery_id: row.id,
      event_id: row.event_id,
      event_type: row.event_type,
      app_id: row.app_id,
      scan_id: row.scan_id,
      origin: row.origin,
      attempt: row.attempts,
      max_attempts: CHOICES.webhookMaxAttempts,
      url: null,
      status: null,
      latency_ms: null,
      error: null,
      response_excerpt: null,
      next_attempt_at: row.next_attempt_at === null ? null : toIso(row.next_attempt_at),
      ...fields,
    });
  };
}

/** Puts the outbox's queued and cancelled deliveries on the stream and calls `onQueued` after new work. */
export function streamOutboxChanges(store: Store, emit: EmitDelivery, onQueued: () => void): () => void {
  return store.outbox.subscribe((change) => {
    // Announced just before the emulator stopped: its database is closed, and nothing is left to stream or send.
    if (!store.db.open) return;
    const ids = change.kind === 'queued' ? [change.deliveryId] : change.deliveryIds;
    for (const id of ids) {
      const row = store.webhooks.deliveryById(id);
      if (!row) continue; // rolled back
      if (change.kind === 'queued') emit(row, { object: 'delivery.queued', outcome: 'pending' });
      else emit(row, { object: 'delivery.cancelled', outcome: 'cancelled', error: row.last_error });
    }
    if (change.kind === 'queued') onQueued();
  });
}
