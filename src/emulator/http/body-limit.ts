import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../contract/errors.js';
import type { AppEnv } from './app-env.js';

/**
 * The body size limit (413 body_too_large), as hono's bodyLimit decides it, without its cost on
 * every request through a socket: hono's reads `c.req.raw.body`, which makes @hono/node-server
 * build a full Request, body stream and AbortController even for a GET. A request from a socket
 * with no body (GET, HEAD, TRACE) or a Content-Length (and no Transfer-Encoding) is decided from
 * its headers alone, exactly as hono would; any other request goes through hono's bodyLimit.
 * A body whose length the headers vouch for is then read straight from the socket (readBodyBytes):
 * hono's own path (bodyLimit and c.req.arrayBuffer for every POST) measured 0.36x of a bare hono
 * route against this one's 0.60x (bench sessions-throughput, A/B in bench/RESULTS.md).
 */
export function limitBodies(defaultMaxBytes: number, ownLimits: ReadonlyMap<string, number>): MiddlewareHandler<AppEnv> {
  const limiters = new Map<number, MiddlewareHandler>();
  const limiter = (maxSize: number) => {
    let limit = limiters.get(maxSize);
    if (!limit) {
      limit = bodyLimit({ maxSize, onError: () => tooLarge(maxSize) });
      limiters.set(maxSize, limit);
    }
    return limit;
  };
  return (c, next) => {
    const maxSize = ownLimits.get(c.req.path) ?? defaultMaxBytes;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- @hono/node-server's bindings; absent under app.request() in tests
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (!incoming) return limiter(maxSize)(c, next);
    const method = incoming.method;
    if (method === 'GET' || method === 'HEAD' || method === 'TRACE') return next();
    const length = incoming.headers['content-length'];
    if (length === undefined || incoming.headers['transfer-encoding'] !== undefined) return limiter(maxSize)(c, next);
    if (parseInt(length || '0', 10) > maxSize) tooLarge(maxSize);
    c.set('bodyFrom', incoming);
    return next();
  };
}

function tooLarge(maxSize: number): never {
  throw new ApiError('body_too_large', `The request body is larger than ${maxSize} bytes.`);
}

/** The request body's bytes: from the socket when limitBodies vouched for it, else through hono. */
export async function readBodyBytes(c: Context<AppEnv>): Promise<Uint8Array> {
  const incoming = c.get('bodyFrom');
  if (!incoming) return new Uint8Array(await c.req.arrayBuffer());
  if (incoming.destroyed) throw new ApiError('request_malformed', 'The request body did not arrive: the connection closed.');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    incoming.once('error', reject);
  });
}
