import { createRequire } from 'node:module';
import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher, Pool } from 'undici';
import { CHOICES } from '../contract/choices.js';
import { describeSendError, NO_UPGRADE, timedOut, type SendPhase } from './send-errors.js';

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

/** Idle keep-alive connections are closed after this (real ms), or a second before the receiver's Keep-Alive timeout (CHOICE-9). */
export const IDLE_MS = CHOICES.webhookIdleConnectionMs;
/** Keep-alive connections per receiver origin at most (the dispatcher sends fewer at once to one origin). */
const SOCKETS_PER_ORIGIN = 64;
/**
 * Of an answer's body at most this much is read: past it the attempt ends with the status and the
 * excerpt, and the connection is closed rather than read to the end (CHOICE-24).
 */
export const MAX_BODY_READ_BYTES = CHOICES.webhookMaxAnswerBodyReadBytes;
/** An answer's status line and headers together may not be larger (CHOICE-24; Node's own default is 16 KiB). */
export const MAX_HEAD_BYTES = CHOICES.webhookMaxAnswerHeadBytes;

type PoolClass = typeof Pool;
let PoolOf: PoolClass | undefined;
/** undici's connection pool, loaded at the first send (never on a command that sends nothing). */
function poolClass(): PoolClass {
  PoolOf ??= (createRequire(import.meta.url)('undici') as typeof import('undici')).Pool;
  return PoolOf;
}

/** Each origin's keep-alive pool (per attempt timeout: it is also the pool's connect timeout). */
const pools = new Map<string, Dispatcher>();

function poolFor(origin: string, timeoutMs: number): Dispatcher {
  const key = `${timeoutMs} ${origin}`;
  let pool = pools.get(key);
  if (pool) return pool;
  if (pools.size >= MAX_TARGETS) {
    // A long-lived serve that forwarded to many ports: the oldest pool goes (its sends finish first).
    const [oldest, oldPool] = pools.entries().next().value as [string, Dispatcher];
    pools.delete(oldest);
    void oldPool.close().catch(() => {});
  }
  const Pool = poolClass();
  pool = new Pool(origin, {
    connections: SOCKETS_PER_ORIGIN,
    pipelining: 1,
    // A connection (TCP and TLS handshake) that does not open in time is closed, even after its attempt gave up.
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // CHOICE-9: idle connections closed after 4 s, or a second before the receiver's Keep-Alive hint.
    keepAliveTimeout: IDLE_MS,
    keepAliveTimeoutThreshold: 1_000,
    maxHeaderSize: MAX_HEAD_BYTES,
  });
  pools.set(key, pool);
  return pool;
}

/** The sender's connections now: in use, idle (kept alive), and requests waiting for one (tests count them for leaks). */
export function openConnections(): { active: number; idle: number; queued: number } {
  let active = 0;
  let idle = 0;
  let queued = 0;
  for (const pool of pools.values()) {
    const stats = (pool as Pool).stats;
    active += stats.running;
    idle += stats.connected - stats.running;
    queued += stats.queued;
  }
  return { active, idle, queued };
}

/**
 * One POST through undici's keep-alive pool for the URL's origin (its dispatch API costs a third of
 * http.request's CPU per send). Redirects are never followed (WH-7): a 3xx is an answer like any
 * other. The whole attempt (connect and TLS handshake, the answer's head and its body) must finish
 * within timeoutMs; an attempt that fails or times out closes its connection. Never throws.
 */
export function sendOnce(request: SendRequest): Promise<SendOutcome> {
  const target = parseTarget(request.url);
  if (!target) return Promise.resolve(early(`invalid webhook URL ${request.url.slice(0, 200)}`));
  if (request.signal?.aborted) return Promise.resolve(early(SHUTTING_DOWN));
  const headers = requestHeaders(target, request);
  if (headers === null) return Promise.resolve(early('a header value with a line break cannot be sent'));
  return new Promise((resolve) => {
    const send = new Send(request, resolve);
    try {
      poolFor(target.origin, request.timeoutMs).dispatch({ path: target.path, method: 'POST', headers, body: request.body }, send);
    } catch (error) {
      send.giveUp(describeSendError(error as NodeJS.ErrnoException));
    }
  });
}

