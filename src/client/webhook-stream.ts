import { OPS } from '../contract/operations/index.js';
import type { DeliveryStreamEvent, DeliveryStreamReady, ListenerReplacedEvent, WebhookEventType } from '../contract/webhooks.js';
import { ApiClient, type FetchLike } from './api.js';
import { ConnectionError } from './http.js';

/** Why a delivery stream ended: closed by us, taken over by another listener, or the emulator went away. */
export type StreamEnd = { reason: 'closed' } | { reason: 'replaced'; event: ListenerReplacedEvent } | { reason: 'lost' };

export interface DeliveryStream {
  ready: DeliveryStreamReady;
  /** Closes the connection (the emulator then removes the forward override). */
  close(): void;
  /** Resolves when the stream ends, with why. */
  done: Promise<StreamEnd>;
}

export interface DeliveryStreamOptions {
  appId: string;
  forward?: string | undefined;
  /** Only these event types are streamed (and forwarded); undefined: all. */
  events?: readonly WebhookEventType[] | undefined;
}

/**
 * Opens the emulator's live delivery stream for an app; with `forward`, the app's deliveries go
 * to that URL while the stream is open. Resolves once the emulator said ready.
 */
export function openDeliveryStream(
  baseUrl: string,
  options: DeliveryStreamOptions,
  onEvent: (event: DeliveryStreamEvent | ListenerReplacedEvent) => void,
  fetchImpl?: FetchLike,
): Promise<DeliveryStream> {
  const abort = new AbortController();
  let replaced: ListenerReplacedEvent | null = null;
  const query = { app_id: options.appId, forward: options.forward, events: options.events?.join(',') };
  return new Promise((resolve, reject) => {
    let ready = false;
    const done = new ApiClient(baseUrl, fetchImpl)
      .stream(OPS.streamWebhookDeliveries, { query, signal: abort.signal }, (event) => {
        if (event.event === 'ready' && !ready) {
          ready = true;
          resolve({ ready: event.data as DeliveryStreamReady, close: () => abort.abort(), done: finished });
        } else if (event.event === 'delivery') onEvent(event.data as DeliveryStreamEvent);
        else if (event.event === 'replaced') {
          replaced = event.data as ListenerReplacedEvent;
          onEvent(replaced);
        }
      })
      .then(
        () => {
          if (!ready) reject(new ConnectionError(baseUrl, 'the delivery stream closed before it was ready'));
        },
        (error: unknown) => {
          if (!ready) reject(error);
        },
      );
    const finished = done.then((): StreamEnd => {
      if (replaced) return { reason: 'replaced', event: replaced };
      return abort.signal.aborted ? { reason: 'closed' } : { reason: 'lost' };
    });
  });
}
