import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher, Pool } from 'undici';
import { CHOICES } from '../contract/choices.js';
import { describeSendError, NO_UPGRADE, timedOut } from './send-errors.js';
import { SendPools, undici } from './send-pools.js';
import { WebhookTargets, type Target } from './target.js';

export { IDLE_MS } from './send-pools.js';

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

/**
 * Of an answer's body at most this much is read: past it the attempt ends with the status and the
 * excerpt, and the connection is closed rather than read to the end (CHOICE-24).
 */
const MAX_BODY_READ_BYTES = CHOICES.webhookMaxAnswerBodyReadBytes;

/**
 * Where deliveries go on the wire: its own keep-alive pools (one per receiver origin) and the sends
 * under way, closed by whoever made it (the webhook engine in its `stop()`, `webhook check` when done).
 */
export class WebhookSender {
  private readonly pools = new SendPools();
  /**
   * The sends under each abort signal (the engine shares one across all of its sends): one 'abort'
   * listener per signal, where undici's listener on the shared signal for every send showed in profiles.
   */
  private readonly sendsBySignal = new WeakMap<AbortSignal, Set<Attempt>>();

  /** The webhook URLs it sends to, parsed once (the engine shares its own with its send slots). */
  constructor(private readonly targets = new WebhookTargets()) {}

  /**
   * One POST through undici's keep-alive pool for the URL's origin (`Pool.request`). Redirects are
   * never followed (WH-7; no redirect interceptor): a 3xx is an answer like any other. The whole
   * attempt (connect and TLS handshake, the answer's head and its body) must finish within
   * timeoutMs; an attempt that fails or times out closes its connection. Never throws.
   */
  readonly send = (request: SendRequest): Promise<SendOutcome> => {
    const target = this.targets.of(request.url);
    if (!target) return Promise.resolve(early(`invalid webhook URL ${request.url.slice(0, 200)}`));
    if (request.signal?.aborted) return Promise.resolve(early(SHUTTING_DOWN));
    const headers = requestHeaders(target, request);
    if (headers === null) return Promise.resolve(early('a header value with a line break cannot be sent'));
    const attempt = new Attempt(request.timeoutMs, request.signal ? this.sendsUnder(request.signal) : null);
    void attempt.post(() => this.pools.poolFor(target.origin, request.timeoutMs), target, headers, request.body);
    return attempt.outcome;
  };

  /** Its connections now: in use, idle (kept alive), and requests waiting for one (tests count them for leaks). */
  openConnections(): { active: number; idle: number; queued: number } {
    return this.pools.openConnections();
  }

  /** Closes its pools at once (its owner calls it once its sends are over); a later send opens new ones. */
  close(): Promise<void> {
    return this.pools.close();
  }

  private sendsUnder(signal: AbortSignal): Set<Attempt> {
    let sends = this.sendsBySignal.get(signal);
    if (!sends) {
      const under = new Set<Attempt>();
      this.sendsBySignal.set(signal, (sends = under));
      signal.addEventListener(
        'abort',
        () => {
          for (const attempt of [...under]) attempt.giveUp(SHUTTING_DOWN);
        },
        { once: true },
      );
    }
    return sends;
  }
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
 * One send under way: its one deadline (a timer that aborts the request's signal), and the outcome
 * it settles with once: the answer, an error, the deadline or the shutdown.
 */
class Attempt {
  private readonly started = performance.now();
  private readonly deadline: NodeJS.Timeout;
  /** Aborts undici's request: it closes the connection, or, still waiting for one, is dropped when it gets one. */
  private readonly abort = new AbortController();
  /** The deadline's reason for the abort, made when it comes: a request on a connection fails with it at once. */
  private expiry: Error | null = null;
  private settled = false;
  private resolve!: (outcome: SendOutcome) => void;
  readonly outcome = new Promise<SendOutcome>((resolve) => (this.resolve = resolve));
  /** The answer's head has come: a timeout now is in its body. */
  private answered = false;

  constructor(
    private readonly timeoutMs: number,
    /** The sends under the request's abort signal, if it has one: this one is among them until it settles. */
    private readonly under: Set<Attempt> | null,
  ) {
    this.deadline = setTimeout(() => this.expire(), timeoutMs);
    under?.add(this);
  }

  /**
   * Sends the request on the pool `poolOf` gives (loading undici on the first send, which can fail
   * like any send) and reads at most MAX_BODY_READ_BYTES of the answer (CHOICE-24): past that the
   * body is destroyed, which closes the connection rather than reading it to the end. Never throws.
   */
  async post(poolOf: () => Pool, target: Target, headers: Record<string, string>, body: Buffer): Promise<void> {
    let answer: Dispatcher.ResponseData;
    try {
      answer = await poolOf().request({
        path: target.path,
        method: 'POST',
        headers,
        body,
        signal: this.abort.signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        // No upgrade was asked for: a 101 is not an answer this client can read (other 1xx are interim).
        onInfo: ({ statusCode }) => statusCode === 101 && this.giveUp(NO_UPGRADE),
      });
    } catch (error) {
      return this.failed(error);
    }
    this.answered = true;
    this.read(answer);
  }

  /** The answer's body, through listeners: the async iterator over undici's body cost a quarter of a send (bench/ab.js sender). */
  private read({ body, statusCode }: Dispatcher.ResponseData): void {
    const excerpt = new Excerpt();
    const done = () => this.settle(statusCode, null, excerpt.text());
    body.on('data', (chunk: Buffer) => {
      if (excerpt.take(chunk)) return;
      done();
      body.destroy();
    });
    body.on('end', done);
    // An answer cut short still counts as the answer it began as (its status and what came of its body).
    body.on('error', done);
  }

  /** Ends the send with `error` and aborts the request. */
  giveUp(error: string): void {
    this.settle(null, error, null);
    this.abort.abort(new Error(error));
  }

  /** The outcome, if none was given yet. */
  private settle(status: number | null, error: string | null, excerpt: string | null): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    this.under?.delete(this);
    this.resolve({ status, latencyMs: Math.round(performance.now() - this.started), error, excerpt });
  }

  /** The outcome of an attempt whose request failed before the answer's head with `error`. */
  private failed(error: unknown): void {
    if (error !== null && error === this.expiry) this.settle(null, timedOut(this.timeoutMs, 'answer'), null);
    else this.settle(null, describeSendError(error, undici().errors), null);
  }

  /**
   * Before the answer's head only undici knows whether the request has a connection yet. Aborted on
   * one, undici fails it with the deadline's reason within this turn's microtasks (`failed` says it
   * timed out waiting for the answer); still waiting for a connection (being opened, or all of the
   * origin's busy), it is dropped only when it gets one: it timed out connecting.
   */
  private expire(): void {
    if (this.answered) return this.giveUp(timedOut(this.timeoutMs, 'body'));
    this.expiry = new Error('the attempt ran out of time');
    this.abort.abort(this.expiry);
    setImmediate(() => this.settle(null, timedOut(this.timeoutMs, 'connect'), null));
  }
}

/** The start of an answer's body kept with the attempt, and how much of it was read. */
class Excerpt {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private read = 0;
  private cut = false;

  /** Keeps what fits of `chunk`; false once the body is read as far as the sender reads one. */
  take(chunk: Buffer): boolean {
    this.read += chunk.length;
    if (this.read > MAX_BODY_READ_BYTES) {
      this.cut = true;
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

  text(): string {
    return excerptText(this.chunks, this.cut);
  }
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
