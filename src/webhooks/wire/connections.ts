import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** What a connection is lent to: one request and its answer at a time. */
export interface Borrower {
  /** The connection is open and the borrower's: write the request. */
  lent(conn: Connection): void;
  /** No connection could be opened (refused, no such host, TLS refused...). */
  unreachable(error: Error): void;
  data(chunk: Buffer): void;
  /** The receiver ended its side, or the connection closed or failed. */
  gone(error: Error | null): void;
}

/** Idle connections are not used again past this (real ms) unless the receiver said how long it keeps them. */
const IDLE_MS = 4_000;
/** Given `Keep-Alive: timeout=N`, a connection idle for N minus this is closed rather than raced. */
const KEEP_ALIVE_MARGIN_MS = 1_000;

/** One TCP (or TLS) connection to a receiver, with its listeners set once: they hand events to whoever borrows it. */
export class Connection {
  borrower: Borrower | null = null;
  idleUntil = 0;

  constructor(readonly socket: Socket, private readonly origin: Origin) {
    socket.on('data', (chunk: Buffer) => {
      if (this.borrower) this.borrower.data(chunk);
      else socket.destroy(); // bytes no request asked for
    });
    socket.on('end', () => this.borrower?.gone(null));
    socket.on('error', (error) => this.borrower?.gone(error));
    socket.on('close', () => {
      this.borrower?.gone(null);
      this.borrower = null;
      origin.closed(this);
    });
  }

  /** The borrower is done with it: kept for the next request when `reusable`, else closed. */
  release(reusable: boolean, keepAliveMs: number | null): void {
    this.borrower = null;
    this.origin.released(this, reusable, keepAliveMs);
  }
}

/** Where an origin's connections go: host, port, and whether it speaks TLS. */
export interface Endpoint {
  host: string;
  port: number;
  tls: boolean;
}

/**
 * The keep-alive connections to one receiver origin: at most `max` open, the most recently used
 * idle one lent first, borrowers beyond `max` waiting in order. An idle connection is closed rather
 * than used once it has been idle for as long as the receiver keeps one (its Keep-Alive hint less a
 * second, else IDLE_MS), so a request does not race the receiver closing it. Idle sockets hold no
 * reference on the event loop: a command that sent something exits when it is done.
 */
export class Origin {
  private readonly idle: Connection[] = [];
  private readonly waiting: Borrower[] = [];
  private open = 0;
  private closing = false;

  constructor(
    private readonly endpoint: Endpoint,
    private readonly max: number,
  ) {}

  borrow(borrower: Borrower): void {
    const now = performance.now();
    while (this.idle.length > 0) {
      const conn = this.idle.pop()!;
      if (conn.idleUntil > now && !conn.socket.destroyed) {
        conn.borrower = borrower;
        borrower.lent(conn);
        return;
      }
      conn.socket.destroy();
    }
    if (this.open < this.max) this.dial(borrower);
    else this.waiting.push(borrower);
  }

  /** A borrower that gave up while waiting for a connection. */
  forget(borrower: Borrower): void {
    const at = this.waiting.indexOf(borrower);
    if (at >= 0) this.waiting.splice(at, 1);
  }

  /** Closes the idle connections and lends no more (the origin was evicted); those lent finish. */
  close(): void {
    this.closing = true;
    for (const conn of this.idle.splice(0)) conn.socket.destroy();
  }

  released(conn: Connection, reusable: boolean, keepAliveMs: number | null): void {
    const keepMs = keepAliveMs === null ? IDLE_MS : keepAliveMs - KEEP_ALIVE_MARGIN_MS;
    if (!reusable || conn.socket.destroyed || keepMs <= 0 || this.closing) {
      conn.socket.destroy(); // closed() then lends a new connection to a waiter
      return;
    }
    const next = this.waiting.shift();
    if (next) {
      conn.borrower = next;
      next.lent(conn);
      return;
    }
    conn.idleUntil = performance.now() + keepMs;
    this.idle.push(conn);
  }

  closed(conn: Connection | null): void {
    this.open -= 1;
    const at = conn ? this.idle.indexOf(conn) : -1;
    if (at >= 0) this.idle.splice(at, 1);
    const next = this.waiting.shift();
    if (next) this.dial(next);
  }

  private dial(borrower: Borrower): void {
    this.open += 1;
    const { host, port, tls } = this.endpoint;
    const socket = tls
      ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] })
      : tcpConnect({ host, port });
    socket.setNoDelay(true);
    socket.unref();
    const ready = tls ? 'secureConnect' : 'connect';
    let conn: Connection | null = null;
    const failed = (error: Error) => {
      socket.off(ready, connected);
      socket.destroy();
      borrower.unreachable(error);
    };
    const connected = () => {
      socket.off('error', failed);
      conn = new Connection(socket, this);
      conn.borrower = borrower;
      borrower.lent(conn);
    };
    socket.once(ready, connected);
    socket.once('error', failed);
    // Closed before it connected (after an error): one fewer open. After, the Connection says so.
    socket.once('close', () => {
      if (!conn) this.closed(null);
    });
  }
}
