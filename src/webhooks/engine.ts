import { setMaxListeners } from 'node:events';
import type { Clock } from '../clock/clock.js';
import type { TimerSource } from '../clock/timer-source.js';
import { CHOICES } from '../contract/choices.js';
import type { Store } from '../store/index.js';
import { storageCondition, withStorageLog } from '../store/storage-condition.js';
import type { DeliveryWithEvent } from '../store/tables/webhooks.js';
import type { SecretBox } from '../util/crypto.js';
import { SILENT_LOGGER, type Logger } from '../util/logger.js';
import { chaosOrder } from './chaos.js';
import { deliveryAttempter, destinationFinder, type Destination, type Destinations } from './dispatch/attempt.js';
import { deliveryEmitter, streamOutboxChanges, type DeliveryEventSink } from './dispatch/events.js';
import { dispatchLoop } from './dispatch/loop.js';
import { attemptRecorder } from './dispatch/record.js';
import { SendSlots } from './dispatch/send-slots.js';
import { WebhookSender, type SendOutcome, type SendRequest } from './sender.js';
import { WebhookTargets } from './target.js';

/** What the engine runs on: nothing of the emulator, only these. */
export interface WebhookEngineDeps {
  store: Store;
  clock: Clock;
  /** Opens the apps' sealed whsec_ signing secrets. */
  box: SecretBox;
  /** Where delivery stream events go. */
  events: DeliveryEventSink;
  /** The User-Agent of every delivery request. */
  userAgent: string;
  /** Sends one request (default: a WebhookSender of the engine's own, over keep-alive http, closed by stop()). */
  send?: (request: SendRequest) => Promise<SendOutcome>;
  /** Sends in flight at once (default DISPATCH_CONCURRENCY); 1 records attempts in due order on every run (`--seed`). */
  concurrency?: number;
  /**
   * CHOICE-31: a frozen clock's latencies are the virtual time a send takes, which is none (the
   * clock does not move on its own; an advance made while a request is on the wire is not the
   * receiver's latency), so two runs store the same bytes whatever the receiver's real speed.
   */
  frozenClock?: boolean;
  /** Where its warnings go (default: nowhere); the engine never prints. */
  logger?: Logger;
}

/** The webhook dispatcher: claims due deliveries on the emulator clock and sends them. */
export interface WebhookEngine extends TimerSource {
  /** Starts real-time dispatching (serve only; tests drive it through the scheduler). */
  start(): void;
  stop(): Promise<void>;
  /** True between start() and stop(): due deliveries are being sent in real time (the health check's `deliveries`). */
  readonly dispatching: boolean;
  /** Wakes the dispatcher when new work was queued. */
  kick(): void;
  /** The per-attempt limit, real ms (CHOICES.webhookAttemptTimeoutMs; tests shorten it). */
  attemptTimeoutMs: number;
}

/** Sends in flight at once. */
const DISPATCH_CONCURRENCY = CHOICES.webhookConcurrency;
/** Deliveries claimed (written in flight) per transaction: a few claimed batches cover the sends in flight. */
const CLAIM_BATCH = 100;

/** An AbortController whose signal takes any number of listeners (one per send in flight) without a warning. */
function unlimitedController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

