import type { MiddlewareHandler } from 'hono';
import { CONTROL_PREFIX } from '../../contract/control.js';
import type { AppEnv } from './app-env.js';
import type { StateContext } from '../domain/state-context.js';
import { authenticateSecretKey } from '../domain/keys.js';
import { faultError, pickFault } from '../domain/faults.js';

/**
 * API faults: answers chosen routes with a chosen status and error code, for the next N
 * calls or with a seeded probability. The answer is the spec's error body (ERR-1) with the type
 * of its status (CHOICE-4). The control plane (/_scanctl) is never faulted, so a fault can always
 * be cleared.
 */
export function injectFaults(ctx: StateContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return next();
    const fault = pickFault(ctx.store, c.req.method, path);
    if (!fault) return next();
    // Name the caller in the request log as the route itself would have (display form only).
    const auth = authenticateSecretKey(ctx.store, ctx.clock.now(), c.req.header('authorization'));
    if (auth.ok) {
      c.set('logKey', auth.key.display);
      c.set('logEnv', auth.env);
      c.set('logAppId', auth.app.id);
    }
    throw faultError(fault);
  };
}
