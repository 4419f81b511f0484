import { createWriteStream, type WriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { CassetteExchange } from '../contract/conformance.js';
import { errorMessage } from '../util/caught.js';
import { listeningPort } from '../util/listening-port.js';
import { Redactor } from './redact.js';
import { endToEnd, readableBody, sendUpstream, UpstreamFailed, type UpstreamAnswer } from './upstream.js';

export interface RecorderOptions {
  upstream: string;
  port: number;
  /** The NDJSON cassette; written as exchanges complete. */
  out: string;
  /** From the request to the upstream's last byte; past it the client gets a 504. */
  upstreamTimeoutMs: number;
  onExchange?(exchange: CassetteExchange): void;
  /** An exchange the upstream did not complete: the client got `status` (502, 504) and the error body. */
  onUpstreamFailure?(failure: { method: string; path: string; status: number; reason: string }): void;
}

/** The error body of the service's interface (ERR-1), for an answer record gives itself. */
const errorBody = (code: string, message: string) => JSON.stringify({ error: { type: 'api_error', code, message } });

/**
 * `scanctl record`: a proxy on 127.0.0.1 in front of the service (or an emulator). Every request
 * is forwarded as it came (each header as many times as it came) and the upstream's whole answer
 * returned as it came; the cassette gets each exchange redacted (redact.ts), in the order the
 * answers complete. An upstream that fails or takes longer than the upstream timeout gets the
 * client a 502 or 504 in the error body, and is not recorded; `close()` ends everything at once.
 */
export class Recorder {
  private seq = 0;
  private readonly redact = new Redactor();
  private startedAt = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: http.Server;
  private readonly cassette: WriteStream;
  private readonly agent: http.Agent;
  private readonly stopping = new AbortController();
  private readonly upstream: URL;
  url = '';

  constructor(private readonly options: RecorderOptions) {
    this.upstream = new URL(options.upstream);
    this.agent = this.upstream.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.cassette = createWriteStream(options.out, { flags: 'w', mode: 0o600 });
    this.server = http.createServer((req, res) => {
      this.forward(req, res).catch((error: unknown) => {
        // Only the client's side can fail here (it went away): nothing to answer.
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
        res.end(errorBody('request_broken', `scanctl record: the request broke off (${errorMessage(error)})`));
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, '127.0.0.1', () => resolve());
    });
    this.url = `http://127.0.0.1:${listeningPort(this.server)}`;
    this.startedAt = Date.now();
    return this.url;
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const at = Date.now() - this.startedAt;
    const body = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
      req.on('close', () => {
        if (!req.complete) reject(new Error('the client closed the connection in the middle of its request'));
      });
    });
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    // Not accept-encoding: an answer the cassette can read (a compressed one is still decompressed for it).
    const requestHeaders = endToEnd(req.rawHeaders, ['accept-encoding']);
    let answer;
    try {
      answer = await sendUpstream(
        this.upstream,
        { method, path, headers: requestHeaders, body },
        { agent: this.agent, timeoutMs: this.options.upstreamTimeoutMs, signal: this.stopping.signal },
      );
    } catch (error) {
      const failed = error instanceof UpstreamFailed ? error : new UpstreamFailed(502, errorMessage(error));
      const code = failed.status === 504 ? 'upstream_timeout' : 'upstream_failed';
      res.writeHead(failed.status, { 'content-type': 'application/json' });
      res.end(errorBody(code, `scanctl record: ${this.options.upstream} gave no whole answer: ${failed.message}`));
      if (!this.stopping.signal.aborted)
        this.options.onUpstreamFailure?.({ method, path: this.redact.path(path), status: failed.status, reason: failed.message });
      return;
    }
    const flat = answer.headers.flat();
    res.writeHead(answer.status, [...flat, 'content-length', String(answer.body.length)]).end(answer.body);
    this.record({ at, answered: Date.now() - this.startedAt }, method, path, req.rawHeaders, body, answer);
  }

  private record(
    times: { at: number; answered: number },
    method: string,
    path: string,
    rawHeaders: string[],
    body: Buffer,
    answer: UpstreamAnswer,
  ) {
    // Stopping: the cassette is being closed, and an answer that completed meanwhile is not written.
    if (this.stopping.signal.aborted) return;
    this.seq += 1;
    const request = { seq: this.seq, ...times, method, path, headers: endToEnd(rawHeaders), body };
    const exchange = cassetteLine(this.redact, request, answer);
    this.cassette.write(`${JSON.stringify(exchange)}\n`);
    this.options.onExchange?.(exchange);
  }

  /** Stops at once, whatever the upstream is doing: requests in flight are abandoned (not recorded), the cassette is closed whole. */
  async close(): Promise<void> {
    this.stopping.abort();
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    await new Promise<void>((resolve) => this.cassette.end(() => resolve()));
  }
}

/** What came in, as the proxy read it: header pairs in their order, the body's bytes. */
export interface ProxiedRequest {
  seq: number;
  at: number;
  /** When the answer went back; absent, the exchange is written without it. */
  answered?: number;
  method: string;
  path: string;
  headers: ReadonlyArray<readonly [string, string]>;
  body: Buffer;
}

const headerOf = (pairs: ReadonlyArray<readonly [string, string]>, name: string) => pairs.find(([n]) => n.toLowerCase() === name)?.[1];

/** A body for the cassette: decompressed if it says it is, redacted by its content type; one that cannot be decompressed is not kept. */
function cassetteBody(redact: Redactor, body: Buffer, headers: ReadonlyArray<readonly [string, string]>): string | null {
  if (body.length === 0) return null;
  const readable = readableBody(body, headerOf(headers, 'content-encoding'));
  return readable === null ? '<undecodable>' : redact.body(readable.toString('utf8'), headerOf(headers, 'content-type'));
}

/** One exchange as the cassette keeps it (redact.ts): what `record` writes, a line per exchange. */
export function cassetteLine(redact: Redactor, request: ProxiedRequest, answer: UpstreamAnswer): CassetteExchange {
  return {
    seq: request.seq,
    at_ms: request.at,
    ...(request.answered === undefined ? {} : { answered_ms: request.answered }),
    method: request.method,
    path: redact.path(request.path),
    request_headers: redact.headers(request.headers),
    request_body: cassetteBody(redact, request.body, request.headers),
    status: answer.status,
    response_headers: redact.headers(answer.headers),
    response_body: cassetteBody(redact, answer.body, answer.headers),
  };
}
