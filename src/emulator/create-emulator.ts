import { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import type { VirtualClock } from '../clock/clock.js';
import { CHOICES } from '../contract/choices.js';
import type { Db } from '../store/db.js';
import { createStore } from '../store/index.js';
import { META } from '../store/meta-keys.js';
import { withStorageLog } from '../store/storage-condition.js';
import { SecretBox } from '../util/crypto.js';
import { randomIds, type Ids } from '../util/ids.js';
import { openClock, seededIds, type ClockSetup } from './clock-and-ids.js';
import { createWebhookEngine } from '../webhooks/engine.js';
import { emulatorUserAgent } from '../webhooks/headers.js';
import { Bus } from './bus.js';
import type { AppEnv, EmulatorConfig, EmulatorContext } from './context.js';
import { RateLimiter } from './domain/rate-limit.js';
import { RequestLogBuffer } from './domain/request-log.js';
import { limitBodies } from './http/body-limit.js';
import { lingerOnUnreadBody } from './http/linger.js';
import { installFallbacks } from './http/fallbacks.js';
import { mountRoutes } from './http/implement.js';
import { hostGuard } from './http/host-guard.js';
import { injectFaults } from './http/inject-faults.js';
import { requestLog } from './http/request-log.js';
import { OpenStreams } from './http/sse.js';
import { ROUTES } from './routes/index.js';
import { Scheduler } from './scheduler.js';
import { SILENT_LOGGER, type Logger } from '../util/logger.js';

export interface EmulatorDeps {
  db: Db;
  clock?: VirtualClock;
  /** Without a clock: how this run's clock starts (`--clock-start`, `--frozen-clock`). */
  clockSetup?: ClockSetup;
  ids?: Ids;
  /** Without ids: every id and token drawn from this seed (`--seed`). */
  seed?: number | null;
  box?: SecretBox;
  config?: Partial<EmulatorConfig>;
  /** Where warnings and internal errors go (default: nowhere). */
  logger?: Logger;
  /** Other faces mounted beside the API, before the fallbacks (the web console: a higher layer, handed in). */
  mounts?: ReadonlyArray<Mount>;
}

/** Mounts a face of the emulator (its own routes) on its app. */
export type Mount = (app: Hono<AppEnv>, ctx: EmulatorContext) => void;

export interface Emulator extends EmulatorContext {
  app: Hono<AppEnv>;
}

/**
 * The emulator as a hono app over injected dependencies. Tests call `app.request()` with a
 * frozen virtual clock and an in-memory database; only `serve` opens a socket.
 */
export function createEmulator(deps: EmulatorDeps): Emulator {
  const store = createStore(deps.db);
  const clock = deps.clock ?? openClock(store, deps.clockSetup);
  const seed = deps.seed ?? null;
  const config: EmulatorConfig = {
    rateLimitPerSecond: CHOICES.defaultRateLimitPerSecond,
    maxBodyBytes: CHOICES.maxBodyBytes,
    fixturesPath: null,
    defaultAppId: null,
    version: '0.0.0',
    validateResponses: false,
    seed,
    inlineFixtures: null,
    port: null,
    allowedHosts: [],
    ...deps.config,
  };
  const bus = new Bus();
  const box = deps.box ?? SecretBox.random();
  // One storage log per emulator: the HTTP side and the dispatcher say a storage condition once between them.
  const logger = withStorageLog(deps.logger ?? SILENT_LOGGER);
  const webhooks = createWebhookEngine({
    store,
    clock,
    box,
    events: { wanted: () => bus.listenerCount('delivery') > 0, emit: (event) => bus.emit('delivery', event) },
    userAgent: emulatorUserAgent(config.version),
    // A seeded run sends one delivery at a time, in due order, so attempts are stored in the same order every run.
    concurrency: seed === null ? undefined : 1,
    frozenClock: clock.frozenAtMs !== null,
    logger,
  });
  const ctx: EmulatorContext = {
    store,
    clock,
    ids: deps.ids ?? (seed === null ? randomIds : seededIds(store, seed)),
    box,
    bus,
    config,
    scheduler: new Scheduler(clock, (offset) => store.meta.set(META.clockOffset, String(offset))),
    rateLimiter: new RateLimiter(config),
    requestLog: new RequestLogBuffer(bus),
    readiness: { fixturesLoaded: false },
    streams: new OpenStreams(),
    logger,
    webhooks,
  };
  ctx.scheduler.register(ctx.webhooks);

  // hono's default router compiles one regular expression of every route on the first request (~9
  // ms for ~70 routes, paid again by each emulator a test process starts); the trie needs no compiling.
  const app = new Hono<AppEnv>({ router: new TrieRouter() });
  app.use('*', requestLog(ctx));
  // Before everything else, so that no route (now or added later) answers a rebound or cross-site request.
  app.use('*', hostGuard(config));
  // A route that declares its own limit (a state file) gets it instead of the default.
  const ownLimits = new Map(ROUTES.filter((r) => r.op.request?.maxBytes).map((r) => [r.op.path, r.op.request!.maxBytes!]));
  app.use('*', lingerOnUnreadBody());
  app.use('*', limitBodies(config.maxBodyBytes, ownLimits));
  app.use('*', injectFaults(ctx));
  mountRoutes(app, ctx, ROUTES);
  for (const mount of deps.mounts ?? []) mount(app, ctx);
  installFallbacks(app, ctx.logger);
  return { ...ctx, app };
}
