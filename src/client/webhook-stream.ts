import { webhookOperations } from '../contract/operations/webhooks.js';
import type { WebhookEventType } from '../contract/webhooks.js';
import { WebhookStreamEvent, WebhookStreamReady, WebhookListenerEnded, WebhookListenerReplaced } from '../contract/webhook-stream.js';
import { StreamClosed } from '../contract/stream-closed.js';
import { ApiClient, streamData, type FetchLike } from './api.js';
import { ConnectionError } from './http.js';

/** Why a delivery stream ended: closed by us, taken over by another listener, ended by a state reset or import, or the emulator went away. */
export type StreamEnd =
  | { reason: 'closed' }
  | { reason: 'replaced'; event: WebhookListenerReplaced }
  | { reason: 'ended'; event: WebhookListenerEnded }
  | { reason: 'lost' }
  /** The emulator closed it and said why: serve stopping (CHOICE-35) or this subscriber fell behind (CHOICE-37). */
  | { reason: 'dropped'; event: StreamClosed };

/** What a stream tells besides deliveries, each followed by its end. */
export type StreamNotice = WebhookListenerReplaced | WebhookListenerEnded;

export interface DeliveryStream {
  ready: WebhookStreamReady;
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
  onEvent: (event: WebhookStreamEvent | StreamNotice) => void,
  fetchImpl?: FetchLike,
): Promise<DeliveryStream> {
  const abort = new AbortController();
  let notice: StreamNotice | null = null;
  let closedBy: StreamClosed | null = null;
  const query = { app_id: options.appId, forward: options.forward, events: options.events?.join(',') };
  return new Promise((resolve, reject) => {
    let ready = false;
    const done = new ApiClient(baseUrl, fetchImpl)
      .stream(webhookOperations.streamWebhookDeliveries, { query, signal: abort.signal }, (event) => {
        const op = webhookOperations.streamWebhookDeliveries;
        if (event.event === 'ready' && !ready) {
          const data = streamData(op, event, WebhookStreamReady);
          ready = true;
          resolve({ ready: data, close: () => abort.abort(), done: finished });
        } else if (event.event === 'delivery') onEvent(streamData(op, event, WebhookStreamEvent));
        else if (event.event === 'close') closedBy = streamData(op, event, StreamClosed);
        else if (event.event === 'replaced' || event.event === 'ended') {
          notice =
            event.event === 'replaced' ? streamData(op, event, WebhookListenerReplaced) : streamData(op, event, WebhookListenerEnded);
          onEvent(notice);
        }
      })
      .then(
        () => {
          if (!ready) reject(new ConnectionError(baseUrl, 'the delivery stream closed before it was ready'));
        },
        (error: unknown) => {
          if (!ready) reject(error instanceof Error ? error : new ConnectionError(baseUrl, String(error)));
        },
      );
    const finished = done.then((): StreamEnd => {
      const told = notice;
      if (told?.object === 'listener.replaced') return { reason: 'replaced', event: told };
      if (told?.object === 'listener.ended') return { reason: 'ended', event: told };
      if (closedBy) return { reason: 'dropped', event: closedBy };
      return abort.signal.aborted ? { reason: 'closed' } : { reason: 'lost' };
    });
  });
}
