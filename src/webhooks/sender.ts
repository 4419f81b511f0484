import { createRequire } from 'node:module';
import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher, Pool } from 'undici';

/** How much of a receiver's answer is kept with the attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
  /** Aborting gives up at once (the outcome says so); used when the emulator shuts down. */
  signal?: AbortSignal;
}

export interface SendOutcome {
  /** The receiver's HTTP status, or null when no answer came (refused, reset, timeout). */
  status: number | null;
  /** Real milliseconds from the request to the end of the answer (or the failure). */
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
}

/** Keep-alive connections per receiver (origin), as many as two dispatchers' worth of sends. */
const CONNECTIONS_PER_ORIGIN = 64;

type PoolClass = typeof Pool;
let PoolOf: PoolClass | undefined;
/**
 * undici's connection pool, loaded at the first send (~20 ms; never on a command that sends
 * nothing). Only the pool, not undici's index (fetch, websockets...: twice as long to load): the
 * version is pinned exactly in package.json for this path.
 */
function poolClass(): PoolClass {
  PoolOf ??= createRequire(import.meta.url)('undici/lib/dispatcher/pool.js') as PoolClass;
  return PoolOf;
}

/**
 * One POST over undici's keep-alive pool for the URL's origin (its dispatch API spends less than
 * half the CPU of http.request per send: 16 against 38 us in a client-only comparison).
 * Redirects are never followed (WH-7): a 3xx is an answer like any other. The whole attempt,
 * answer included, must finish within timeoutMs. Never throws.
 */
export function sendOnce(request: SendRequest): Promise<SendOutcome> {
  const target = parseTarget(request.url);
  if (!target) {
    return Promise.resolve({ status: null, latencyMs: 0, error: `invalid webhook URL ${request.url.slice(0, 200)}`, excerpt: null });
  }
  if (request.signal?.aborted) return Promise.resolve({ status: null, latencyMs: 0, error: SHUTTING_DOWN, excerpt: null });
  return new Promise((resolve) => {
    const send = new Send(request, resolve);
    try {
      const headers = target.authorization ? { ...request.headers, authorization: target.authorization } : request.headers;
      poolFor(target.origin).dispatch({ path: target.path, method: 'POST', headers, body: request.body }, send);
    } catch (error) {
      send.fail(describe(error as NodeJS.ErrnoException));
    }
  });
}

const SHUTTING_DOWN = 'aborted: the emulator is shutting down';

/**
 * One send under way: undici's handler for it, with its timer and its answer so far. One object
 * per send rather than a closure per callback.
 */
class Send implements Dispatcher.DispatchHandlers {
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  private settled = false;
  private abortRequest: ((error?: Error) => void) | null = null;
  private status: number | null = null;
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private cut = false;

  constructor(
    private readonly request: SendRequest,
    private readonly resolve: (outcome: SendOutcome) => void,
  ) {
    this.timer = setTimeout(() => this.giveUp(`timed out after ${request.timeoutMs} ms`), request.timeoutMs);
    if (request.signal) sendsUnder(request.signal).add(this);
  }

  /** Ends the send with `error`. A request still queued for a connection has no abort function yet: it gets aborted when it gets one. */
  giveUp(error: string): void {
    this.fail(error);
    this.abortRequest?.();
  }

  fail(error: string): void {
    this.done(null, error, null);
  }

  private done(status: number | null, error: string | null, excerpt: string | null): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.request.signal) sendsUnder(this.request.signal).delete(this);
    this.resolve({ status, latencyMs: Math.round(performance.now() - this.started), error, excerpt });
  }

  private excerpt(): string | null {
    return this.status === null ? null : excerptText(this.chunks, this.cut);
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.settled) abort();
    else this.abortRequest = abort;
  }

  onHeaders(statusCode: number): boolean {
    // undici reports an interim 1xx (102, 103) here too: only the final answer counts.
    if (statusCode >= 200) this.status = statusCode;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.kept < RESPONSE_EXCERPT_BYTES) {
      const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
      if (part.length < chunk.length) this.cut = true;
    } else if (chunk.length > 0) this.cut = true;
    return true;
  }

  onComplete(): void {
    this.done(this.status, null, this.excerpt());
  }

  onError(error: Error): void {
    // An answer cut short still counts as the answer it began as (its status and what came of its body).
    if (this.status !== null) this.done(this.status, null, this.excerpt());
    else this.fail(describe(error as NodeJS.ErrnoException));
  }
}

/**
 * The sends under an abort signal (the engine shares one across all of its sends): one 'abort'
 * listener per signal, where EventTarget's add and remove for every send showed in profiles.
 */
const sendsBySignal = new WeakMap<AbortSignal, Set<Send>>();
function sendsUnder(signal: AbortSignal): Set<Send> {
  let sends = sendsBySignal.get(signal);
  if (!sends) {
    const under = new Set<Send>();
    sendsBySignal.set(signal, (sends = under));
    signal.addEventListener('abort', () => {
      for (const send of [...under]) send.giveUp(SHUTTING_DOWN);
    }, { once: true });
  }
  return sends;
}

interface Target {
  origin: string;
  path: string;
  authorization: string | null;
}
/** Parsed webhook URLs and their origins' pools (a handful per process): parsing a URL on every attempt showed in profiles. */
const targets = new Map<string, Target | null>();
const pools = new Map<string, Dispatcher>();
const MAX_TARGETS = 256;

function parseTarget(raw: string): Target | null {
  let target = targets.get(raw);
  if (target !== undefined) return target;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    // Credentials in the URL go as Basic authorization, as http.request sends them.
    const auth = url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : null;
    target = { origin: url.origin, path: `${url.pathname}${url.search}`, authorization: auth && `Basic ${Buffer.from(auth).toString('base64')}` };
  } catch {
    target = null;
  }
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(raw, target);
  return target;
}

function poolFor(origin: string): Dispatcher {
  let pool = pools.get(origin);
  if (pool) return pool;
  if (pools.size >= MAX_TARGETS) {
    // A long-lived serve that forwarded to many ports: the oldest pool goes (its sends finish first).
    const [oldest, oldPool] = pools.entries().next().value as [string, Dispatcher];
    pools.delete(oldest);
    void oldPool.close().catch(() => {});
  }
  const Pool = poolClass();
  // No timeouts of undici's own: sendOnce's timer bounds the whole attempt.
  pool = new Pool(origin, { connections: CONNECTIONS_PER_ORIGIN, pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
  pools.set(origin, pool);
  return pool;
}

/**
 * The kept start of an answer as text. Where the answer went on past RESPONSE_EXCERPT_BYTES, a
 * character the cut fell inside is left out whole (a StringDecoder holds back a sequence cut short
 * rather than showing U+FFFD); invalid UTF-8 within the answer still shows as U+FFFD.
 */
function excerptText(chunks: Buffer[], cut: boolean): string {
  if (chunks.length === 0) return '';
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  return cut ? new StringDecoder('utf8').write(bytes) : bytes.toString('utf8');
}

function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
      return 'host not found';
    case 'EPIPE':
      return 'connection closed while sending';
    case 'UND_ERR_SOCKET':
      // undici's word for a 100 Continue the request did not ask for (deliveries never send Expect), or an answer to no request.
      if (error.message === 'bad response') return 'unreadable answer: an interim 100 Continue that was not asked for, or an answer to no request';
      return 'connection closed before an answer';
    default:
      return (error.code ? `${error.code}: ` : '') + error.message.slice(0, 200);
  }
}
