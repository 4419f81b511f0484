import type { ControlClient } from '../client/control.js';
import { waitForDeliveries } from '../client/wait.js';
import type { WebhookDeliveryDetail } from '../contract/webhooks.js';
import type { WaitForDeliveriesOptions } from './handle.js';

/** Options that name a goal or a target: the shared wait of `webhook wait` (over the whole app without a target), rather than "everything due now". */
export function isTargetedWait(options: WaitForDeliveriesOptions): boolean {
  if (options.scanId === null) return true;
  return Boolean(options.scanId ?? options.eventId ?? options.hostUserRef ?? options.until ?? options.playRetries ?? options.attempts);
}

/**
 * `webhook wait` in the test kit, through the same client implementation: resolves with the
 * deliveries (each with its attempts) once every event reached `until`, rejects with why it cannot.
 */
export async function waitForTargeted(
  control: ControlClient,
  appId: string,
  options: WaitForDeliveriesOptions,
): Promise<WebhookDeliveryDetail[]> {
  if (options.scanId === null) {
    // Never the whole app's wait: a null scan id is a scan the service never recorded.
    throw new Error(
      'waitForDeliveries: scanId is null: the simulated scan was refused before it had an id, so no delivery will come (see its refusal)',
    );
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const outcome = await waitForDeliveries(control, {
    appId,
    scanIds: options.scanId ? [options.scanId] : [],
    eventIds: options.eventId ? [options.eventId] : [],
    userRefs: options.hostUserRef ? [options.hostUserRef] : [],
    wholeApp: !options.scanId && !options.eventId && !options.hostUserRef,
    until: options.until,
    attempts: options.attempts,
    requireAny: true,
    playRetries: options.playRetries,
    timeoutMs,
    pollMs: 10,
  });
  if (!outcome.ok) {
    const d = outcome.delivery;
    const which = d ? `delivery ${d.id} (${d.status}, ${d.attempts} attempts, last status ${d.last_status ?? 'none'})` : 'no delivery';
    throw new Error(`waitForDeliveries: not ${options.until ?? 'acknowledged'} (${outcome.reason}): ${which}`);
  }
  return Promise.all(outcome.deliveries.map((d) => control.delivery(d.id)));
}
