import type { Context, Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from '../contract/errors.js';

/** One onError for the whole emulator: everything that is not a success is the spec's error body. */
export function errorResponse(c: Context, error: unknown): Response {
  const apiError = toApiError(error);
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  return c.json(apiError.toBody(), apiError.status as 400);
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new ApiError('body_too_large', 'The request body is too large.');
    return new ApiError('parameter_invalid', error.message || 'Invalid request.', undefined, { status: error.status });
  }
  // A bug in the emulator: still the spec's body, and the details stay in the server log.
  console.error('scanctl: internal error', error);
  return new ApiError('internal_error', 'The emulator hit an unexpected error; see the serve log.');
}

/**
 * Unknown route: 404 route_not_found. A known path with another method: 405 method_not_allowed
 * with an Allow header, so a wrong verb is never mistaken for a missing route.
 */
export function installFallbacks(app: Hono<any>): void {
  app.notFound((c) => {
    const path = c.req.path;
    const allowed = new Set<string>();
    for (const route of app.routes) {
      if (route.method === 'ALL' || !routeMatches(route.path, path)) continue;
      allowed.add(route.method);
    }
    if (allowed.size > 0 && !allowed.has(c.req.method)) {
      const allow = [...allowed].sort().join(', ');
      return errorResponse(
        c,
        new ApiError('method_not_allowed', `${c.req.method} is not allowed on ${path}; use ${allow}.`, undefined, {
          headers: { Allow: allow },
        }),
      );
    }
    return errorResponse(c, new ApiError('route_not_found', `No route ${c.req.method} ${path.slice(0, 200)}.`));
  });
  app.onError((error, c) => errorResponse(c, error));
}

function routeMatches(pattern: string, path: string): boolean {
  if (pattern.includes('*')) return false;
  const regex = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);
  return regex.test(path);
}
