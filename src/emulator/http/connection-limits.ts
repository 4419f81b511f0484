import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../../util/logger.js';
import { onceAMinute } from '../../util/once-a-minute.js';

/**
 * CHOICE-39: serve's bounds on connections. A request's head must arrive within 10 s and the whole
 * request within 30 s (else 408 request_timeout, CHOICE-16); a kept-alive connection idle for 5 s
 * is closed; Node checks these every second. At most `maxConnections` are open at once.
 */
export const CONNECTION_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkEveryMs: 1_000,
} as const;

/** The process's soft limit on open files (RLIMIT_NOFILE), or null when it cannot be read. */
export function openFileLimit(): number | null {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (line) return line[1] === 'unlimited' ? Infinity : Number(line[1]);
  } catch {
    // Not Linux: ask a shell, which has the same limits as this process.
  }
  try {
    const value = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8', timeout: 2_000 }).trim();
    return value === 'unlimited' ? Infinity : Number(value) || null;
  } catch {
    return null;
  }
}

/**
 * Three quarters of the file limit, less 32, between 16 and 16,384: the rest is for the database
 * and its WAL, the webhook sends (32 at once) and their kept-alive connections, stdio and Node's own.
 * 1,024 files: 736 connections. An unknown limit counts as 1,024.
 */
export function maxConnectionsFor(fileLimit: number | null): number {
  const files = fileLimit ?? 1024;
  return Math.max(16, Math.min(16_384, Math.floor((files * 3) / 4) - 32));
}

/**
 * Applies CHOICE-39 to serve's server. At the connection limit a new connection closes the oldest
 * one with no request in flight (a connection that never sent one, or a kept-alive one between
 * requests), so idle connections cannot lock other clients out; when every open connection has a
 * request in flight, the new one is closed at once. Each kind of closing is logged, once a minute at most.
 */
export function limitConnections(server: Server, maxConnections: number, logger: Logger): void {
  server.headersTimeout = CONNECTION_LIMITS.headersTimeoutMs;
  server.requestTimeout = CONNECTION_LIMITS.requestTimeoutMs;
  server.keepAliveTimeout = CONNECTION_LIMITS.keepAliveTimeoutMs;
  const say = onceAMinute((line) => logger.info(`connections: ${line}`));
  // Oldest activity first (a Map keeps insertion order; a request moves its connection to the end).
  const open = new Map<Socket, { busy: number }>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= maxConnections) {
      const idle = [...open].find(([, state]) => state.busy === 0)?.[0];
      if (!idle) {
        socket.destroy();
        say('refused', `${maxConnections} open connections (the limit), each with a request in flight: closed a new one`);
        return;
      }
      open.delete(idle);
      idle.destroy();
      say('evicted', `${maxConnections} open connections (the limit): closed the longest idle one for a new one`);
    }
    open.set(socket, { busy: 0 });
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = open.get(req.socket);
    if (!state) return;
    open.delete(req.socket);
    open.set(req.socket, state);
    state.busy += 1;
    res.once('close', () => (state.busy -= 1));
  });
  server.on('clientError', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      say(
        'timeout',
        `closed a connection whose request did not arrive within ${CONNECTION_LIMITS.headersTimeoutMs / 1000} s (head) or ${CONNECTION_LIMITS.requestTimeoutMs / 1000} s (whole): 408 request_timeout`,
      );
    }
  });
}
