import type { Fault } from '../../../contract/faults.js';

export function describeFault(f: Fault): string {
  const when =
    f.probability !== null
      ? `with probability ${f.probability}`
      : f.count !== null
        ? `for the next ${f.count} call${f.count === 1 ? '' : 's'}`
        : 'on every call until cleared';
  return `${f.method} ${f.path} answers ${f.status} ${f.code} ${when}`;
}
