import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';

/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
export const SSE_KEEP_ALIVE_MS = 15_000;

export interface SseChannel {
  /** Queues one event; writes happen in order, one at a time. */
  send(event: string, data: unknown, id?: string): void;
  /** Resolves once everything queued so far is written. */
  flushed(): Promise<void>;
  /** Ends the stream from the server's side once everything queued so far is written. */
  close(): void;
}

/**
 * A server-sent event stream: `open` subscribes to what it streams and returns its cleanup, which
 * runs once the client goes away. Every stream of the emulator is built with this, so they share
 * one keep-alive and one way of ending.
 */
export function sseResponse(c: Context, open: (channel: SseChannel) => Promise<(() => void) | void> | (() => void) | void): Response {
  return streamSSE(c, async (stream) => {
    let writing: Promise<void> = Promise.resolve();
    const write = (step: () => Promise<void>) => {
      writing = writing.then(step).catch(() => undefined);
    };
    let end = () => {};
    const closed = new Promise<void>((done) => {
      end = done;
      stream.onAbort(done);
      c.req.raw.signal?.addEventListener('abort', () => done(), { once: true });
    });
    const channel: SseChannel = {
      send: (event, data, id) => write(() => stream.writeSSE({ event, data: JSON.stringify(data), ...(id === undefined ? {} : { id }) })),
      flushed: () => writing,
      close: () => write(async () => end()),
    };
    const keepAlive = setInterval(() => write(() => stream.write(': keep-alive\n\n').then(() => undefined)), SSE_KEEP_ALIVE_MS);
    let cleanup: (() => void) | void = undefined;
    try {
      cleanup = await open(channel);
      await closed;
    } finally {
      clearInterval(keepAlive);
      cleanup?.();
    }
  });
}
