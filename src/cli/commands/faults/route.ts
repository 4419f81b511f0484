import type { Operation } from '../../../contract/operation.js';
import { UserError } from '../../errors.js';
import type { FaultRoute } from '../../parse-contract-options.js';

const display = (op: Operation) => `${op.method.toUpperCase()} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`;

/** Could the fault's pattern match some request of this operation? */
function reaches(route: FaultRoute, op: Operation): boolean {
  if (route.method !== '*' && route.method !== op.method.toUpperCase()) return false;
  const wildcard = route.path.endsWith('*');
  const pattern = (wildcard ? route.path.slice(0, -1) : route.path).split('/');
  const target = op.path.split('/');
  if (!wildcard && pattern.length !== target.length) return false;
  if (pattern.length > target.length) return false;
  return pattern.every((segment, i) => {
    const declared = target[i]!;
    const last = i === pattern.length - 1;
    if (segment.startsWith(':') || /^\{\w+\}$/.test(declared)) return true;
    return wildcard && last ? declared.startsWith(segment) : segment === declared;
  });
}

/** Refuses a route no declared operation answers (a typo never fires), naming the nearest one. */
export function checkRouteIsDeclared(route: FaultRoute, operations: readonly Operation[]): void {
  const candidates = operations.filter((op) => !op.path.startsWith('/_scanctl'));
  if (candidates.some((op) => reaches(route, op))) return;
  const given = `${route.method} ${route.path}`;
  const nearest = candidates.map(display).sort((a, b) => distance(given, a) - distance(given, b))[0];
  throw new UserError(`--route "${given}" matches no route of the service, so the fault would never fire`, {
    hint: nearest ? `did you mean "${nearest}"?` : undefined,
  });
}

/** Levenshtein distance: how many edits turn a into b. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
