import { setMaxListeners } from 'node:events';
import type { Clock } from '../clock/clock.js';
import type { TimerSource } from '../clock/timer-source.js';
import { CHOICES, WEBHOOK_RETRY_GAPS_MS } from '../contract/choices.js';
import { toIso } from '../contract/time.js';
import type { DeliveryStreamEvent } from '../contract/webhooks.js';
import type { Store } from '../store/index.js';
import type { DeliveryWithEvent } from '../store/tables/webhooks.js';
import type { SecretBox } from '../util/crypto.js';
import { chaosOrder, chaosVerdict, type ChaosVerdict } from './chaos.js';
import { signedDeliveryHeaders } from './headers.js';
import { effectiveWebhookUrl, onOutboxChange } from './outbox.js';
import { sendOnce, type SendOutcome, type SendRequest } from './sender.js';
import { signingSecretOf } from './signing-secret.js';

/** Where the engine announces delivery changes (the emulator passes its bus). */
export interface DeliveryEventSink {
  /** False when nobody listens: the engine then builds no event. */
  wanted(): boolean;
  emit(event: DeliveryStreamEvent): void;
}

/** What the engine runs on: nothing of the emulator, only these. */
export interface WebhookEngineDeps {
  store: Store;
  clock: Clock;
  /** Opens the apps' sealed whsec_ signing secrets. */
  box: SecretBox;
  events: DeliveryEventSink;
  /** The User-Agent of every delivery request. */
  userAgent: string;
  /** Sends one request (default: sendOnce over keep-alive http). */
  send?: (request: SendRequest) => Promise<SendOutcome>;
  /** Sends in flight at once (default DISPATCH_CONCURRENCY); 1 records attempts in due order on every run (`--seed`). */
  concurrency?: number;
  /** Record latencies as the clock measures them, not real time: a frozen clock's runs then store the same bytes. */
  latencyFromClock?: boolean;
}

/** The webhook dispatcher: claims due deliveries on the emulator clock and sends them. */
export interface WebhookEngine extends TimerSource {
  /** Starts real-time dispatching (serve only; tests drive it through the scheduler). */
  start(): void;
  stop(): Promise<void>;
  /** Wakes the dispatcher when new work was queued. */
  kick(): void;
  /** The per-attempt limit, real ms (CHOICES.webhookAttemptTimeoutMs; tests shorten it). */
  attemptTimeoutMs: number;
}

/** Sends in flight at once. */
export const DISPATCH_CONCURRENCY = 32;
/** The real-time loop looks at the outbox at least this often (the virtual clock can jump). */
const MAX_IDLE_MS = 1_000;
const CLAIM_BATCH = 256;

/** An AbortController whose signal takes any number of listeners (one per send in flight) without a warning. */
function unlimitedController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