const SHUTTING_DOWN = 'aborted: the emulator is shutting down';
const early = (error: string): SendOutcome => ({ status: null, latencyMs: 0, error, excerpt: null });

/** The headers to send; null when a name or value would break the framing. */
function requestHeaders(target: Target, request: SendRequest): Record<string, string> | null {
  const headers: Record<string, string> = {};
  if (target.authorization) headers.authorization = target.authorization;
  for (const name in request.headers) {
    // The framing headers are the client's; the URL's credentials win over a header of the same name.
    if (name === 'host' || name === 'content-length' || (name === 'authorization' && target.authorization)) continue;
    const value = request.headers[name]!;
    if (LINE_BREAK.test(value) || LINE_BREAK.test(name)) return null;
    headers[name] = value;
  }
  return headers;
}
const LINE_BREAK = /[\r\n]/;

/**
 * One send under way: undici's handler for it, with its timer and its answer so far; it settles
 * once: with the answer, an error, the timeout or the abort.
 */
class Send implements Dispatcher.DispatchHandler {
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  private settled = false;
  private abortRequest: ((error?: Error) => void) | null = null;
  private phase: SendPhase = 'connect';
  private status: number | null = null;
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private read = 0;
  private cut = false;

  constructor(
    private readonly request: SendRequest,
    private readonly resolve: (outcome: SendOutcome) => void,
  ) {
    this.timer = setTimeout(() => this.giveUp(timedOut(request.timeoutMs, this.phase)), request.timeoutMs);
    if (request.signal) sendsUnder(request.signal).add(this);
  }

  /**
   * Ends the send with `error` and closes its connection. One still waiting for a connection is
   * aborted when it gets one; the connection being opened closes at the pool's connect timeout.
   */
  giveUp(error: string): void {
    this.done(null, error, null);
    this.abortRequest?.(new Error(error));
  }

  private done(status: number | null, error: string | null, excerpt: string | null): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.request.signal) sendsUnder(this.request.signal).delete(this);
    this.resolve({ status, latencyMs: Math.round(performance.now() - this.started), error, excerpt });
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.settled) return abort();
    this.abortRequest = abort;
    this.phase = 'answer';
  }

  onHeaders(statusCode: number): boolean {
    // No upgrade was asked for: a 101 is not an answer this client can read.
    if (statusCode === 101) {
      this.giveUp(NO_UPGRADE);
      return false;
    }
    // An interim 1xx (102, 103) is not the answer: the final one follows.
    if (statusCode >= 200) {
      this.status = statusCode;
      this.phase = 'body';
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.read += chunk.length;
    if (this.read > MAX_BODY_READ_BYTES) {
      // CHOICE-24: enough of it; the connection is closed rather than read to the end.
      this.cut = true;
      this.done(this.status, null, excerptText(this.chunks, this.cut));
      this.abortRequest?.();
      return false;
    }
    if (this.kept < RESPONSE_EXCERPT_BYTES) {
      const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
      if (part.length < chunk.length) this.cut = true;
    } else if (chunk.length > 0) this.cut = true;
    return true;
  }

  onComplete(): void {
    this.done(this.status, null, excerptText(this.chunks, this.cut));
  }

  onError(error: Error): void {
    // An answer cut short still counts as the answer it began as (its status and what came of its body).
    if (this.status !== null) this.done(this.status, null, excerptText(this.chunks, this.cut));
    else this.done(null, describeSendError(error), null);
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
    signal.addEventListener(
      'abort',
      () => {
        for (const send of [...under]) send.giveUp(SHUTTING_DOWN);
      },
      { once: true },
    );
  }
  return sends;
}

interface Target {
  origin: string;
  path: string;
  authorization: string | null;
}
/** Parsed webhook URLs (a handful per process): parsing a URL on every attempt showed in profiles. */
const targets = new Map<string, Target | null>();
const MAX_TARGETS = 256;

function parseTarget(raw: string): Target | null {
  let target = targets.get(raw);
  if (target !== undefined) return target;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    // Credentials in the URL go as Basic authorization, as http.request sends them.
    const auth = url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : null;
    target = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      authorization: auth && `Basic ${Buffer.from(auth).toString('base64')}`,
    };
  } catch {
    target = null;
  }
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(raw, target);
  return target;
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
