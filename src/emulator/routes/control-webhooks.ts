import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { CONTROL_PREFIX } from '../../contract/control.js';
import { ApiError } from '../../contract/errors.js';
import { DeliveryListQuery, SigningSecretRequest, StreamQuery, type DeliveryStreamEvent } from '../../contract/webhooks.js';
import { effectiveWebhookUrl, resendEvent, ResendError } from '../../webhooks/outbox.js';
import { deliveryDetail, deliveryView, ensureSigningSecret, listenerView } from '../../webhooks/views.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { readJson, readQuery } from '../validate.js';

/** The live stream sends a comment this often so proxies and clients see the connection is alive. */
const STREAM_PING_MS = 15_000;

/** Control plane for webhooks (issue 4): deliveries, resend, listeners, live stream. */
export function controlWebhookRoutes(ctx: EmulatorContext) {
  const { store } = ctx;
  const app = (id: string) => {
    const row = store.apps.get(id);
    if (!row) throw new ApiError('resource_missing', `No app ${id.slice(0, 100)}.`, 'app_id');
    return row;
  };
  const delivery = (id: string) => {
    const row = store.webhooks.deliveryById(id);
    if (!row) throw new ApiError('resource_missing', `No delivery ${id.slice(0, 100)}.`, 'delivery_id');
    return row;
  };

  return new Hono<AppEnv>()
    .basePath(`${CONTROL_PREFIX}/webhooks`)
    .get('/deliveries', (c) => {
      const query = readQuery(c, DeliveryListQuery);
      if (query.app_id) app(query.app_id);
      return c.json({ object: 'list', data: store.webhooks.deliveries(query).map(deliveryView) });
    })
    .get('/deliveries/:delivery_id', (c) => c.json(deliveryDetail(ctx, delivery(c.req.param('delivery_id')))))
    .post('/events/:event_id/resend', (c) => {
      // A new delivery of the same event: same id, same signed bytes, due now.
      try {
        const id = resendEvent(store, ctx.ids, ctx.clock.now(), c.req.param('event_id'));
        return c.json(deliveryView(store.webhooks.deliveryById(id)!), 201);
      } catch (error) {
        if (!(error instanceof ResendError)) throw error;
        const code = error.reason === 'no_event' ? 'resource_missing' : error.reason === 'redacted' ? 'event_deleted' : 'webhook_url_missing';
        throw new ApiError(code, error.message, error.reason === 'no_event' ? 'event_id' : undefined);
      }
    })
    .get('/listeners', (c) => c.json({ object: 'list', data: store.webhooks.listeners().map(listenerView) }))
    .post('/signing-secret', async (c) => {
      // The emulator's stand-in for the portal's reveal: issues the app's whsec_ if it has none (APP-2's path).
      const { app_id } = await readJson(c, SigningSecretRequest);
      app(app_id);
      return c.json({ object: 'webhook_secret', app_id, webhook_secret: ensureSigningSecret(ctx, app_id) });
    })
    .get('/stream', (c) => {
      const query = readQuery(c, StreamQuery);
      const row = app(query.app_id);
      // `scanctl webhook listen --forward URL`: while this stream is open, URL is the app's effective webhook URL.
      const listener = query.forward ? { id: ctx.ids.id('lsn'), app_id: row.id, forward_url: query.forward, created_at: ctx.clock.now() } : null;
      if (listener) {
        ensureSigningSecret(ctx, row.id);
        store.webhooks.insertListener(listener);
      }
      return streamSSE(c, async (stream) => {
        let writing: Promise<void> = Promise.resolve();
        const send = (event: string, data: unknown) => {
          writing = writing.then(() => stream.writeSSE({ event, data: JSON.stringify(data) })).catch(() => undefined);
        };
        const onDelivery = (event: DeliveryStreamEvent) => {
          if (event.app_id === row.id) send('delivery', event);
        };
        ctx.bus.on('delivery', onDelivery);
        const ping = setInterval(() => {
          writing = writing.then(() => stream.write(': ping\n\n')).then(() => undefined, () => undefined);
        }, STREAM_PING_MS);
        try {
          send('ready', {
            object: 'webhook_stream',
            app_id: row.id,
            listener: listener ? listenerView(listener) : null,
            effective_url: effectiveWebhookUrl(store, row.id),
          });
          await new Promise<void>((resolve) => stream.onAbort(resolve));
        } finally {
          clearInterval(ping);
          ctx.bus.off('delivery', onDelivery);
          try {
            if (listener) store.webhooks.deleteListener(listener.id);
          } catch {
            // The database already closed with the server: listeners are cleared at the next start anyway.
          }
        }
      });
    });
}
