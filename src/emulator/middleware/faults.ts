import type { MiddlewareHandler } from 'hono';
import type { AppEnv, EmulatorContext } from '../context.js';

/** API faults (issue 6): answers chosen routes with a chosen status and error code. */
export function faults(ctx: EmulatorContext): MiddlewareHandler<AppEnv> {
  void ctx;
  return async (_c, next) => {
    await next();
  };
}
