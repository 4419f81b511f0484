import { createWriteStream, type WriteStream } from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { CassetteExchange } from '../contract/conformance.js';
import { errorMessage } from '../util/caught.js';
import { listeningPort } from '../util/listening-port.js';
import { Redactor } from './redact.js';

export interface RecorderOptions {
  upstream: string;
  port: number;
  /** The NDJSON cassette; written as exchanges complete. */
  out: string;
  onExchange?(exchange: CassetteExchange): void;
}

/** Hop-by-hop headers a proxy never forwards. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'host',
  'content-length',
]);

const forwardable = (headers: http.IncomingHttpHeaders) => {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) out.append(name, item);
  }
  return out;
};

/**
 * `scanctl record`: a proxy on 127.0.0.1 in front of the service (or an emulator). Every request
 * is forwarded as it came and its answer returned as it came; the cassette gets each exchange
 * redacted (redact.ts), in the order the answers complete.
 */
export class Recorder {
  private seq = 0;
  private readonly redact = new Redactor();
  private startedAt = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: http.Server;
  private readonly cassette: WriteStream;
  url = '';

  constructor(private readonly options: RecorderOptions) {
    this.cassette = createWriteStream(options.out, { flags: 'w', mode: 0o600 });
    this.server = http.createServer((req, res) => {
      void this.forward(req, res);
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
    });
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    let response: Response;
    try {
      response = await fetch(new URL(path, this.options.upstream), {
        method,
        headers: forwardable(req.headers),
        body: body.length > 0 && method !== 'GET' && method !== 'HEAD' ? body : undefined,
        redirect: 'manual',
      });
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`scanctl record: the upstream did not answer (${errorMessage(error)})`);
      return;
    }
    const answer = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') headers[name] = value;
    });
    res.writeHead(response.status, headers).end(answer);
    this.seq += 1;
    const exchange: CassetteExchange = {
      seq: this.seq,
      at_ms: at,
      method,
      path: this.redact.path(path),
      request_headers: this.redact.headers(req.headers),
      request_body: body.length > 0 ? this.redact.body(body.toString('utf8')) : null,
      status: response.status,
      response_headers: this.redact.headers(response.headers),
      response_body: answer.length > 0 ? this.redact.body(answer.toString('utf8')) : null,
    };
    this.cassette.write(`${JSON.stringify(exchange)}\n`);
    this.options.onExchange?.(exchange);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await new Promise<void>((resolve) => this.cassette.end(() => resolve()));
  }
}
