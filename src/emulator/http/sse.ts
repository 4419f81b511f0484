import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { CHOICES } from '../../contract/choices.js';
import type { StreamClosed } from '../../contract/stream-closed.js';

/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
const SSE_KEEP_ALIVE_MS = 15_000;
/** After the last event was queued on a dropped stream, the connection is cut if it has not gone out by then (real ms). */
const SSE_LAST_EVENT_GRACE_MS = 1_000;
const KEEP_ALIVE = Buffer.from(': keep-alive\n\n');

export interface SseChannel {
  /** Queues one event; writes happen in order, one at a time. */
  send(event: string, data: unknown, id?: string): void;
  /** Resolves once everything queued so far is written. */
  flushed(): Promise<void>;
  /** Ends the stream from the server's side once everything queued so far is written. */
  close(): void;
}

/** The streams open on one emulator, so that a stop can end each with a last event. */
export class OpenStreams {
  private readonly enders = new Set<(reason: StreamClosed['reason']) => void>();
  get size(): number {
    return this.enders.size;
  }
  add(end: (reason: StreamClosed['reason']) => void): () => void {
    this.enders.add(end);
    return () => this.enders.delete(end);
  }
  /** Every open stream gets its `close` event after what it has queued, then closes. */
  endAll(reason: StreamClosed['reason']): void {
    for (const end of [...this.enders]) end(reason);
  }
}

const MESSAGES: Record<StreamClosed['reason'], string> = {
  server_stopping: 'The emulator is stopping.',
  subscriber_too_slow: `This subscriber fell more than ${CHOICES.streamBufferBytes} bytes behind and was dropped; reconnect to follow again.`,
};

// One encoding per event, however many subscribers get it (a delivery goes to every stream of its app): the
// queues and socket writes of many subscribers then share its bytes instead of encoding a copy each.
const encoder = new TextEncoder();
const serialized = new WeakMap<object, { event: string; id: string | undefined; bytes: Uint8Array }>();
function eventBytes(event: string, data: unknown, id?: string): Uint8Array {
  if (data === null || typeof data !== 'object') return encoder.encode(sseText(event, JSON.stringify(data), id));
  const known = serialized.get(data);
  if (known && known.event === event && known.id === id) return known.bytes;
  const bytes = encoder.encode(sseText(event, JSON.stringify(data), id));
  serialized.set(data, { event, id, bytes });
  return bytes;
}

/**
 * A server-sent event stream: `open` subscribes to what it streams and returns its cleanup, which
 * runs once the client goes away. Every stream of the emulator is built with this, so they share
 * one keep-alive, one way of ending and one back-pressure bound: CHOICE-37, a subscriber whose
 * unsent events pass CHOICES.streamBufferBytes is dropped (its queue is let go at once; a `close`
 * event says why if the connection takes it within SSE_LAST_EVENT_GRACE_MS, else it is cut).
 */
export function sseResponse(
  c: Context,
  streams: OpenStreams,
  open: (channel: SseChannel) => Promise<(() => void) | void> | (() => void) | void,
): Response {
  return streamSSE(c, async (stream) => {
    const queue: Uint8Array[] = [];
    let queuedBytes = 0;
    let pumping: Promise<void> | null = null;
    let ending = false;
    // What the subscriber asked for at connect (a request log backlog) is not held against it; what streams after is.
    let bounded = false;
    let end = () => {};
    const closed = new Promise<void>((done) => {
      end = done;
      stream.onAbort(done);
      c.req.raw.signal?.addEventListener('abort', () => done(), { once: true });
    });
    const pump = () => {
      if (pumping) return;
      pumping = (async () => {
        while (queue.length > 0) {
          const bytes = queue.shift()!;
          queuedBytes -= bytes.byteLength;
          await stream.write(bytes);
        }
      })();
      void pumping.then(() => {
        pumping = null;
        if (queue.length > 0) pump();
        else if (ending) end();
      });
    };
    const enqueue = (bytes: Uint8Array) => {
      queue.push(bytes);
      queuedBytes += bytes.byteLength;
      pump();
    };
    let graceTimer: NodeJS.Timeout | undefined;
    let cleanup: (() => void) | void = undefined;
    // Unsubscribes once: at the end the stream chose, or when the client went away.
    const release = () => {
      const done = cleanup;
      cleanup = undefined;
      done?.();
    };
    const finish = (reason: StreamClosed['reason']) => {
      if (ending) return;
      release();
      if (reason === 'subscriber_too_slow') {
        queue.length = 0;
        queuedBytes = 0;
        // The socket itself is full: cut it if the last event cannot go out soon.
        graceTimer = setTimeout(
          // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- @hono/node-server's bindings; absent under app.request() in tests
          () => (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket?.destroy(),
          SSE_LAST_EVENT_GRACE_MS,
        );
      }
      enqueue(eventBytes('close', { object: 'stream.closed', reason, message: MESSAGES[reason] } satisfies StreamClosed));
      ending = true;
    };
    const channel: SseChannel = {
      send: (event, data, id) => {
        if (ending) return;
        enqueue(eventBytes(event, data, id));
        if (bounded && queuedBytes > CHOICES.streamBufferBytes) finish('subscriber_too_slow');
      },
      flushed: async () => {
        while (pumping) await pumping;
      },
      close: () => {
        if (ending) return;
        ending = true;
        pump();
      },
    };
    const keepAlive = setInterval(() => {
      if (!ending && queue.length === 0) enqueue(KEEP_ALIVE);
    }, SSE_KEEP_ALIVE_MS);
    const unregister = streams.add(finish);
    try {
      cleanup = await open(channel);
      // Ended while opening (serve stopping): unsubscribe now.
      if (ending) release();
      bounded = true;
      await closed;
    } finally {
      clearInterval(keepAlive);
      clearTimeout(graceTimer);
      unregister();
      queue.length = 0;
      release();
    }
  });
}

/** One event as text/event-stream (data is JSON: one line). */
function sseText(event: string, data: string, id?: string): string {
  return `event: ${event}\ndata: ${data}\n${id === undefined ? '' : `id: ${id}\n`}\n`;
}
