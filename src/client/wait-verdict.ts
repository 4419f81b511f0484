import type { WaitFailure, WaitUntil } from '../contract/wait.js';
import type { WebhookDelivery } from '../contract/webhooks.js';

/** What a wait looks for: the state every event must reach, and how many attempts it must have made by then. */
export interface WaitGoal {
  until: WaitUntil;
  /** Attempts each event must have made (its deliveries' attempts added up): 1 for `attempted`, else 0 unless asked. */
  attempts: number;
  /** No matching delivery at all fails the wait (reason none) rather than passing it. */
  requireAny: boolean;
}

export type Verdict = { ok: true } | { ok: false; reason: Exclude<WaitFailure, 'timeout'>; delivery: WebhookDelivery | null };

/** How an event stands: one of its deliveries acknowledged it, one is still open, it was exhausted, or withdrawn. */
type EventState = 'acknowledged' | 'open' | 'exhausted' | 'cancelled';

interface EventView {
  state: EventState;
  attempts: number;
  deliveries: WebhookDelivery[];
}

function eventsOf(deliveries: readonly WebhookDelivery[]): EventView[] {
  const byEvent = new Map<string, WebhookDelivery[]>();
  for (const d of deliveries) byEvent.set(d.event_id, [...(byEvent.get(d.event_id) ?? []), d]);
  return [...byEvent.values()].map((list) => {
    const has = (status: WebhookDelivery['status']) => list.some((d) => d.status === status);
    const state: EventState = has('succeeded')
      ? 'acknowledged'
      : has('pending') || has('in_flight')
        ? 'open'
        : has('failed')
          ? 'exhausted'
          : 'cancelled';
    return { state, attempts: list.reduce((sum, d) => sum + d.attempts, 0), deliveries: list };
  });
}

/** Whether the event reached the goal (a cancelled event, withdrawn by DELETE /v1/results, counts as acknowledged and settled). */
function reached(event: EventView, goal: WaitGoal): boolean {
  if (event.attempts < goal.attempts) return false;
  switch (goal.until) {
    case 'attempted':
      return event.attempts >= Math.max(1, goal.attempts);
    case 'acknowledged':
      return event.state === 'acknowledged' || event.state === 'cancelled';
    case 'exhausted':
      return event.state === 'exhausted';
    case 'settled':
      return event.state !== 'open';
  }
}

/** The outcome once it is decided, else null (an event is still open and may yet reach the goal). */
export function judge(deliveries: readonly WebhookDelivery[], goal: WaitGoal): Verdict | null {
  if (deliveries.length === 0) return goal.requireAny ? { ok: false, reason: 'none', delivery: null } : { ok: true };
  let open = false;
  for (const event of eventsOf(deliveries)) {
    if (reached(event, goal)) continue;
    if (event.state === 'open') {
      open = true;
      continue;
    }
    // Ended short of the goal: it never gets there.
    const decisive = event.deliveries.find((d) => d.status === 'failed') ?? event.deliveries[0] ?? null;
    const failed = event.state === 'exhausted' && (goal.until === 'attempted' || goal.until === 'acknowledged');
    return { ok: false, reason: failed ? 'failed' : 'unmet', delivery: decisive };
  }
  return open ? null : { ok: true };
}

/**
 * The deliveries whose next attempt the clock must reach for the wait to go on: pending ones of
 * events not yet at the goal. In flight and already due ones need no move: the dispatcher sends them.
 */
export function nextDueOfOpen(deliveries: readonly WebhookDelivery[], goal: WaitGoal): string | null {
  let next: string | null = null;
  for (const event of eventsOf(deliveries)) {
    if (event.state !== 'open' || reached(event, goal)) continue;
    for (const d of event.deliveries)
      if (d.status === 'pending' && d.next_attempt_at !== null && (next === null || d.next_attempt_at < next)) next = d.next_attempt_at;
  }
  return next;
}
