import { OPS } from '../contract/operations/index.js';
import type { DeliveryStreamEvent, ListenerView } from '../contract/webhooks.js';
import { ApiClient, type FetchLike } from './api.js';
import { ConnectionError } from './http.js';

export interface StreamReady {
  object: 'webhook_stream';
  app_id: string;
  listener: ListenerView | null;
  effective_url: string | null;
}

export interface DeliveryStream {
  ready: StreamReady;
  /** Closes the connection (the emulator then removes the forward override). */
  close(): void;
  /** Resolves when the stream ends, for whatever reason. */
  done: Promise<void>;
}

/**
 * Opens the emulator's live delivery stream for an app; with `forward`, the app's deliveries go
 * to that URL while the stream is open. Resolves once the emulator said ready.
 */
export function openDeliveryStream(
  baseUrl: string,
  options: { appId: string; forward?: string | undefined },
  onEvent: (event: DeliveryStreamEvent) => void,
  fetchImpl?: FetchLike,
): Promise<DeliveryStream> {
  const abort = new AbortController();
  return new Promise((resolve, reject) => {
    let ready = false;
    const done = new ApiClient(baseUrl, fetchImpl)
      .stream(OPS.streamWebhookDeliveries, { query: { app_id: options.appId, forward: options.forward }, signal: abort.signal }, (event) => {
        if (event.event === 'ready' && !ready) {
          ready = true;
          resolve({ ready: event.data as StreamReady, close: () => abort.abort(), done: finished });
        } else if (event.event === 'delivery') onEvent(event.data as DeliveryStreamEvent);
      })
      .then(
        () => {
          if (!ready) reject(new ConnectionError(baseUrl, 'the delivery stream closed before it was ready'));
        },
        (error: unknown) => {
          if (!ready) reject(error);
        },
      );
    const finished = done.then(() => undefined);
  });
}
