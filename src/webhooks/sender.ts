import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher } from 'undici';
import { CHOICES } from '../contract/choices.js';
import { describeSendError, NO_UPGRADE, timedOut, type SendPhase } from './send-errors.js';
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
   * listener per signal, where EventTarget's add and remove for every send showed in profiles.
   */
  private readonly sendsBySignal = new WeakMap<AbortSignal, Set<Send>>();
  /** The webhook URLs it sends to, parsed once (the engine shares its own with its send slots). */
  constructor(private readonly targets = new WebhookTargets()) {}

  /**
   * One POST through undici's keep-alive pool for the URL's origin, with a handler of undici's
   * dispatch API (a third of http.request's CPU per send). Redirects are never followed (WH-7): a 3xx
   * is an answer like any other. The whole attempt (connect and TLS handshake, the answer's head and
   * its body) must finish within timeoutMs; an attempt that fails or times out closes its connection.
   * Never throws.
   */
  readonly send = (request: SendRequest): Promise<SendOutcome> => {
    const target = this.targets.of(request.url);
    if (!target) return Promise.resolve(early(`invalid webhook URL ${request.url.slice(0, 200)}`));
    if (request.signal?.aborted) return Promise.resolve(early(SHUTTING_DOWN));
    const headers = requestHeaders(target, request);
    if (headers === null) return Promise.resolve(early('a header value with a line break cannot be sent'));
    return new Promise((resolve) => {
      const send = new Send(request, resolve, request.signal ? this.sendsUnder(request.signal) : null);
      try {
        this.pools
          .poolFor(target.origin, request.timeoutMs)
          .dispatch({ path: target.path, method: 'POST', headers, body: request.body }, send);
      } catch (error) {
        send.giveUp(describeSendError(error, undici().errors));
      }
    });
  };

  /** Its connections now: in use, idle (kept alive), and requests waiting for one (tests count them for leaks). */
  openConnections(): { active: number; idle: number; queued: number } {
    return this.pools.openConnections();
  }

  /** Closes its pools at once (its owner calls it once its sends are over); a later send opens new ones. */
  close(): Promise<void> {
    return this.pools.close();
  }

  private sendsUnder(signal: AbortSignal): Set<Send> {
    let sends = this.sendsBySignal.get(signal);
    if (!sends) {
      const under = new Set<Send>();
      this.sendsBySignal.set(signal, (sends = under));
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
  private controller: Dispatcher.DispatchController | null = null;
  private phase: SendPhase = 'connect';
  private status: number | null = null;
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private read = 0;
  private cut = false;

  constructor(
    private readonly request: SendRequest,
    private readonly resolve: (outcome: SendOutcome) => void,
    /** The sends under the request's abort signal, if it has one: this one is among them until it settles. */
    private readonly under: Set<Send> | null,
  ) {
    this.timer = setTimeout(() => this.giveUp(timedOut(request.timeoutMs, this.phase)), request.timeoutMs);
    under?.add(this);
  }

  /**
   * Ends the send with `error` and closes its connection (undici destroys the socket of a request
   * aborted on it). One still waiting for a connection is aborted when it gets one; the connection
   * being opened closes at the pool's connect timeout.
   */
  giveUp(error: string): void {
    this.done(null, error, null);
    this.controller?.abort(new Error(error));
  }

  private done(status: number | null, error: string | null, excerpt: string | null): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.under?.delete(this);
    this.resolve({ status, latencyMs: Math.round(performance.now() - this.started), error, excerpt });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.settled) return controller.abort(new Error(this.request.signal?.aborted ? SHUTTING_DOWN : 'the attempt gave up'));
    this.controller = controller;
    this.phase = 'answer';
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    // No upgrade was asked for: a 101 is not an answer this client can read.
    if (statusCode === 101) return this.giveUp(NO_UPGRADE);
    // An interim 1xx (102, 103) is not the answer: the final one follows.
    if (statusCode >= 200) {
      this.status = statusCode;
      this.phase = 'body';
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.read += chunk.length;
    if (this.read > MAX_BODY_READ_BYTES) {
      // CHOICE-24: enough of it; the connection is closed rather than read to the end.
      this.cut = true;
      this.done(this.status, null, excerptText(this.chunks, this.cut));
      return controller.abort(new Error('the answer is read as far as the sender reads one'));
    }
    if (this.kept < RESPONSE_EXCERPT_BYTES) {
      const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
      if (part.length < chunk.length) this.cut = true;
    } else if (chunk.length > 0) this.cut = true;
  }

  onResponseEnd(): void {
    this.done(this.status, null, excerptText(this.chunks, this.cut));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    // An answer cut short still counts as the answer it began as (its status and what came of its body).
    if (this.status !== null) this.done(this.status, null, excerptText(this.chunks, this.cut));
    else this.done(null, describeSendError(error, undici().errors), null);
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
