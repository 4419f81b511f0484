import type { Context, Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from '../../contract/errors.js';
import { storageApiError } from './storage-errors.js';
import { withStorageLog, type StorageLogger } from '../../store/storage-condition.js';
import { isContentfulStatus } from './status.js';
import type { Logger } from '../../util/logger.js';
import type { AppEnv } from './app-env.js';
import { errorCode } from '../../util/caught.js';

/** One onError for the whole emulator: everything that is not a success is the spec's error body. */
function errorResponse(c: Context, apiError: ApiError): Response {
  // The request log reads the code from here rather than parsing the body again.
  c.set('errorCode', apiError.code);
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  const body = apiError.toBody();
  return isContentfulStatus(apiError.status) ? c.json(body, apiError.status) : c.json(body, 500);
}

/** `logger`: the emulator's (its storage log says a condition once); a plain one gets a log of its own for this error. */
export function toApiError(error: unknown, logger: Logger | StorageLogger): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new ApiError('body_too_large', 'The request body is too large.');
    return new ApiError('parameter_invalid', error.message || 'Invalid request.', undefined, { status: error.status });
  }
  const expected = storageApiError(error, withStorageLog(logger)) ?? clientGone(error);
  if (expected) return expected;
  // A bug in the emulator: still the spec's body, and the details go to the host's log.
  logger.error('internal error', error);
  return new ApiError('internal_error', 'The emulator hit an unexpected error; see the serve log.');
}

/**
 * Unknown route: 404 route_not_found. A known path with another method: 405 method_not_allowed
 * with an Allow header naming exactly the methods that path answers (HEAD wherever GET), so a
 * wrong verb is never mistaken for a missing route. CHOICE-15: paths are exact; a trailing slash
 * names another path, which is 404 for every method.
 */
export function installFallbacks(app: Hono<AppEnv>, hostLogger: Logger): void {
  const logger = withStorageLog(hostLogger);
  app.notFound((c) => {
    const path = c.req.path;
    const allowed = new Set<string>();
    for (const route of app.routes) {
      if (route.method === 'ALL' || !routeMatches(route.path, path)) continue;
      allowed.add(route.method);
      // hono answers HEAD with the GET handler (no body): say so.
      if (route.method === 'GET') allowed.add('HEAD');
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
  app.onError((error, c) => errorResponse(c, toApiError(error, logger)));
}

const routeRegexes = new Map<string, RegExp | null>();

/** Does a concrete path match a hono route pattern? Cached per pattern; wildcards never match. */
export function routeMatches(pattern: string, path: string): boolean {
  let regex = routeRegexes.get(pattern);
  if (regex === undefined) {
    regex = pattern.includes('*') ? null : routeRegex(pattern);
    routeRegexes.set(pattern, regex);
  }
  return regex !== null && regex.test(path);
}

/**
 * Hono's path syntax as a regular expression: `:name` is one segment, `:name{re}` a segment
 * matching `re` (e.g. `:action{revoke|suspend}`), a trailing `?` makes the segment optional;
 * everything else is literal. No trailing slash (CHOICE-15).
 */
export function routeRegex(pattern: string): RegExp {
  const escape = (text: string) => text.replace(/[.+*?^${}()|[\]\\]/g, '\\$&');
  const segments = pattern
    .split('/')
    .slice(1)
    .map((segment) => {
      const param = /^:[A-Za-z0-9_]+(?:\{(.+)\})?(\?)?$/.exec(segment);
      if (!param) return `/${escape(segment)}`;
      const [, re, optional] = param;
      const body = `/(?:${re ?? '[^/]+'})`;
      return optional ? `(?:${body})?` : body;
    });
  return new RegExp(`^${segments.join('')}$`);
}

/** The client reset or closed its connection while its body was being read: nothing to log, nobody to answer. */
function clientGone(error: unknown): ApiError | null {
  const code = errorCode(error);
  const gone = code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error instanceof Error && error.name === 'AbortError');
  return gone ? new ApiError('client_closed_request', 'The client closed the connection before the request was read.') : null;
}
