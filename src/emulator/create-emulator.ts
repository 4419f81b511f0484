import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { VirtualClock } from '../clock/clock.js';
import { CHOICES } from '../contract/choices.js';
import { ApiError } from '../contract/errors.js';
import type { Db } from '../store/db.js';
import { createStore } from '../store/index.js';
import { SecretBox } from '../util/crypto.js';
import { randomIds, type Ids } from '../util/ids.js';
import { Bus } from './bus.js';
import type { AppEnv, EmulatorConfig, EmulatorContext } from './context.js';
import { RateLimiter } from './domain/rate-limit.js';
import { installFallbacks } from './errors.js';
import { requestLog } from './request-log.js';
import { appRoutes } from './routes/apps.js';
import { controlRoutes } from './routes/control.js';
import { resultRoutes } from './routes/results.js';
import { sessionRoutes } from './routes/sessions.js';
import { Scheduler } from './scheduler.js';
import { deleteMemberData } from './domain/member-data.js';
import { faults } from './middleware/faults.js';
import { deviceRoutes } from './routes/device.js';
import { controlDeviceRoutes } from './routes/control-device.js';
import { controlWebhookRoutes } from './routes/control-webhooks.js';
import { controlExtraRoutes, STATE_IMPORT_PATH } from './routes/control-extras.js';
import { openapiRoutes } from './routes/openapi.js';
import { createWebhookEngine } from '../webhooks/engine.js';

export interface EmulatorDeps {
  db: Db;
  clock?: VirtualClock;
  ids?: Ids;
  box?: SecretBox;
  config?: Partial<EmulatorConfig>;
}

export interface Emulator extends EmulatorContext {
  app: Hono<AppEnv>;
}

export const CLOCK_OFFSET_META = 'clock_offset_ms';

/**
 * The emulator as a hono app over injected dependencies. Tests call `app.request()` with a
 * frozen virtual clock and an in-memory database; only `serve` opens a socket.
 */
export function createEmulator(deps: EmulatorDeps): Emulator {
  const store = createStore(deps.db);
  const clock = deps.clock ?? new VirtualClock({ offsetMs: Number(store.meta.get(CLOCK_OFFSET_META) ?? 0) });
  const config: EmulatorConfig = {
    rateLimitPerSecond: CHOICES.defaultRateLimitPerSecond,
    maxBodyBytes: CHOICES.maxBodyBytes,
    fixturesPath: null,
    defaultAppId: null,
    version: '0.0.0',
    ...deps.config,
  };
  const ctx = {
    store,
    clock,
    ids: deps.ids ?? randomIds,
    box: deps.box ?? SecretBox.random(),
    bus: new Bus(),
    config,
    scheduler: new Scheduler(clock, (offset) => store.meta.set(CLOCK_OFFSET_META, String(offset))),
    rateLimiter: new RateLimiter(config.rateLimitPerSecond),
  } as EmulatorContext;
  ctx.webhooks = createWebhookEngine(ctx);
  ctx.scheduler.register(ctx.webhooks);

  const app = new Hono<AppEnv>();
  app.use('*', requestLog(ctx));
  const limitBody = bodyLimit({
    maxSize: config.maxBodyBytes,
    onError: () => {
      throw new ApiError('body_too_large', `The request body is larger than ${config.maxBodyBytes} bytes.`);
    },
  });
  // A state file (scanctl state import) has its own, larger limit on its route.
  app.use('*', (c, next) => (c.req.path === STATE_IMPORT_PATH ? next() : limitBody(c, next)));
  app.use('*', faults(ctx));
  app.route('/', sessionRoutes(ctx));
  app.route('/', resultRoutes(ctx, (appId, ref) => deleteMemberData(ctx, appId, ref)));
  app.route('/', appRoutes(ctx));
  app.route('/', deviceRoutes(ctx));
  app.route('/', controlRoutes(ctx));
  app.route('/', controlDeviceRoutes(ctx));
  app.route('/', controlWebhookRoutes(ctx));
  app.route('/', controlExtraRoutes(ctx));
  app.route('/', openapiRoutes(ctx));
  installFallbacks(app);
  return { ...ctx, app };
}
