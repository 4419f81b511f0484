import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { errorCode, errorMessage } from '../util/caught.js';

/** Hop-by-hop headers a proxy never forwards (and those it sets itself: host, content-length). */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
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

/** Header pairs in the order they came, a repeated header once per value; hop-by-hop ones (and those `Connection` names) left out. */
export function endToEnd(rawHeaders: readonly string[], alsoDrop: readonly string[] = []): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) pairs.push([rawHeaders[i]!, rawHeaders[i + 1]!]);
  const named = pairs
    .filter(([name]) => name.toLowerCase() === 'connection')
    .flatMap(([, value]) => value.split(',').map((token) => token.trim().toLowerCase()));
  const drop = new Set([...HOP_BY_HOP, ...named, ...alsoDrop]);
  return pairs.filter(([name]) => !drop.has(name.toLowerCase()));
}

/** What the upstream answered, whole: its status, its header pairs and every byte of its body. */
export interface UpstreamAnswer {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

/** Why no whole answer came: 504 when the upstream timeout passed, 502 otherwise (refused, reset, closed mid-body). */
export class UpstreamFailed extends Error {
  constructor(
    readonly status: 502 | 504,
    reason: string,
  ) {
    super(reason);
    this.name = 'UpstreamFailed';
  }
}

/**
 * Sends one request upstream and reads its whole answer, within `timeoutMs` from the request to
 * the last byte of the answer; `signal` aborts it (record is stopping). Never throws anything
 * but an UpstreamFailed.
 */
export function sendUpstream(
  upstream: URL,
  request: { method: string; path: string; headers: Array<[string, string]>; body: Buffer },
  options: { agent: http.Agent; timeoutMs: number; signal: AbortSignal },
): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    const headers: string[] = ['host', upstream.host];
    for (const [name, value] of request.headers) headers.push(name, value);
    const sendsBody = request.body.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(request.method);
    if (sendsBody) headers.push('content-length', String(request.body.length));
    const transport = upstream.protocol === 'https:' ? https : http;
    let settled = false;
    const fail = (status: 502 | 504, reason: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(new UpstreamFailed(status, reason));
    };
    const timer = setTimeout(() => fail(504, `no whole answer within ${options.timeoutMs} ms`), options.timeoutMs);
    const onAbort = () => fail(502, 'record is stopping');
    options.signal.addEventListener('abort', onAbort, { once: true });
    const req = transport.request(
      {
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.path,
        headers,
        agent: options.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => fail(502, `the answer broke off (${errorCode(error) ?? errorMessage(error)})`));
        res.on('close', () => {
          if (!res.complete) fail(502, 'the upstream closed the connection in the middle of the answer');
        });
        res.on('end', () => {
          if (settled) return;
          if (!res.complete) return fail(502, 'the upstream closed the connection in the middle of the answer');
          settled = true;
          clearTimeout(timer);
          options.signal.removeEventListener('abort', onAbort);
          resolve({ status: res.statusCode ?? 502, headers: endToEnd(res.rawHeaders), body: Buffer.concat(chunks) });
        });
      },
    );
    req.on('error', (error) => fail(502, `the upstream did not answer (${errorCode(error) ?? errorMessage(error)})`));
    req.end(sendsBody ? request.body : undefined);
  });
}

/**
 * A body as the cassette sees it: decompressed when its content-encoding says so; null when that
 * encoding cannot be undone (it is then left out rather than kept in a form the redactor cannot read).
 */
export function readableBody(body: Buffer, contentEncoding: string | undefined): Buffer | null {
  const encoding = contentEncoding?.trim().toLowerCase() ?? 'identity';
  try {
    if (encoding === 'identity' || encoding === '') return body;
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body);
    if (encoding === 'deflate') return inflateSync(body);
    if (encoding === 'br') return brotliDecompressSync(body);
  } catch {
    return null;
  }
  return null;
}
