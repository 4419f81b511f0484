import { StringDecoder } from 'node:string_decoder';
import { AnswerReader, type AnswerEvents } from './wire/answer-reader.js';
import { Origin, type Borrower, type Connection } from './wire/connections.js';

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

/**
 * One POST over a keep-alive connection to the URL's origin (src/webhooks/wire/: an HTTP/1.1
 * client that does only this; in serve it costs ~8 us less per delivery than undici's pool did).
 * Redirects are never followed (WH-7): a 3xx is an answer like any other.
 * The whole attempt, answer included, must finish within timeoutMs. Never throws.
 */
export function sendOnce(request: SendRequest): Promise<SendOutcome> {
  const target = parseTarget(request.url);
  if (!target) {
    return Promise.resolve({ status: null, latencyMs: 0, error: `invalid webhook URL ${request.url.slice(0, 200)}`, excerpt: null });
  }
  if (request.signal?.aborted) return Promise.resolve({ status: null, latencyMs: 0, error: SHUTTING_DOWN, excerpt: null });
  const head = requestHead(target, request);
  if (head === null) return Promise.resolve({ status: null, latencyMs: 0, error: 'a header value with a line break cannot be sent', excerpt: null });
  return new Promise((resolve) => {
    const origin = originFor(target);
    origin.borrow(new Send(request, head, origin, resolve));
  });
}

const SHUTTING_DOWN = 'aborted: the emulator is shutting down';

/** The request line and headers, ready to write. Null when a value would break the framing. */
function requestHead(target: Target, request: SendRequest): string | null {
  let head = `POST ${target.path} HTTP/1.1\r\nhost: ${target.host}\r\ncontent-length: ${request.body.length}\r\n`;
  if (target.authorization) head += `authorization: ${target.authorization}\r\n`;
  for (const name in request.headers) {
    // The framing headers are the client's; the URL's credentials win over a header of the same name.
    if (name === 'host' || name === 'content-length' || (name === 'authorization' && target.authorization)) continue;
    const value = request.headers[name]!;
    if (LINE_BREAK.test(value) || LINE_BREAK.test(name)) return null;
    head += `${name}: ${value}\r\n`;
  }
  return `${head}\r\n`;
}
const LINE_BREAK = /[\r\n]/;

/**
 * One send under way: it borrows a connection, writes the request, reads the answer (AnswerReader
 * calls it back), and settles once: with the answer, an error, the timeout or the abort.
 */
class Send implements Borrower, AnswerEvents {
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  private settled = false;
  private conn: Connection | null = null;
  private readonly reader = new AnswerReader(this);
  private status: number | null = null;
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private cut = false;

  constructor(
    private readonly request: SendRequest,
    private readonly requestHead: string,
    private readonly origin: Origin,
    private readonly resolve: (outcome: SendOutcome) => void,
  ) {
    this.timer = setTimeout(() => this.giveUp(`timed out after ${request.timeoutMs} ms`), request.timeoutMs);
    if (request.signal) sendsUnder(request.signal).add(this);
  }

  /** Ends the send with `error` and drops its connection (or its place in the queue for one). */
  giveUp(error: string): void {
    if (this.settled) return;
    this.fail(error);
    if (this.conn) this.conn.socket.destroy();
    else this.origin.forget(this);
  }

  private fail(error: string): void {
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

  lent(conn: Connection): void {
    // Gave up while the connection was being opened: it is fresh, keep it for the next send.
    if (this.settled) return conn.release(true, null);
    this.conn = conn;
    const { socket } = conn;
    socket.cork();
    socket.write(this.requestHead, 'latin1');
    socket.write(this.request.body);
    socket.uncork();
  }

  unreachable(error: Error): void {
    this.fail(describe(error as NodeJS.ErrnoException));
  }

  data(chunk: Buffer): void {
    this.reader.push(chunk);
  }

  gone(error: Error | null): void {
    if (this.settled) return;
    this.reader.ended();
    if (this.settled) return;
    // An answer cut short still counts as the answer it began as (its status and what came of its body).
    if (this.reader.answered) this.done(this.status, null, this.excerpt());
    else this.fail(error ? describe(error as NodeJS.ErrnoException) : 'connection closed before an answer');
    this.conn?.socket.destroy();
  }

  head(status: number): void {
    this.status = status;
  }

  body(chunk: Buffer): void {
    if (this.kept < RESPONSE_EXCERPT_BYTES) {
      const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
      if (part.length < chunk.length) this.cut = true;
    } else if (chunk.length > 0) this.cut = true;
  }

  end(reusable: boolean, keepAliveMs: number | null): void {
    const conn = this.conn!;
    this.conn = null;
    this.done(this.status, null, this.excerpt());
    conn.release(reusable, keepAliveMs);
  }

  bad(reason: string): void {
    if (this.reader.answered) this.done(this.status, null, this.excerpt());
    else this.fail(`unreadable answer: ${reason}`);
    this.conn?.socket.destroy();
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
  /** The Host header: host[:port] as the URL has it. */
  host: string;
  hostname: string;
  port: number;
  tls: boolean;
  path: string;
  authorization: string | null;
}
/** Parsed webhook URLs and their origins' connections (a handful per process): parsing a URL on every attempt showed in profiles. */
const targets = new Map<string, Target | null>();
const origins = new Map<string, Origin>();
const MAX_TARGETS = 256;

function parseTarget(raw: string): Target | null {
  let target = targets.get(raw);
  if (target !== undefined) return target;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    // Credentials in the URL go as Basic authorization, as http.request sends them.
    const auth = url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : null;
    const tls = url.protocol === 'https:';
    target = {
      origin: url.origin,
      host: url.host,
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port ? Number(url.port) : tls ? 443 : 80,
      tls,
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

function originFor(target: Target): Origin {
  let origin = origins.get(target.origin);
  if (origin) return origin;
  if (origins.size >= MAX_TARGETS) {
    // A long-lived serve that forwarded to many ports: the oldest origin goes (its sends finish first).
    const [oldest, old] = origins.entries().next().value as [string, Origin];
    origins.delete(oldest);
    old.close();
  }
  origin = new Origin({ host: target.hostname, port: target.port, tls: target.tls }, CONNECTIONS_PER_ORIGIN);
  origins.set(target.origin, origin);
  return origin;
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
    default:
      return (error.code ? `${error.code}: ` : '') + error.message.slice(0, 200);
  }
}
