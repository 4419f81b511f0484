import type { MiddlewareHandler } from 'hono';
import { IncomingMessage } from 'node:http';
import { CHOICES } from '../../contract/choices.js';
import type { AppEnv } from './app-env.js';

/**
 * Lingering close (CHOICE-57), as nginx does it: an answer given before its request's body was read
 * (413 body_too_large from the Content-Length) goes out at once, with Connection: close, but its end
 * (after which Node closes the connection) waits until the rest of the body has been read and
 * dropped, or the bound passed. Closing a socket with unread bytes resets the connection, and a
 * client that writes its whole body before reading (Python's urllib) then gets a broken pipe
 * instead of the answer.
 */
export function lingerOnUnreadBody(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    // Only a body refused for its size: any other early answer (a 401 before the body is read) lets
    // Node drain the body itself and keep the connection, so what follows on it is still parsed.
    if (c.res.status !== 413) return;
    const incoming = incomingOf(c.env);
    if (!incoming || incoming.method === 'GET' || incoming.method === 'HEAD') return;
    if (incoming.complete || incoming.destroyed || incoming.readableFlowing) return;
    const answer = new Uint8Array(await c.res.arrayBuffer());
    const drained = discardRest(incoming);
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(answer),
      pull: async (controller) => {
        await drained;
        controller.close();
      },
    });
    const headers = new Headers(c.res.headers);
    headers.set('content-length', String(answer.byteLength));
    headers.set('connection', 'close');
    c.res = new Response(body, { status: c.res.status, headers });
  };
}

function incomingOf(env: unknown): IncomingMessage | undefined {
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined;
  return env.incoming instanceof IncomingMessage ? env.incoming : undefined;
}

/** Reads the rest of a request's body and drops it; resolves at its end, or once the bound is passed. */
function discardRest(incoming: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      incoming.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > CHOICES.lingerOnUnreadBodyBytes) done();
    };
    const timer = setTimeout(done, CHOICES.lingerOnUnreadBodyMs);
    incoming.on('data', onData);
    incoming.once('end', done);
    incoming.once('close', done);
    incoming.once('error', done);
  });
}
