import type { MiddlewareHandler } from 'hono';
import { CONTROL_PREFIX } from '../../contract/control.js';
import { ApiError, type ErrorCode } from '../../contract/errors.js';
import type { FaultRow } from '../../store/tables/extras.js';
import { seededUnit } from '../../util/seeded-random.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { authenticateSecretKey } from '../domain/keys.js';

/** Response header naming the fault that answered, so an injected failure is never mistaken for a real one. */
export const FAULT_HEADER = 'Scanctl-Fault';

/**
 * API faults (issue 6): answers chosen routes with a chosen status and error code, for the next N
 * calls or with a seeded probability. The answer is the spec's error body (ERR-1) with the type
 * of its status (CHOICE-4). The control plane (/_scanctl) is never faulted, so a fault can always
 * be cleared.
 */
export function faults(ctx: EmulatorContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return next();
    const fault = pickFault(ctx, c.req.method, path);
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

/**
 * The first active fault (oldest first) that matches and fires for this call. Each matching call
 * of a probability fault draws from a PRNG keyed by (seed, route, index of the call), not by the
 * fault's random id, so the same seed on the same route replays the same sequence of failures.
 */
export function pickFault(ctx: EmulatorContext, method: string, path: string): FaultRow | null {
  const { faults: table } = ctx.store.extras;
  const candidates = table.all().filter((f) => isActive(f) && routeMatches(f, method, path));
  if (candidates.length === 0) return null;
  return ctx.store.db.transaction(() => {
    for (const fault of candidates) {
      const fires = fault.probability === null || seededUnit(fault.seed, fault.method, fault.path, fault.matched) < fault.probability;
      table.recordMatch(fault.id, fires);
      if (fires) return fault;
    }
    return null;
  })();
}

export function isActive(fault: FaultRow): boolean {
  return fault.remaining === null || fault.remaining > 0;
}

/** METHOD (or *) and path; `:name` matches one segment, a trailing `*` any rest (`/v1/*`, `/v1/sess*`). */
export function routeMatches(fault: Pick<FaultRow, 'method' | 'path'>, method: string, path: string): boolean {
  if (fault.method !== '*' && fault.method !== method.toUpperCase()) return false;
  const wildcard = fault.path.endsWith('*');
  const want = (wildcard ? fault.path.slice(0, -1) : fault.path).split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  // "/v1/sess*": the last segment is a prefix; "/v1/*": every segment of the pattern is whole.
  const partial = wildcard && !fault.path.endsWith('/*') && want.length > 0 ? want.pop()! : null;
  const fixed = want.length;
  if (wildcard ? got.length < fixed + (partial === null ? 0 : 1) : got.length !== fixed) return false;
  if (!want.every((segment, i) => segment.startsWith(':') || segment === got[i])) return false;
  return partial === null || got[fixed]!.startsWith(partial);
}

export function faultError(fault: FaultRow): ApiError {
  const message =
    fault.message ??
    `Injected fault ${fault.id}: ${fault.method} ${fault.path} answers ${fault.status} ${fault.code} on purpose (scanctl faults clear ${fault.id}).`;
  const headers: Record<string, string> = { [FAULT_HEADER]: fault.id };
  if (fault.status === 429 || fault.status === 503) headers['Retry-After'] = '1';
  // The developer chose the code (validated as lowercase snake case); it need not be one the emulator uses itself.
  return new ApiError(fault.code as ErrorCode, message, undefined, { status: fault.status, headers });
}