export function createWebhookEngine(deps: WebhookEngineDeps): WebhookEngine {
  const { store, clock, box, events, userAgent } = deps;
  const send = deps.send ?? sendOnce;
  const inFlight = new Set<Promise<void>>();
  // One abort signal for every send of this run of the engine (stop() aborts it; a later start() makes a new one):
  // an AbortController per attempt showed in profiles.
  let abort = unlimitedController();
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let loop: Promise<void> | null = null;

  // A bounded number of sends at once; waiters get the slot handed over in order.
  const concurrency = deps.concurrency ?? DISPATCH_CONCURRENCY;
  let active = 0;
  const waiters: Array<() => void> = [];
  const acquire = () => (active < concurrency ? (active++, Promise.resolve()) : new Promise<void>((r) => waiters.push(r)));
  const release = () => {
    const next = waiters.shift();
    if (next) next();
    else active--;
  };

  const emit = (row: DeliveryWithEvent, fields: Partial<DeliveryStreamEvent> & Pick<DeliveryStreamEvent, 'kind' | 'outcome'>) => {
    if (!events.wanted()) return;
    const event: DeliveryStreamEvent = {
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
      next_attempt_at: row.next_attempt_at === null ? null : toIso(row.next_attempt_at),
      ...fields,
    };
    events.emit(event);
  };

  onOutboxChange(store, (change) => {
    const ids = change.kind === 'queued' ? [change.deliveryId] : change.deliveryIds;
    for (const id of ids) {
      const row = store.webhooks.deliveryById(id);
      if (!row) continue; // rolled back
      if (change.kind === 'queued') emit(row, { kind: 'queued', outcome: 'pending' });
      else emit(row, { kind: 'cancelled', outcome: 'cancelled', error: row.last_error });
    }
    if (change.kind === 'queued') kick();
  });

  /** Where an app's deliveries go and the key they are signed with, read once per claimed batch. */
  interface Destination {
    url: string | null;
    secret: string | null;
  }
  const destinationOf = (appId: string, batch: Map<string, Destination>): Destination => {
    let destination = batch.get(appId);
    if (!destination) batch.set(appId, (destination = { url: effectiveWebhookUrl(store, appId), secret: signingSecretOf(store, box, appId) }));
    return destination;
  };

  async function attempt(row: DeliveryWithEvent, destinations: Map<string, Destination>): Promise<void> {
    const number = row.attempts + 1;
    let verdict: ChaosVerdict | null = null;
    if (row.chaos_hold) {
      const held = JSON.parse(row.chaos_hold) as { attempt: number; verdict: ChaosVerdict };
      if (held.attempt === number) verdict = { ...held.verdict, delayMs: 0 };
    }
    verdict ??= chaosVerdict(store, row.app_id, row.id, number);
    if (verdict.delayMs > 0) {
      // Chaos delay: the same attempt, later on the virtual clock, with the verdict kept.
      store.webhooks.hold(row.id, clock.now() + verdict.delayMs, JSON.stringify({ attempt: number, verdict }), clock.now());
      return;
    }
    // DEL-2: a delivery cancelled since it was claimed is never sent.
    if (store.webhooks.status(row.id) !== 'in_flight') return;

    const { url, secret } = destinationOf(row.app_id, destinations);
    const headers = secret ? signedDeliveryHeaders(row, secret, userAgent) : {};
    const startedAt = clock.now();
    emit(row, { kind: 'attempt_started', outcome: 'in_flight', attempt: number, url });

    let outcome: SendOutcome;
    if (!url) outcome = { status: null, latencyMs: 0, error: 'nowhere to send: the app has no webhook_url and no listener attached', excerpt: null };
    else if (!secret) outcome = { status: null, latencyMs: 0, error: 'the app has no whsec_ signing secret', excerpt: null };
    else if (verdict.action === 'drop') outcome = { status: null, latencyMs: 0, error: 'dropped by chaos', excerpt: null };
    else if (verdict.action === 'fail') {
      outcome = { status: verdict.failStatus ?? 500, latencyMs: 0, error: 'failed by chaos', excerpt: null };
    } else {
      const { signal } = abort;
      const body = Buffer.from(row.payload, 'utf8');
      outcome = await send({ url, headers, body, timeoutMs: engine.attemptTimeoutMs, signal });
      if (verdict.duplicate && !signal.aborted) {
        await send({ url, headers, body, timeoutMs: engine.attemptTimeoutMs, signal });
      }
      // The process is shutting down: leave the row in flight; the next start sends it again.
      if (signal.aborted) return;
    }
    if (stopping) return;
    await record({ row, number, url, startedAt, headers, outcome });
  }

  /** An attempt that came back, to be recorded. */
  interface Finished {
    row: DeliveryWithEvent;
    number: number;
    url: string | null;
    startedAt: number;
    headers: Record<string, string>;
    outcome: SendOutcome;
  }

  /**
   * Records the outcome in the store's group commit (the attempts that finish in the same turn
   * share a transaction) and emits the stream event once it is committed, so the dispatcher's
   * slot, `runDue` and the stream event all wait until the outcome is stored.
   */
  async function record(item: Finished): Promise<void> {
    const { now, stillOurs } = await store.groupCommit.run(() => {
      const now = clock.now();
      return { now, stillOurs: writeRecord(item, now) };
    });
    emitFinished(item, now, stillOurs);
  }

  /** The outcome of one attempt as the delivery state machine counts it (CHOICE-9). */
  function verdictOf(item: Finished, now: number) {
    const { number, outcome } = item;
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const error = ok ? null : (outcome.error ?? `HTTP ${outcome.status}`);
    const exhausted = number >= CHOICES.webhookMaxAttempts;
    // CHOICE-9: the gap before retry `number` follows failed attempt `number`.
    const next = ok || exhausted ? null : now + WEBHOOK_RETRY_GAPS_MS[number - 1]!;
    const status = ok ? 'succeeded' : exhausted ? 'failed' : 'pending';
    return { ok, error, exhausted, next, status } as const;
  }

  function writeRecord(item: Finished, now: number): boolean {
    const { row, number, url, startedAt, headers, outcome } = item;
    const { error, next, status } = verdictOf(item, now);
    store.webhooks.insertAttempt({
      delivery_id: row.id,
      event_id: row.event_id,
      number,
      url: url ?? '',
      started_at: startedAt,
      status: outcome.status,
      // A frozen clock measures every duration it records, so that two runs store the same bytes.
      latency_ms: deps.latencyFromClock ? now - startedAt : outcome.latencyMs,
      error,
      response_excerpt: outcome.excerpt,
      request_headers: JSON.stringify(headers),
    });
    // Never resurrects a delivery cancelled while this attempt was on the wire.
    return store.webhooks.finish(
      { id: row.id, status, attempts: number, next_attempt_at: next, last_status: outcome.status, last_error: error },
      now,
    );
  }

  function emitFinished(item: Finished, now: number, stillOurs: boolean): void {
    const { row, number, url, outcome } = item;
    const { ok, error, exhausted, next } = verdictOf(item, now);
    emit(row, {
      kind: 'attempt_finished',
      attempt: number,
      url,
      status: outcome.status,
      latency_ms: outcome.latencyMs,
      error,
      outcome: !stillOurs ? 'cancelled' : ok ? 'succeeded' : exhausted ? 'failed' : 'retrying',
      next_attempt_at: stillOurs && next !== null ? toIso(next) : null,
    });
  }

  /** Claims everything due now and starts sending it (bounded); resolves once all claimed rows have started. */
  async function dispatchDue(): Promise<void> {
    for (;;) {
      if (stopping) return;
      const claimed = store.webhooks.claimDue(clock.now(), CLAIM_BATCH);
      if (claimed.length === 0) return;
      // Each app's URL and signing secret are read once per claimed batch (never kept across batches).
      const destinations = new Map<string, Destination>();
      const byApp = new Map<string, DeliveryWithEvent[]>();
      for (const row of claimed) {
        const list = byApp.get(row.app_id) ?? [];
        list.push(row);
        byApp.set(row.app_id, list);
      }
      for (const [appId, batch] of byApp) {
        for (const row of chaosOrder(store, appId, batch)) {
          await acquire();
          if (stopping) {
            release();
            return;
          }
          const run: Promise<void> = attempt(row, destinations)
            .catch((error: unknown) => {
              if (!stopping) process.emitWarning(`webhook delivery ${row.id}: ${(error as Error).message}`);
            })
            .finally(() => {
              release();
              inFlight.delete(run);
            });
          inFlight.add(run);
        }
      }
      if (claimed.length < CLAIM_BATCH) return;
    }
  }

  async function drain(): Promise<void> {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  }

  function schedule(delayMs?: number): void {
    if (!started) return;
    if (timer) clearTimeout(timer);
    let delay = delayMs;
    if (delay === undefined) {
      const due = store.webhooks.nextDueAt();
      delay = due === null ? MAX_IDLE_MS : Math.max(0, Math.min(MAX_IDLE_MS, due - clock.now()));
    }
    timer = setTimeout(tick, delay);
    timer.unref?.();
  }

  function tick(): void {
    timer = null;
    if (!started || loop) return;
    loop = dispatchDue()
      .catch((error: unknown) => process.emitWarning(`webhook dispatcher: ${(error as Error).message}`))
      .finally(() => {
        loop = null;
        schedule();
      });
  }

  function kick(): void {
    if (started && !loop) schedule(0);
  }

  const engine: WebhookEngine = {
    attemptTimeoutMs: CHOICES.webhookAttemptTimeoutMs,
    nextDueAt: () => store.webhooks.nextDueAt(),
    /** For the Scheduler: everything due now is sent and its outcome recorded before this resolves. */
    async runDue() {
      await dispatchDue();
      await drain();
    },
    start() {
      if (started) return;
      started = true;
      stopping = false;
      if (abort.signal.aborted) abort = unlimitedController();
      // Crash safety: what was in flight when the process died is sent again, due now, same event id.
      store.webhooks.resetInFlight(clock.now());
      // Listeners are tied to live connections, and none survives a restart.
      store.webhooks.clearListeners();
      schedule(0);
    },
    async stop() {
      started = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      abort.abort();
      await loop;
      await drain();
    },
    kick,
  };
  return engine;
}
