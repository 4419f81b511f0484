import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';

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

const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One POST with `http.request` over a keep-alive agent (ARCHITECTURE.md: much faster than fetch
 * here). Redirects are never followed (WH-7): a 3xx is an answer like any other. The whole
 * attempt, answer included, must finish within timeoutMs. Never throws.
 */
export function sendOnce(request: SendRequest): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: Omit<SendOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The signal may be shared by many sends: leave no listener behind.
      request.signal?.removeEventListener('abort', onAbort);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    const target = parseTarget(request.url);
    if (!target) {
      resolve({ status: null, latencyMs: 0, error: `invalid webhook URL ${request.url.slice(0, 200)}`, excerpt: null });
      return;
    }
    const onAbort = () => {
      done({ status: null, error: 'aborted: the emulator is shutting down', excerpt: null });
      req.destroy();
    };
    const req = (target.https ? https : http).request({
      ...target.options,
      method: 'POST',
      agent: target.https ? httpsAgent : httpAgent,
      headers: { ...request.headers, 'content-length': String(request.body.length) },
    });
    const timer = setTimeout(() => {
      done({ status: null, error: `timed out after ${request.timeoutMs} ms`, excerpt: null });
      req.destroy();
    }, request.timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_EXCERPT_BYTES) {
          const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept);
          chunks.push(part);
          kept += part.length;
        }
      });
      const finish = (error: string | null) =>
        done({ status: res.statusCode ?? null, error, excerpt: chunks.length ? Buffer.concat(chunks).toString('utf8') : '' });
      res.on('end', () => finish(null));
      res.on('error', () => finish(null));
      res.on('aborted', () => finish(null));
    });
    if (request.signal) {
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener('abort', onAbort, { once: true });
    }
    req.on('error', (error: NodeJS.ErrnoException) => {
      done({ status: null, error: describe(error), excerpt: null });
    });
    req.end(request.body);
  });
}

interface Target {
  https: boolean;
  options: http.RequestOptions;
}
/** Parsed webhook URLs (a handful per process): parsing a URL on every attempt showed in profiles. */
const targets = new Map<string, Target | null>();
const MAX_TARGETS = 256;

function parseTarget(raw: string): Target | null {
  let target = targets.get(raw);
  if (target !== undefined) return target;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    target = { https: url.protocol === 'https:', options: urlToHttpOptions(url) };
  } catch {
    target = null;
  }
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(raw, target);
  return target;
}

function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
      return 'host not found';
    case 'EPIPE':
      return 'connection closed while sending';
    default:
      return (error.code ? `${error.code}: ` : '') + error.message.slice(0, 200);
  }
}
