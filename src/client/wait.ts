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
  /** Told what the deliveries are at each poll (for a progress line). */
  onProgress?: (deliveries: DeliveryView[]) => void;
  /** Real time: tests pass one that moves only when slept on. */
  timer?: WaitTimer;
}

export interface WaitTimer {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realTimer: WaitTimer = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/**
 * Waits (real time, polling the control plane) until every delivery of those scans or events is
 * acknowledged, or one event's delivery is exhausted, or the timeout passes. An event counts as
 * acknowledged when any of its deliveries (a resend included) succeeded; scans with no delivery
 * at all (no webhook_url, APP-3) are done at once.
 */
export async function waitForDeliveries(control: ControlClient, options: WaitOptions): Promise<WaitOutcome> {
  const timer = options.timer ?? realTimer;
  const deadline = timer.now() + options.timeoutMs;
  const pollMs = options.pollMs ?? 100;
  for (;;) {
    const deliveries = await collect(control, options);
    const verdict = judge(deliveries);
    if (verdict) return verdict;
    options.onProgress?.(deliveries);
    const left = deadline - timer.now();
    if (left <= 0) return { ok: false, reason: 'timeout', deliveries };
    await timer.sleep(Math.min(pollMs, left));
  }
}

/**
 * One line on how a wait stands, e.g. "waiting for 3 deliveries (1 delivered, 2 retrying, next
 * attempt 12:00:30 on the emulator clock)".
 */
export function waitProgress(deliveries: DeliveryView[]): string {
  const count = (test: (d: DeliveryView) => boolean) => deliveries.filter(test).length;
  const parts: Array<[number, string]> = [
    [count((d) => d.status === 'succeeded'), 'delivered'],
    [count((d) => d.status === 'pending' && d.attempts === 0), 'queued'],
    [count((d) => d.status === 'in_flight'), 'sending'],
    [count((d) => d.status === 'pending' && d.attempts > 0), 'retrying'],
    [count((d) => d.status === 'failed'), 'exhausted'],
    [count((d) => d.status === 'cancelled'), 'cancelled'],
  ];
  const retries = deliveries
    .filter((d) => d.status === 'pending' && d.attempts > 0 && d.next_attempt_at !== null)
    .map((d) => d.next_attempt_at!);
  const next = retries.sort()[0];
  const said = parts.filter(([n], i) => n > 0 || i === 0).map(([n, what]) => `${n} ${what}`);
  if (next) said.push(`next attempt ${next.slice(11, 19)} on the emulator clock`);
  const n = deliveries.length;
  return `waiting for ${n} deliver${n === 1 ? 'y' : 'ies'} (${said.join(', ')})`;
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

/** An `onProgress` that writes the progress line each time it changes (never the same line twice in a row). */
export function progressLines(write: (line: string) => void): (deliveries: DeliveryView[]) => void {
  let last = '';
  return (deliveries) => {
    const line = waitProgress(deliveries);
    if (line !== last) write(line);
    last = line;
  };
}
