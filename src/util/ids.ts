import { randomBase62 } from './crypto.js';

/** Generates ids and secrets. Injected into the emulator so tests can make them predictable. */
export interface Ids {
  /** A public identifier such as `evt_...`, `key_...`, `del_...`. */
  id(prefix: string): string;
  /** A secret such as `vst_...`, `sk_test_...`, `whsec_...`: long and random. */
  secret(prefix: string): string;
}

export const randomIds: Ids = {
  id: (prefix) => `${prefix}_${randomBase62(20)}`,
  secret: (prefix) => `${prefix}${randomBase62(32)}`,
};

/** Predictable ids for tests: evt_000001, evt_000002, ... Secrets stay random-looking but counted. */
export function sequentialIds(): Ids {
  const counters = new Map<string, number>();
  const next = (prefix: string) => {
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    return String(n).padStart(6, '0');
  };
  return {
    id: (prefix) => `${prefix}_${next(prefix)}`,
    secret: (prefix) => `${prefix}${next(prefix).padStart(32, 'x')}`,
  };
}
