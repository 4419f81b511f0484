import { createHash } from 'node:crypto';
import { base62From, randomBase62 } from './crypto.js';
import { freshSeed, seededInt } from './seeded-random.js';

/** Generates ids and secrets. Injected into the emulator so tests can make them predictable. */
export interface Ids {
  /** A public identifier such as `evt_...`, `key_...`, `del_...`. */
  id(prefix: string): string;
  /** A secret such as `vst_...`, `sk_test_...`, `whsec_...`: long and random. */
  secret(prefix: string): string;
  /** A seed for a draw that was given none (faults, chaos). */
  seed(): number;
}

/** Base62 digits in ASCII order, so that the strings sort as the numbers do. */
const SORTED_BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `ms` as 7 base62 digits that sort as it does (62^7 ms reach 2081; past that they wrap: still ids, less in order). */
function sortableTime(ms: number): string {
  let out = '';
  for (let rest = Math.floor(ms), i = 0; i < 7; i++, rest = Math.floor(rest / 62)) out = SORTED_BASE62[rest % 62] + out;
  return out;
}

/**
 * Random ids begin with the time they were made (7 characters, real milliseconds) and end with 13
 * random ones (77 bits): ids made one after another sort together, so the indexes keyed on them
 * (deliveries, events, attempts by delivery) grow at their end instead of writing a random page
 * of each at every insert (~10 us of SQLite per recorded attempt). They are ids, not secrets;
 * secrets stay wholly random.
 */
export const randomIds: Ids = {
  id: (prefix) => `${prefix}_${sortableTime(Date.now())}${randomBase62(13)}`,
  secret: (prefix) => `${prefix}${randomBase62(32)}`,
  seed: freshSeed,
};

/**
 * Ids and secrets of a seeded emulator (`serve --seed N`): the n-th value of each prefix is drawn
 * from SHA-256 of (seed, stream, prefix, n), so the same seed and the same calls give the same
 * values, whatever else ran in between. They look like random ones and are just as long, but
 * anyone who knows the seed can compute them: for tests only.
 * `restart(stream)` moves to a new stream when state came from outside (a restart on the same
 * database, an import), so that new values never collide with the ones that state already holds.
 */
export class SeededIds implements Ids {
  private readonly counters = new Map<string, number>();

  constructor(
    readonly seedValue: number,
    private stream: number,
  ) {}

  get currentStream(): number {
    return this.stream;
  }

  restart(stream: number): void {
    this.stream = stream;
    this.counters.clear();
  }

  private draw(kind: string, length: number): string {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    let block = 0;
    return base62From(length, () =>
      createHash('sha256').update(`${this.seedValue}\u0000${this.stream}\u0000${kind}\u0000${n}\u0000${block++}`).digest(),
    );
  }

  id(prefix: string): string {
    return `${prefix}_${this.draw(`id:${prefix}`, 20)}`;
  }

  secret(prefix: string): string {
    return `${prefix}${this.draw(`secret:${prefix}`, 32)}`;
  }

  seed(): number {
    const n = (this.counters.get('seed') ?? 0) + 1;
    this.counters.set('seed', n);
    return seededInt(0, 2 ** 31 - 1, this.seedValue, this.stream, 'seed', n);
  }
}
