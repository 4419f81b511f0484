import type { WaitClockMove, WebhookDeliveryAttemptLog, WaitFailure, WaitResult, WaitUntil } from '../contract/wait.js';
import type { WebhookDelivery } from '../contract/webhooks.js';
import type { ControlClient } from './control.js';
import { ApiCallError, ContractError } from './http.js';
import { judge, nextDueOfOpen, type WaitGoal } from './wait-verdict.js';

export type WaitOutcome = {
  deliveries: WebhookDelivery[];
  /** The clock moves `playRetries` made, in order. */
  clockMoves: WaitClockMove[];
} & (
  | { ok: true }
  /** The delivery that decided it: exhausted, or ended where the goal cannot be met (null for none and timeout). */
  | { ok: false; reason: WaitFailure; delivery: WebhookDelivery | null }
);

export interface WaitOptions {
  scanIds?: string[];
  eventIds?: string[];
  /** Members (host_user_ref): every delivery of their events. */
  userRefs?: string[];
  /** Every delivery of the app (its newest 1000), when no scan, event or member is named. */
  wholeApp?: boolean;
  /** Default acknowledged. */
  until?: WaitUntil;
  /** Attempts each event must have made (default 1 for attempted, else 0). */
  attempts?: number;
  /** No matching delivery fails the wait at once (reason none); otherwise it has nothing to wait for and passes. */
  requireAny?: boolean;
  /**
   * CHOICE-41: when an attempt failed and the next one is due later on the emulator's clock, move
   * the clock to it (never further), playing it. Refused (NotAnEmulatorError) unless the base URL is an emulator.
   */
  playRetries?: boolean;
  /** Real time. */
  timeoutMs: number;
  appId?: string;
  pollMs?: number;
  /** Told what the deliveries are at each poll (for a progress line). */
  onProgress?: (deliveries: WebhookDelivery[]) => void;
  /** Real time: tests pass one that moves only when slept on. */
  timer?: WaitTimer;
}

export interface WaitTimer {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The base URL answers, but not as a scanctl emulator: there is no virtual clock to move. */
export class NotAnEmulatorError extends Error {
  constructor(readonly baseUrl: string) {
    super(`${baseUrl} is not a scanctl emulator: --play-retries moves the emulator's virtual clock, which only the emulator has`);
    this.name = 'NotAnEmulatorError';
  }
}

/** Real time, what every command uses outside tests. */
export const realTimer: WaitTimer = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/** Resolves when the base URL is a scanctl emulator (its /_scanctl/info answers as one); else NotAnEmulatorError. */
export async function requireEmulator(control: ControlClient): Promise<void> {
  try {
    await control.info();
  } catch (error) {
    if (error instanceof ApiCallError || error instanceof ContractError) throw new NotAnEmulatorError(control.baseUrl);
    throw error;
  }
}

/**
 * Waits (real time, polling the control plane) until every event of those scans, events or
 * members reaches the goal (`until`, default acknowledged), or one ends where it cannot, or the
 * timeout passes. With `playRetries`, a retry due later on the emulator's clock is played by
 * moving the clock to it, once the failed attempt before it is recorded: nothing moves the clock
 * before the deliveries exist.
 */
export async function waitForDeliveries(control: ControlClient, options: WaitOptions): Promise<WaitOutcome> {
  const timer = options.timer ?? realTimer;
  const deadline = timer.now() + options.timeoutMs;
  const pollMs = options.pollMs ?? 100;
  const until = options.until ?? 'acknowledged';
  const goal: WaitGoal = {
    until,
    attempts: options.attempts ?? (until === 'attempted' ? 1 : 0),
    requireAny: Boolean(options.requireAny),
  };
  if (options.playRetries) await requireEmulator(control);
  const clockMoves: WaitClockMove[] = [];
  for (;;) {
    const deliveries = await collect(control, options);
    const verdict = judge(deliveries, goal);
    if (verdict) return { ...verdict, deliveries, clockMoves };
    options.onProgress?.(deliveries);
    if (options.playRetries) {
      const move = await playNextRetry(control, deliveries, goal);
      if (move) {
        clockMoves.push(move);
        continue;
      }
    }
    const left = deadline - timer.now();
    if (left <= 0)
      return { ok: false, reason: 'timeout', delivery: deliveries.find((d) => d.status !== 'succeeded') ?? null, deliveries, clockMoves };
    await timer.sleep(Math.min(pollMs, left));
  }
}

/**
 * Moves the clock to the earliest next attempt of an open event when it is still ahead, and
 * returns the move; null when there is none to make (what is due now, the dispatcher sends).
 */
async function playNextRetry(control: ControlClient, deliveries: WebhookDelivery[], goal: WaitGoal): Promise<WaitClockMove | null> {
  const next = nextDueOfOpen(deliveries, goal);
  if (next === null) return null;
  const { now } = await control.clock();
  if (Date.parse(next) <= Date.parse(now)) return null;
  try {
    const moved = await control.setClock(next);
    return { from: now, to: next, played: moved.played ?? 0 };
  } catch (error) {
    // The running clock passed it meanwhile: it is due now, and the dispatcher sends it.
    if (error instanceof ApiCallError && error.error?.code === 'clock_backwards') return null;
    throw error;
  }
}

async function collect(control: ControlClient, options: WaitOptions): Promise<WebhookDelivery[]> {
  const app_id = options.appId;
  const lists = await Promise.all([
    ...(options.scanIds ?? []).map((scan_id) => control.deliveries({ scan_id, app_id, limit: 1000 })),
    ...(options.eventIds ?? []).map((event_id) => control.deliveries({ event_id, app_id, limit: 1000 })),
    ...(options.userRefs ?? []).map((host_user_ref) => control.deliveries({ host_user_ref, app_id, limit: 1000 })),
    ...(options.wholeApp ? [control.deliveries({ app_id, limit: 1000 })] : []),
  ]);
  const byId = new Map<string, WebhookDelivery>();
  for (const list of lists) for (const d of list.data) byId.set(d.id, d);
  return [...byId.values()];
}

/** Each delivery with its attempts (one detail call each, a few at a time), in the order given. */
export async function attemptLogs(control: ControlClient, deliveries: readonly WebhookDelivery[]): Promise<WebhookDeliveryAttemptLog[]> {
  const logs: WebhookDeliveryAttemptLog[] = [];
  for (let i = 0; i < deliveries.length; i += 8) {
    const details = await Promise.all(deliveries.slice(i, i + 8).map((d) => control.delivery(d.id)));
    for (const d of details)
      logs.push({
        delivery_id: d.id,
        event_id: d.event_id,
        event_type: d.event_type,
        scan_id: d.scan_id,
        status: d.status,
        attempts: d.attempt_log,
      });
  }
  return logs;
}

/** How a wait ended, as `--json` prints it (`scan simulate --wait`, `webhook wait`, the simulate route). */
export function waitResultOf(outcome: WaitOutcome, until: WaitUntil, log: WebhookDeliveryAttemptLog[] | null): WaitResult {
  return {
    object: 'wait',
    ok: outcome.ok,
    until,
    reason: outcome.ok ? null : outcome.reason,
    acknowledged: outcome.deliveries.filter((d) => d.status === 'succeeded').length,
    deliveries: outcome.deliveries.length,
    delivery: outcome.ok ? null : outcome.delivery,
    clock_moves: outcome.clockMoves,
    log,
  };
}
