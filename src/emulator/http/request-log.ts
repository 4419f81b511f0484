import type { MiddlewareHandler } from 'hono';
import { performance } from 'node:perf_hooks';
import { ErrorBody } from '../../contract/errors.js';
import { parseJson } from '../../contract/parse-json.js';
import { OPS } from '../../contract/operations/index.js';
import { toIso } from '../../contract/time.js';
import type { VirtualClock } from '../../clock/clock.js';
import type { Bus } from '../bus.js';
import type { AppEnv } from './app-env.js';

const HEALTH_PATH = OPS.health.path;

/**
 * Announces every request on the bus (method, path, status, key display form, latency, error
 * code). Never the key itself. The log buffer of `logs tail` always listens, so this runs on every
 * request: it reuses the error code errorResponse set rather than parsing the body.
 */
export function requestLog(ctx: { bus: Bus; clock: VirtualClock }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A container's health check polls every few seconds: its lines would bury the requests being debugged.
    if (c.req.path === HEALTH_PATH) return next();
    const started = performance.now();
    await next();
    if (ctx.bus.listenerCount('request') === 0) return;
    // errorResponse names the code of every error it answers; only an error answered some other way is parsed.
    let errorCode = c.get('errorCode');
    if (errorCode === undefined && c.res.status >= 400 && c.res.headers.get('content-type')?.includes('json')) {
      const parsed = parseJson(ErrorBody, await c.res.clone().text());
      errorCode = parsed.ok ? parsed.value.error.code : undefined;
    }
    ctx.bus.emit('request', {
      time: toIso(ctx.clock.now()),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      latency_ms: Math.round((performance.now() - started) * 100) / 100,
      key: c.get('logKey'),
      env: c.get('logEnv'),
      app_id: c.get('logAppId'),
      error_code: errorCode,
    });
  };
}
