import { request as httpRequest, type IncomingMessage } from 'node:http';

/**
 * What the client reads of an answer: a WHATWG `Response` has all of it, so tests keep passing
 * the emulator's `app.request`, and the CLI answers through `requestOverNode` below.
 */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  /** The body's bytes as they arrive (a Response's ReadableStream or a node stream); null for none. */
  readonly body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The part of `fetch`'s options the client sends. */
export interface HttpRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
  redirect?: 'manual';
  signal?: AbortSignal | undefined;
}

/** What sends the client's requests: `requestOverNode`, `fetch`, or the emulator's `app.request` in tests. */
export type FetchLike = (url: string, init: HttpRequestInit) => Promise<HttpAnswer>;

/** WHATWG `fetch` itself, where a caller needs the whole of its Request, Headers and Response. */
export type WebFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * `fetch`'s part that the CLI uses, on node:http. A command is one or two requests, and the first
 * `fetch` or `Response` of a process loads Node's bundled undici: about 40 ms, as long as a whole
 * `node -e 0` (docs/performance.md). Like fetch with `redirect: 'manual'` it follows no redirect;
 * like fetch it rejects with the signal's reason when aborted, and with an error whose `cause`
 * is the socket's error (ECONNREFUSED, ...) when the server cannot be reached.
 */
export const requestOverNode: FetchLike = (url, init) =>
  new Promise((resolve, reject) => {
    const { signal } = init;
    if (signal?.aborted) return reject(abortReason(signal));
    // node:https (and node:tls with it) only when asked for: most commands talk to a local emulator.
    const send = url.startsWith('https:') ? process.getBuiltinModule('node:https').request : httpRequest;
    const req = send(url, { method: init.method, headers: init.headers, signal }, (res) => resolve(answerOf(res, signal)));
    req.on('error', (error) => reject(signal?.aborted ? abortReason(signal) : new Error('request failed', { cause: error })));
    req.end(init.body);
  });

function answerOf(res: IncomingMessage, signal: AbortSignal | undefined): HttpAnswer {
  const bytes = async (): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) chunks.push(chunk);
    } catch (error) {
      throw signal?.aborted ? abortReason(signal) : error;
    }
    return Buffer.concat(chunks);
  };
  return {
    status: res.statusCode ?? 0,
    headers: {
      get(name) {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body: res,
    text: async () => (await bytes()).toString('utf8'),
    arrayBuffer: async () => {
      const buffer = await bytes();
      const copy = new ArrayBuffer(buffer.byteLength);
      new Uint8Array(copy).set(buffer);
      return copy;
    },
  };
}

/** What fetch rejects with when its signal aborts: the signal's reason (a TimeoutError for AbortSignal.timeout). */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('aborted', { cause: reason });
}
