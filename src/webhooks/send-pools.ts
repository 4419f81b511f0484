import type { Pool } from 'undici';
import { CHOICES } from '../contract/choices.js';
import { loadUndici } from './undici-loader.js';

type Undici = typeof import('undici');
/** undici's errors, which the sender's failures are told apart by (their class and code). */
export type UndiciErrors = Undici['errors'];

let undiciModule: Undici | undefined;
/** undici, loaded at the first send (never on a command that sends nothing); kept out of the CLI bundle. */
export function undici(): Undici {
  undiciModule ??= loadUndici();
  return undiciModule;
}

/** Idle keep-alive connections are closed after this (real ms), or a second before the receiver's Keep-Alive timeout (CHOICE-9). */
export const IDLE_MS = CHOICES.webhookIdleConnectionMs;
/** Keep-alive connections per receiver origin at most (the dispatcher sends fewer at once to one origin). */
const SOCKETS_PER_ORIGIN = 64;
/** An answer's status line and headers together may not be larger (CHOICE-24; Node's own default is 16 KiB). */
const MAX_HEAD_BYTES = CHOICES.webhookMaxAnswerHeadBytes;
/** Origins (with their attempt timeouts) that keep a pool; past this the oldest pool is closed. */
const MAX_POOLS = 256;

/**
 * One sender's keep-alive pools, one per receiver origin (and attempt timeout: it is also the pool's
 * connect timeout). Its owner closes them (`close()`), and they close with nothing else.
 */
export class SendPools {
  private readonly pools = new Map<string, Pool>();

  poolFor(origin: string, timeoutMs: number): Pool {
    const key = `${timeoutMs} ${origin}`;
    let pool = this.pools.get(key);
    if (pool) return pool;
    if (this.pools.size >= MAX_POOLS) {
      // A long-lived serve that forwarded to many ports: the oldest pool goes (its sends finish first).
      for (const [oldest, oldPool] of this.pools) {
        this.pools.delete(oldest);
        void oldPool.close().catch(() => {});
        break;
      }
    }
    pool = new (undici().Pool)(origin, {
      connections: SOCKETS_PER_ORIGIN,
      pipelining: 1,
      // A connection (TCP and TLS handshake) that does not open in time is closed, even after its attempt gave up.
      // The head and body timeouts are each request's own (the sender's).
      connect: { timeout: timeoutMs },
      // CHOICE-9: idle connections closed after 4 s, or a second before the receiver's Keep-Alive hint.
      keepAliveTimeout: IDLE_MS,
      keepAliveTimeoutThreshold: 1_000,
      maxHeaderSize: MAX_HEAD_BYTES,
    });
    this.pools.set(key, pool);
    return pool;
  }

  /** The connections now: in use, idle (kept alive), and requests waiting for one (tests count them for leaks). */
  openConnections(): { active: number; idle: number; queued: number } {
    let active = 0;
    let idle = 0;
    let queued = 0;
    for (const pool of this.pools.values()) {
      const stats = pool.stats;
      active += stats.running;
      idle += stats.connected - stats.running;
      queued += stats.queued;
    }
    return { active, idle, queued };
  }

  /**
   * Closes every pool at once and forgets them (a later send opens a new pool). Its owner calls it
   * once its sends are over: what a pool still holds then is idle connections and aborted attempts
   * waiting on a connection being opened, which a graceful close would wait for up to the connect
   * timeout (a receiver that never finishes its TLS handshake held a stop for that long).
   */
  async close(): Promise<void> {
    const closing = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(closing.map((pool) => pool.destroy().catch(() => {})));
  }
}
