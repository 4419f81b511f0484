import type { Clock } from '../../clock/clock.js';
import { CHOICES, WEBHOOK_RETRY_GAPS_MS } from '../../contract/choices.js';
import { toIso } from '../../contract/time.js';
import type { Store } from '../../store/index.js';
import type { DeliveryWithEvent } from '../../store/tables/webhooks.js';
import type { SendOutcome } from '../sender.js';
import type { EmitDelivery } from './events.js';

/** An attempt that came back (or was decided without sending), to be recorded. */
export interface FinishedAttempt {
  row: DeliveryWithEvent;
  number: number;
  url: string | null;
  startedAt: number;
  headers: Record<string, string>;
  outcome: SendOutcome;
  /** What the second send answered when chaos --duplicate sent the same bytes again (WH-8): recorded, never counted. */
  duplicate?: SendOutcome;
  /** The claims' epoch when the delivery was claimed: a state replaced since then does not get this attempt. */
  epoch: number;
}

/** The outcome of one attempt as the delivery state machine counts it (CHOICE-9). */
function countAttempt(item: FinishedAttempt, now: number) {
  const { number, outcome } = item;
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const error = ok ? null : (outcome.error ?? `HTTP ${outcome.status}`);
  const exhausted = number >= CHOICES.webhookMaxAttempts;
  // CHOICE-9: the gap before retry `number` follows failed attempt `number`.
  const next = ok || exhausted ? null : now + retryGap(number);
  const status = ok ? 'succeeded' : exhausted ? 'failed' : 'pending';
  return { ok, error, exhausted, next, status } as const;
}

function retryGap(number: number): number {
  return WEBHOOK_RETRY_GAPS_MS[Math.min(number, WEBHOOK_RETRY_GAPS_MS.length) - 1]!;
}

type Counted = ReturnType<typeof countAttempt>;

/** Writes the attempt and the delivery's new state; false when the delivery was cancelled meanwhile. */
function writeAttempt(store: Store, item: FinishedAttempt, now: number, counted: Counted): boolean {
  const { row, number, url, startedAt, headers, outcome, duplicate } = item;
  const { error, next, status } = counted;
  const send = (sent: SendOutcome, sendError: string | null, duplicateSend: boolean) =>
    store.webhooks.insertAttempt({
      delivery_id: row.id,
      event_id: row.event_id,
      number,
      url: url ?? '',
      started_at: startedAt,
      status: sent.status,
      latency_ms: sent.latencyMs,
      error: sendError,
      response_excerpt: sent.excerpt,
      request_headers: headers,
      duplicate_send: duplicateSend ? 1 : 0,
    });
  send(outcome, error, false);
  // CHOICE-68: the second send of the same bytes is shown with its own answer; the first decides the delivery.
  if (duplicate) send(duplicate, countAttempt({ ...item, outcome: duplicate }, now).error, true);
  // Never resurrects a delivery cancelled while this attempt was on the wire.
  return store.webhooks.finish(
    { id: row.id, status, attempts: number, next_attempt_at: next, last_status: outcome.status, last_error: error },
    now,
  );
}

/**
 * Records an attempt in the store's group commit (the attempts that finish in the same turn share
 * a transaction) and emits the stream event once it is committed, so the dispatcher's slot,
 * `runDue` and the stream event all wait until the outcome is stored. When the record fails, the
 * delivery goes back to pending, due after the gap a failed attempt would get, instead of staying
 * in flight until the next start; the attempt is not counted and will be made again.
 */
export function attemptRecorder(
  store: Store,
  clock: Clock,
  emit: EmitDelivery,
  listening: () => boolean,
): (item: FinishedAttempt) => Promise<void> {
  return async (item) => {
    const replaced = () => store.webhooks.claimEpoch() !== item.epoch;
    let recorded: { stillOurs: boolean; counted: Counted } | null;
    try {
      // Checked when the group commits: a restore in between leaves the restored state as it was.
      recorded = await store.groupCommit.run(() => {
        if (replaced()) return null;
        const now = clock.now();
        const counted = countAttempt(item, now);
        return { stillOurs: writeAttempt(store, item, now, counted), counted };
      });
    } catch (error) {
      if (replaced()) throw error;
      const now = clock.now();
      store.webhooks.retryLater(item.row.id, now + retryGap(item.number), now);
      throw error;
    }
    if (!recorded || !listening()) return;
    const { stillOurs, counted } = recorded;
    const { ok, error, exhausted, next } = counted;
    const duplicate = item.duplicate;
    emit(item.row, {
      object: 'delivery.attempt_finished',
      attempt: item.number,
      url: item.url,
      status: item.outcome.status,
      latency_ms: item.outcome.latencyMs,
      error,
      response_excerpt: item.outcome.excerpt,
      outcome: !stillOurs ? 'cancelled' : ok ? 'succeeded' : exhausted ? 'failed' : 'retrying',
      next_attempt_at: stillOurs && next !== null ? toIso(next) : null,
      ...(duplicate
        ? {
            duplicate_send: {
              status: duplicate.status,
              latency_ms: duplicate.latencyMs,
              error: countAttempt({ ...item, outcome: duplicate }, clock.now()).error,
              response_excerpt: duplicate.excerpt,
            },
          }
        : {}),
    });
  };
}
