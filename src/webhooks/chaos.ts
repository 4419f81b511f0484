import type { EmulatorContext } from '../emulator/context.js';

/**
 * Delivery chaos (issue 6), consulted by the dispatcher (issue 4) before each attempt.
 * - deliver: send normally (after delayMs of virtual time, when set; duplicate: send the same bytes twice)
 * - drop: do not send; the attempt is recorded as failed with error "dropped by chaos" and retried as usual
 * - fail: do not send; the attempt is recorded as failed with `failStatus` as if the receiver answered it
 */
export interface ChaosVerdict {
  action: 'deliver' | 'drop' | 'fail';
  failStatus?: number;
  /** Extra virtual delay before this attempt; the dispatcher reschedules the attempt that far ahead. */
  delayMs: number;
  duplicate: boolean;
}

export const NO_CHAOS: ChaosVerdict = { action: 'deliver', delayMs: 0, duplicate: false };

/** The verdict for attempt `attemptNumber` (1-based) of a delivery of `appId`. */
export function chaosVerdict(ctx: EmulatorContext, appId: string, deliveryId: string, attemptNumber: number): ChaosVerdict {
  void ctx;
  void appId;
  void deliveryId;
  void attemptNumber;
  return NO_CHAOS;
}

/** The order in which a batch of due deliveries of one app is sent (reorder chaos permutes it). */
export function chaosOrder<T>(ctx: EmulatorContext, appId: string, batch: T[]): T[] {
  void ctx;
  void appId;
  return batch;
}
