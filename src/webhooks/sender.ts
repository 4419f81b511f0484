import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { CHOICES } from '../contract/choices.js';
import { describeSendError, timedOut, type SendPhase } from './send-errors.js';

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

// node:http's keep-alive Agent: it closes an idle socket after `timeout` (or a second before the
// receiver's Keep-Alive hint), reuses one only when the answer allows it, and unrefs idle sockets
// (a command that sent something exits when it is done). Most recently used first (lifo).
const agentOptions = { keepAlive: true, maxSockets: SOCKETS_PER_ORIGIN, maxFreeSockets: SOCKETS_PER_ORIGIN, timeout: IDLE_MS, scheduling: 'lifo' } as const;
const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

/** The sender's connections now: in use, idle (kept alive), and requests waiting for one (tests count them for leaks). */
export function openConnections(): { active: number; idle: number; queued: number } {
  const count = (table: NodeJS.ReadOnlyDict<unknown[]>) => Object.values(table).reduce((n, list) => n + (list?.length ?? 0), 0);
  let active = 0;
  let idle = 0;
  let queued = 0;
  for (const agent of Object.values(agents)) {
    active += count(agent.sockets);
    idle += count(agent.freeSockets);
    queued += count(agent.requests);
  }
  return { active, idle, queued };
}

/**
 * One POST through node:http's keep-alive Agent to the URL's origin. Redirects are never followed
 * (WH-7): a 3xx is an answer like any other. The whole attempt (connect and TLS handshake, the
 * answer's head and its body) must finish within timeoutMs; an attempt that fails or times out
 * destroys its socket. Never throws.
 */
export function sendOnce(request: SendRequest): Promise<SendOutcome> {
  const target = parseTarget(request.url);
  if (!target) return Promise.resolve(early(`invalid webhook URL ${request.url.slice(0, 200)}`));
  if (request.signal?.aborted) return Promise.resolve(early(SHUTTING_DOWN));
  const headers = requestHeaders(target, request);
  if (headers === null) return Promise.resolve(early('a header value with a line break cannot be sent'));
  return new Promise((resolve) => new Send(target, request, headers, resolve));
}

const SHUTTING_DOWN = 'aborted: the emulator is shutting down';
const early = (error: string): SendOutcome => ({ status: null, latencyMs: 0, error, excerpt: null });

/** The headers to send; null when a name or value would break the framing. */
function requestHeaders(target: Target, request: SendRequest): Record<string, string> | null {
  const headers: Record<string, string> = { host: target.host, 'content-length': String(request.body.length) };
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

/** One request under way; it settles once: with the answer, an error, the timeout or the abort. */
class Send {
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  private readonly req: ClientRequest;
  private settled = false;
  private phase: SendPhase = 'queued';
  private status: number | null = null;
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private read = 0;
  private cut = false;

  constructor(
    target: Target,
    private readonly request: SendRequest,
    headers: Record<string, string>,
    private readonly resolve: (outcome: SendOutcome) => void,
  ) {
    this.timer = setTimeout(() => this.giveUp(timedOut(request.timeoutMs, this.phase)), request.timeoutMs);
    if (request.signal) sendsUnder(request.signal).add(this);
    let req: ClientRequest;
    try {
      req = (target.tls ? https : http).request({
        agent: target.tls ? agents.https : agents.http,
        host: target.hostname,
        port: target.port,
        path: target.path,
        method: 'POST',
        headers,
        maxHeaderSize: MAX_HEAD_BYTES,
        servername: target.servername,
      });
    } catch (error) {
      // A header node:http refuses (an invalid character): nothing was sent.
      this.req = null as unknown as ClientRequest;
      this.done(null, `${(error as NodeJS.ErrnoException).code ?? 'error'}: ${(error as Error).message.slice(0, 200)}`, null);
      return;
    }
    this.req = req;
    req.on('socket', (socket) => this.onSocket(socket, target.tls));
    req.on('response', (res) => this.onResponse(res));
    // No upgrade was asked for: a 101 that asks to switch is not an answer this client can read.
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      this.fail('unreadable answer: 101 Switching Protocols to a request that asked for no upgrade');
    });
    req.on('error', (error) => {
      // An answer cut short after its head still counts as the answer it began as.
      if (this.status !== null) this.finish();
      else this.fail(describeSendError(error as NodeJS.ErrnoException));
    });
    req.end(request.body);
  }

  private onSocket(socket: Socket, tls: boolean): void {
    if (this.req.reusedSocket || !(socket.connecting || tls)) {
      this.phase = 'answer';
      return;
    }
    this.phase = 'connect';
    socket.once(tls ? 'secureConnect' : 'connect', () => {
      if (this.phase === 'connect') this.phase = 'answer';
    });
  }

  private onResponse(res: IncomingMessage): void {
    if (res.statusCode === 101) {
      this.fail('unreadable answer: 101 Switching Protocols to a request that asked for no upgrade');
      return;
    }
    this.status = res.statusCode ?? null;
    this.phase = 'body';
    res.on('data', (chunk: Buffer) => this.body(chunk));
    res.on('end', () => this.finish());
    // Closed before its end: cut short (the error handler or this one records what came).
    res.on('close', () => this.finish());
  }

  private body(chunk: Buffer): void {
    this.read += chunk.length;
    if (this.read > MAX_BODY_READ_BYTES) {
      this.cut = true;
      this.finish();
      this.req.destroy();
      return;
    }
    if (this.kept < RESPONSE_EXCERPT_BYTES) {
      const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
      if (part.length < chunk.length) this.cut = true;
    } else if (chunk.length > 0) this.cut = true;
  }

  /** Ends the send with `error` and destroys its socket (or drops its place in the Agent's queue). */
  giveUp(error: string): void {
    this.fail(error);
  }

  private fail(error: string): void {
    if (this.settled) return;
    this.done(null, error, null);
    this.req.destroy();
  }

  private finish(): void {
    this.done(this.status, null, excerptText(this.chunks, this.cut));
  }

  private done(status: number | null, error: string | null, excerpt: string | null): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.request.signal) sendsUnder(this.request.signal).delete(this);
    this.resolve({ status, latencyMs: Math.round(performance.now() - this.started), error, excerpt });
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
  /** The Host header: host[:port] as the URL has it. */
  host: string;
  hostname: string;
  port: number;
  tls: boolean;
  /** The TLS server name (SNI): the host name, never an IP address. */
  servername: string | undefined;
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
    const tls = url.protocol === 'https:';
    const bracketed = url.hostname.startsWith('[');
    const hostname = bracketed ? url.hostname.slice(1, -1) : url.hostname;
    target = {
      host: url.host,
      hostname,
      port: url.port ? Number(url.port) : tls ? 443 : 80,
      tls,
      servername: bracketed || /^\d+\.\d+\.\d+\.\d+$/.test(hostname) ? undefined : hostname,
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
