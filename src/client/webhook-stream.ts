import http from 'node:http';
import https from 'node:https';
import { CONTROL_PREFIX } from '../contract/control.js';
import type { ErrorBody } from '../contract/errors.js';
import type { DeliveryStreamEvent, ListenerView } from '../contract/webhooks.js';
import { ApiCallError, ConnectionError } from './http.js';

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
 * Opens the emulator's live delivery stream (Server-Sent Events) for an app; with `forward`, the
 * app's deliveries go to that URL while the stream is open. Resolves once the emulator said ready.
 */
export function openDeliveryStream(
  baseUrl: string,
  options: { appId: string; forward?: string | undefined },
  onEvent: (event: DeliveryStreamEvent) => void,
): Promise<DeliveryStream> {
  const url = new URL(`${CONTROL_PREFIX}/webhooks/stream`.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.searchParams.set('app_id', options.appId);
  if (options.forward) url.searchParams.set('forward', options.forward);
  return new Promise((resolve, reject) => {
    let settled = false;
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    const req = (url.protocol === 'https:' ? https : http).get(url, { headers: { accept: 'text/event-stream' } }, (res) => {
      res.setEncoding('utf8');
      if ((res.statusCode ?? 0) >= 300) {
        let text = '';
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let error: ErrorBody['error'] | null = null;
          try {
            error = (JSON.parse(text) as ErrorBody).error ?? null;
          } catch {
            error = null;
          }
          settled = true;
          reject(new ApiCallError(res.statusCode ?? 0, error, 'GET', url.pathname, new Headers()));
          finish();
        });
        return;
      }
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (data.length === 0) continue;
          const payload = JSON.parse(data.join('\n')) as unknown;
          if (event === 'ready' && !settled) {
            settled = true;
            resolve({ ready: payload as StreamReady, close: () => req.destroy(), done });
          } else if (event === 'delivery') onEvent(payload as DeliveryStreamEvent);
        }
      });
      res.on('end', finish);
      res.on('close', finish);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish();
      if (!settled) {
        settled = true;
        reject(new ConnectionError(baseUrl, error.code ?? error.message));
      }
    });
  });
}
