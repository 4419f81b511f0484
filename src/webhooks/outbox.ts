import type { Store } from '../store/index.js';
import type { Ids } from '../util/ids.js';

export type ScanEventType = 'scan.completed' | 'scan.failed' | 'scan.results_available';

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
}

/**
 * Writes an event and (when the app has somewhere to deliver) its delivery into the outbox.
 * Call it inside the same transaction as the scan or result that caused it (issue 4 implements it).
 * Returns the event id.
 */
export function recordScanEvent(store: Store, ids: Ids, now: number, input: ScanEventInput): string {
  void store;
  void now;
  void input;
  return ids.id('evt');
}

/**
 * DEL-2: drops every queued delivery of the member under the app, so nothing deleted is sent
 * afterwards, not even by a retry already scheduled (issue 4 implements it). Returns how many.
 */
export function cancelQueuedDeliveries(store: Store, appId: string, hostUserRef: string, now: number): number {
  void store;
  void appId;
  void hostUserRef;
  void now;
  return 0;
}
