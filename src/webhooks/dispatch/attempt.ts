import type { Clock } from '../../clock/clock.js';
import type { Store } from '../../store/index.js';
import type { ChaosRow } from '../../store/tables/chaos.js';
import type { DeliveryWithEvent } from '../../store/tables/webhooks.js';
import type { SecretBox } from '../../util/crypto.js';
import { signedDeliveryHeaders } from '../headers.js';
import { appTakes, effectiveWebhookUrl, RESULTS_WITHDRAWN } from '../outbox.js';
import type { SendOutcome, SendRequest } from '../sender.js';
import { signingSecretOf } from '../signing-secret.js';
import { holdForChaos, verdictForAttempt } from './chaos-hold.js';
import type { EmitDelivery } from './events.js';
import type { FinishedAttempt } from './record.js';

/** Where an app's deliveries go, the key they are signed with and its chaos, read once per claimed batch. */
export interface Destination {
  url: string | null;
  secret: string | null;
  chaos: ChaosRow | undefined;
  /** WH-3: false for a scan.results_available of an app with results delivery switched off. */
  taken: boolean;
}
export type Destinations = Map<string, Destination>;

export interface AttemptDeps {
  store: Store;
  clock: Clock;
  userAgent: string;
  send: (request: SendRequest) => Promise<SendOutcome>;
  emit: EmitDelivery;
  /** Whether anyone takes stream events now (the fields of one are not even built otherwise). */
  listening: () => boolean;
  record: (item: FinishedAttempt) => Promise<void>;
  /** The current run of the engine: its abort signal, whether it is stopping, the per-attempt limit. */
  run: { readonly signal: AbortSignal; readonly stopping: boolean; readonly timeoutMs: number };
}

const unsent = (error: string): SendOutcome => ({ status: null, latencyMs: 0, error, excerpt: null });

/** Where a claimed delivery goes, read once per app and event type in a claimed batch. */
export function destinationFinder(store: Store, box: SecretBox): (row: DeliveryWithEvent, batch: Destinations) => Destination {
  // Per app and event type: a `webhook listen --events` listener takes only some types.
  return (row, batch) => {
    const key = `${row.app_id} ${row.event_type}`;
    let destination = batch.get(key);
    if (!destination) {
      destination = {
        url: effectiveWebhookUrl(store, row.app_id, row.event_type),
        secret: signingSecretOf(store, box, row.app_id),
        chaos: store.chaos.get(row.app_id),
        taken: appTakes(store, row.app_id, row.event_type),
      };
      batch.set(key, destination);
    }
    return destination;
  };
}

/** Makes the next attempt of a claimed delivery: chaos, the send, then the record. */
export function deliveryAttempter(deps: AttemptDeps): (row: DeliveryWithEvent, destination: Destination, epoch: number) => Promise<void> {
  const { store, clock, run } = deps;

  return async (row, destination, epoch) => {
    // Claimed from a state since replaced (an import, reset or restore): that delivery is not this state's.
    if (store.webhooks.claimEpoch() !== epoch) return;
    const number = row.attempts + 1;
    const { url, secret, chaos } = destination;
    // WH-3 at the moment of sending: results delivery is off now, so this one never leaves.
    if (!destination.taken) {
      if (store.webhooks.withdraw(row.id, RESULTS_WITHDRAWN, clock.now()) && deps.listening()) {
        deps.emit(row, { object: 'delivery.cancelled', outcome: 'cancelled', error: RESULTS_WITHDRAWN, next_attempt_at: null });
      }
      return;
    }
    const verdict = verdictForAttempt(store, row, number, chaos);
    if (verdict.delayMs > 0) return holdForChaos(store, clock, row, number, verdict);
    // DEL-2: a delivery cancelled since it was claimed is never sent.
    if (!store.webhooks.isClaimed(row.id)) return;

    // The bytes sent are the bytes signed: encoded once.
    const body = Buffer.from(row.payload, 'utf8');
    const headers = secret
      ? signedDeliveryHeaders({ event_id: row.event_id, event_type: row.event_type, payload: body }, secret, deps.userAgent)
      : {};
    const startedAt = clock.now();
    if (deps.listening()) deps.emit(row, { object: 'delivery.attempt_started', outcome: 'in_flight', attempt: number, url });

    let outcome: SendOutcome;
    let duplicate: SendOutcome | undefined;
    if (!url) outcome = unsent('nowhere to send: the app has no webhook_url and no listener attached');
    else if (!secret) outcome = unsent('the app has no whsec_ signing secret');
    else if (verdict.action === 'drop') outcome = unsent('dropped by chaos');
    else if (verdict.action === 'fail')
      outcome = { status: verdict.failStatus ?? 500, latencyMs: 0, error: 'failed by chaos', excerpt: null };
    else {
      const { signal, timeoutMs } = run;
      outcome = await deps.send({ url, headers, body, timeoutMs, signal });
      if (verdict.duplicate && !signal.aborted) duplicate = await deps.send({ url, headers, body, timeoutMs, signal });
      // The process is shutting down: leave the row in flight; the next start sends it again.
      if (signal.aborted) return;
    }
    if (run.stopping) return;
    await deps.record({ row, number, url, startedAt, headers, outcome, epoch, ...(duplicate ? { duplicate } : {}) });
  };
}
