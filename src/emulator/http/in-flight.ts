import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { ApiError } from '../../contract/errors.js';

/** What a stop did with the requests it found in flight. */
export interface SettleReport {
  /** Answered by their handler within the grace. */
  answered: number;
  /** Answered 503 service_stopping by the stop (their handler had not answered yet). */
  refused: number;
  /** Cut: their answer had started (a stream that did not end) and could not be finished. */
  cut: number;
}

/**
 * CHOICE-35, a clean stop: the emulator's request listener, counting what is in flight so that a
 * stop can let it finish (`settle`), and answering what arrives once stopping (on a kept-alive
 * connection) with 503 `service_stopping` and `Connection: close`.
 */
export class InFlightRequests {
  private readonly open = new Set<ServerResponse>();
  private stopping = false;
  private settled: (() => void) | null = null;
  private server: Server | null = null;

  get size(): number {
    return this.open.size;
  }

  wrap<L extends RequestListener>(listener: L): L {
    const tracked = (req: IncomingMessage, res: ServerResponse) => {
      if (this.stopping) return refuse(res);
      this.open.add(res);
      res.once('close', () => {
        this.open.delete(res);
        // Once stopping, a connection is closed as soon as its answer is out (a stream's included).
        const server = this.server;
        if (server) setImmediate(() => server.closeIdleConnections());
        if (this.open.size === 0) this.settled?.();
      });
      return listener(req, res);
    };
    return Object.assign(tracked, listener);
  }

  /**
   * Stops taking requests and waits up to `graceMs` for those in flight; then answers each one not
   * yet answered with 503 and cuts the rest. Every answer from now on closes its connection.
   */
  async settle(server: Server, graceMs: number): Promise<SettleReport> {
    this.stopping = true;
    this.server = server;
    const atStop = this.open.size;
    for (const res of this.open) if (!res.headersSent) res.setHeader('Connection', 'close');
    server.closeIdleConnections();
    if (this.open.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((done) => (this.settled = done)),
        new Promise<void>((done) => (timer = setTimeout(done, graceMs))),
      ]);
      clearTimeout(timer);
      this.settled = null;
    }
    const answered = atStop - this.open.size;
    let refused = 0;
    let cut = 0;
    for (const res of [...this.open]) {
      if (res.headersSent) {
        cut += 1;
        res.socket?.destroy();
      } else {
        refused += 1;
        refuse(res);
      }
      this.open.delete(res);
    }
    return { answered, refused, cut };
  }
}

/** 503 service_stopping, Connection: close; whatever the request's handler writes later goes nowhere. */
function refuse(res: ServerResponse): void {
  const error = new ApiError('service_stopping', 'The emulator is stopping; retry once it is running again.');
  const body = JSON.stringify(error.toBody());
  res.writeHead(error.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
  Object.assign(res, { writeHead: () => res, setHeader: () => res, flushHeaders: () => res, write: () => true, end: () => res });
}
