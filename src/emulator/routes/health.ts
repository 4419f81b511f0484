import type { Health } from '../../contract/control.js';
import { OPS } from '../../contract/operations/index.js';
import type { EmulatorContext } from '../context.js';
import { implement } from '../http/implement.js';

/** CHOICE-26: what "ready" means, from flags the emulator keeps anyway: no table is read. */
function health(ctx: EmulatorContext): Health {
  const checks = {
    database: ctx.store.db.open,
    fixtures: ctx.readiness.fixturesLoaded,
    deliveries: ctx.webhooks.dispatching,
  };
  return { object: 'health', ready: checks.database && checks.fixtures && checks.deliveries, checks, version: ctx.config.version };
}

/** GET /_scanctl/health: 200 when ready, 503 with the same body while starting or stopping. */
export const healthRoutes = [
  implement(OPS.health)(({ ctx }) => {
    const body = health(ctx);
    return body.ready ? { status: 200, body } : { status: 503, body };
  }),
] as const;
