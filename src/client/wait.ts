import type { DeliveryView } from '../contract/webhooks.js';
import type { ControlClient } from './control.js';

export type WaitOutcome =
  /** Every event of those scans was acknowledged (or cancelled by DELETE /v1/results). */
  | { ok: true; deliveries: DeliveryView[] }
  /** One event exhausted its attempts: the failed delivery, with its last status and error. */
  | { ok: false; reason: 'failed'; delivery: DeliveryView; deliveries: DeliveryView[] }
  | { ok: false; reason: 'timeout'; deliveries: DeliveryView[] };

export interface WaitOptions {
  scanIds?: string[];
  eventIds?: string[];
  /** Real time. */
  timeoutMs: number;
  appId?: string;
  pollMs?: number;
}

/**
 * Waits (real time, polling the control plane) until every delivery of those scans or events is
 * acknowledged, or one event's delivery is exhausted, or the timeout passes. An event counts as
 * acknowledged when any of its deliveries (a resend included) succeeded; scans with no delivery
 * at all (no webhook_url, APP-3) are done at once.
 */
export async function waitForDeliveries(control: ControlClient, options: WaitOptions): Promise<WaitOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  const pollMs = options.pollMs ?? 100;
  for (;;) {
    const deliveries = await collect(control, options);
    const verdict = judge(deliveries);
    if (verdict) return verdict;
    const left = deadline - Date.now();
    if (left <= 0) return { ok: false, reason: 'timeout', deliveries };
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
  }
}

async function collect(control: ControlClient, options: WaitOptions): Promise<DeliveryView[]> {
  const lists = await Promise.all([
    ...(options.scanIds ?? []).map((scan_id) => control.deliveries({ scan_id, app_id: options.appId, limit: 1000 })),
    ...(options.eventIds ?? []).map((event_id) => control.deliveries({ event_id, app_id: options.appId, limit: 1000 })),
  ]);
  const byId = new Map<string, DeliveryView>();
  for (const list of lists) for (const d of list.data) byId.set(d.id, d);
  return [...byId.values()];
}

/** The outcome once it is decided, else null (still pending somewhere). */
export function judge(deliveries: DeliveryView[]): WaitOutcome | null {
  const byEvent = new Map<string, DeliveryView[]>();
  for (const d of deliveries) byEvent.set(d.event_id, [...(byEvent.get(d.event_id) ?? []), d]);
  let open = false;
  for (const list of byEvent.values()) {
    if (list.some((d) => d.status === 'succeeded')) continue;
    if (list.some((d) => d.status === 'pending' || d.status === 'in_flight')) {
      open = true;
      continue;
    }
    const failed = list.find((d) => d.status === 'failed');
    if (failed) return { ok: false, reason: 'failed', delivery: failed, deliveries };
  }
  return open ? null : { ok: true, deliveries };
}