export function createWebhookEngine(deps: WebhookEngineDeps): WebhookEngine {
  const { store, clock } = deps;
  // The host's storage log when the host gave one (the emulator does): a full disk is said once by either side.
  const logger = withStorageLog(deps.logger ?? SILENT_LOGGER);
  const inFlight = new Set<Promise<void>>();
  const total = deps.concurrency ?? DISPATCH_CONCURRENCY;
  const slots = new SendSlots(total, Math.min(total, CHOICES.webhookConcurrencyPerOrigin), () => loop.kick());
  let started = false;
  // One abort signal for every send of this run of the engine: stop() aborts it, a later start() makes a new one.
  const run = {
    abort: unlimitedController(),
    stopping: false,
    get signal() {
      return this.abort.signal;
    },
    get timeoutMs() {
      return engine.attemptTimeoutMs;
    },
  };
  const emit = deliveryEmitter(deps.events, clock);
  const listening = () => deps.events.wanted();
  const destinationOf = destinationFinder(store, deps.box);
  // The engine's own sender, unless it was given one: its pools are the engine's, closed by stop().
  // One parse of each webhook URL, for the send slots' origin and the sender's request.
  const targets = new WebhookTargets();
  const sender = deps.send ? null : new WebhookSender(targets);
  const sendOne = deps.send ?? sender!.send;
  const attempt = deliveryAttempter({
    store,
    clock,
    userAgent: deps.userAgent,
    send: deps.frozenClock ? untimed(sendOne) : sendOne,
    emit,
    listening,
    record: attemptRecorder(store, clock, emit, listening),
    run,
  });

  /** Makes the attempt holding a global slot and one of its origin's; both are given back when it is recorded. */
  function send(row: DeliveryWithEvent, destination: Destination, origin: string | null, epoch: number): void {
    const sending: Promise<void> = (run.stopping ? Promise.resolve() : attempt(row, destination, epoch))
      .catch((error: unknown) => {
        if (run.stopping) return;
        // A full disk is said once, not once per attempt.
        const condition = storageCondition(error);
        if (condition) logger.storage.note(condition, error);
        else logger.warn(`webhook delivery ${row.id}: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        slots.releaseOrigin(origin);
        slots.releaseGlobal();
        inFlight.delete(sending);
      });
    inFlight.add(sending);
  }

  /** A delivery whose origin is full waits for that origin's turn (holding no global slot), then for a global one. */
  function sendInTurn(row: DeliveryWithEvent, destination: Destination, origin: string, epoch: number): void {
    const waiting: Promise<void> = slots
      .waitForOrigin(origin, row.app_id)
      .then(() => slots.acquireGlobal())
      .then(() => send(row, destination, origin, epoch))
      .finally(() => inFlight.delete(waiting));
    inFlight.add(waiting);
  }

  /**
   * Claims everything due now (but the deliveries of apps with one waiting for its origin) and
   * starts sending it, 32 at once at most; resolves once all claimed rows have started or wait
   * their origin's turn. Returns how many rows it claimed.
   */
  async function dispatchDue(): Promise<number> {
    let claimedInAll = 0;
    for (;;) {
      if (run.stopping) return claimedInAll;
      const waiting = slots.waitingApps();
      if (waiting.length > 0) leftWaiting = true;
      const claimed = store.webhooks.claimDue(clock.now(), CLAIM_BATCH, waiting);
      const epoch = store.webhooks.claimEpoch();
      claimedInAll += claimed.length;
      if (claimed.length === 0) return claimedInAll;
      // Each app's URL, signing secret and chaos setting are read once per claimed batch (never kept across batches).
      const destinations: Destinations = new Map();
      for (const [appId, batch] of groupByApp(claimed)) {
        for (const row of chaosOrder(store, appId, batch)) {
          const destination = destinationOf(row, destinations);
          const origin = targets.originOf(destination.url);
          await slots.acquireGlobal();
          if (run.stopping) {
            slots.releaseGlobal();
            return claimedInAll;
          }
          if (slots.tryOrigin(origin)) send(row, destination, origin, epoch);
          else {
            slots.releaseGlobal();
            sendInTurn(row, destination, origin!, epoch);
          }
        }
      }
      if (claimed.length < CLAIM_BATCH) return claimedInAll;
    }
  }

  /** Whether a pass skipped the apps of deliveries waiting for their origin (runDue then passes again). */
  let leftWaiting = false;

  async function drain(): Promise<void> {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  }

  const loop = dispatchLoop(
    () => dispatchDue().then(() => undefined),
    () => {
      const due = store.webhooks.nextDueAt(slots.waitingApps());
      return due === null ? null : due - clock.now();
    },
    (message) => logger.warn(message),
  );
  streamOutboxChanges(store, emit, () => loop.kick());

  const engine: WebhookEngine = {
    attemptTimeoutMs: CHOICES.webhookAttemptTimeoutMs,
    nextDueAt: () => store.webhooks.nextDueAt(),
    /**
     * For the Scheduler: everything due now is sent and its outcome recorded before this resolves
     * (again while a pass left due deliveries unclaimed because their origin was full).
     */
    async runDue() {
      for (;;) {
        leftWaiting = false;
        const claimed = await dispatchDue();
        await drain();
        // Again only for what a full origin left unclaimed: what arrived meanwhile is not chased.
        const next = store.webhooks.nextDueAt();
        if (claimed === 0 || !leftWaiting || run.stopping || next === null || next > clock.now()) return;
      }
    },
    start() {
      if (started) return;
      started = true;
      run.stopping = false;
      if (run.abort.signal.aborted) run.abort = unlimitedController();
      // What was in flight when an earlier run stopped (or its process died) is due now: sent again, same event id.
      store.webhooks.resetInFlight(clock.now());
      // Listeners are tied to live connections, and none survives a restart.
      store.webhooks.clearListeners();
      loop.start();
    },
    async stop() {
      started = false;
      run.stopping = true;
      const loopStopped = loop.stop();
      run.abort.abort();
      await loopStopped;
      await drain();
      // Nothing is on the wire any more: its connections (kept alive for the next send) close now.
      await sender?.close();
    },
    kick: () => loop.kick(),
    get dispatching() {
      return started;
    },
    advancing: (target) => {
      store.webhooks.holdNewUntil(target);
      if (target === null) loop.kick();
    },
    settle: drain,
  };
  return engine;
}

function groupByApp(rows: DeliveryWithEvent[]): Map<string, DeliveryWithEvent[]> {
  const byApp = new Map<string, DeliveryWithEvent[]>();
  for (const row of rows) {
    const list = byApp.get(row.app_id);
    if (list) list.push(row);
    else byApp.set(row.app_id, [row]);
  }
  return byApp;
}

/** A send under a frozen clock: it takes no virtual time (CHOICE-31). */
function untimed(send: (request: SendRequest) => Promise<SendOutcome>) {
  return async (request: SendRequest): Promise<SendOutcome> => ({ ...(await send(request)), latencyMs: 0 });
}
