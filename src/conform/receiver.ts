import http from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { listeningPort } from '../util/listening-port.js';

/** One request that reached the receiver: the bytes as received, before any parsing (WH-4). */
export interface Arrival {
  method: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  /** The answer it got. */
  status: number;
}

/**
 * The webhook receiver `conform` runs on 127.0.0.1 for the WH-* probes; the target reaches it at
 * --receiver-url (directly, or through a forwarder the user runs). It acknowledges with 200,
 * except a scan whose deliveries the probe wants refused (500), to see the retries.
 */
export class ConformReceiver {
  readonly arrivals: Arrival[] = [];
  /** scan_ids whose deliveries are answered 500. */
  readonly refuse = new Set<string>();
  private readonly sockets = new Set<Socket>();
  private readonly server: http.Server;

  private constructor(readonly url: string) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const text = raw.toString('utf8');
        const status = [...this.refuse].some((scanId) => text.includes(`"${scanId}"`)) ? 500 : 200;
        this.arrivals.push({ method: req.method ?? '', headers: req.headers, raw, status });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'refused by scanctl conform');
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens on 127.0.0.1:port (0: any); `publicUrl` is what the target is told (default: this address). */
  static async start(port: number, publicUrl?: string): Promise<ConformReceiver> {
    const receiver = new ConformReceiver(publicUrl ?? '');
    await new Promise<void>((resolve, reject) => {
      receiver.server.once('error', reject);
      receiver.server.listen(port, '127.0.0.1', () => resolve());
    });
    const bound = listeningPort(receiver.server);
    return publicUrl ? receiver : Object.assign(receiver, { url: `http://127.0.0.1:${bound}/webhooks` });
  }

  /** The arrivals whose body names this scan. */
  forScan(scanId: string): Arrival[] {
    return this.arrivals.filter((a) => a.raw.toString('utf8').includes(`"${scanId}"`));
  }

  /** Waits (real time, bounded) until `count` arrivals name the scan; those seen by then. */
  async waitForScan(scanId: string, count: number, timeoutMs: number): Promise<Arrival[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.forScan(scanId).length < count && Date.now() < deadline) await sleep(25);
    return this.forScan(scanId);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
