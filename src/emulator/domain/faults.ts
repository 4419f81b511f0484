import { ApiError, type ErrorCode } from '../../contract/errors.js';
import type { Fault } from '../../contract/faults.js';
import { toIso } from '../../contract/time.js';
import type { Store } from '../../store/index.js';
import type { FaultRow } from '../../store/tables/faults.js';
import { seededUnit } from '../../util/seeded-random.js';

/** Response header naming the fault that answered, so an injected failure is never mistaken for a real one. */
const FAULT_HEADER = 'Scanctl-Fault';

export function faultView(row: FaultRow): Fault {
  return {
    id: row.id,
    object: 'fault',
    method: row.method,
    path: row.path,
    status: row.status,
    code: row.code,
    message: row.message,
    count: row.count,
    remaining: row.remaining,
    probability: row.probability,
    seed: row.seed,
    matched: row.matched,
    injected: row.injected,
    active: isActive(row),
    created_at: toIso(row.created_at),
  };
}

/**
 * The first active fault (oldest first) that matches and fires for this call. Each matching call
 * of a probability fault draws from a PRNG keyed by (seed, route, index of the call), not by the
 * fault's random id, so the same seed on the same route replays the same sequence of failures.
 */
export function pickFault(store: Store, method: string, path: string): FaultRow | null {
  const table = store.faults;
  const candidates = table.all().filter((f) => isActive(f) && routeMatches(f, method, path));
  if (candidates.length === 0) return null;
  return store.db.transaction(() => {
    for (const fault of candidates) {
      const fires = fault.probability === null || seededUnit(fault.seed, fault.method, fault.path, fault.matched) < fault.probability;
      table.recordMatch(fault.id, fires);
      if (fires) return fault;
    }
    return null;
  })();
}

function isActive(fault: FaultRow): boolean {
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
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- ErrorCode lists the emulator's own codes; an injected fault answers the developer's
  return new ApiError(fault.code as ErrorCode, message, undefined, { status: fault.status, headers });
}
